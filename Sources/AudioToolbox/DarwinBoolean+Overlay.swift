@_weakLinked import CAudioToolbox

// MacTypes' `Boolean` (unsigned char) imports into Swift as UInt8 off Apple's platforms: the
// importer maps it to Darwin's `DarwinBoolean` behind pointers and to `Bool` as a value only
// where the Darwin module exists. These declarations give ported code Apple's shapes anyway:
// `var updated: DarwinBoolean = false; AUGraphUpdate(graph, &updated)` and
// `CFURLCreateFromFileSystemRepresentation(nil, path, length, false)`. Each overload forwards to
// the C function (a DarwinBoolean is one UInt8, as Darwin's is); calls written with UInt8 or nil
// still reach the C functions directly (the overloads are disfavoured where both would match).
// SDK plug-ins compile this module in and must not need host functions they never call: the
// overloads are emitted into their callers (@_alwaysEmitIntoClient) and referenced weakly here.
// Functions that only *return* Boolean stay UInt8 (docs/PORTING.md).

/// Darwin's one-byte Boolean, for `Boolean *` out-parameters.
@frozen
public struct DarwinBoolean: ExpressibleByBooleanLiteral, Equatable, Hashable, CustomStringConvertible, Sendable {
    @usableFromInline var _value: UInt8

    /// Thread: any.
    @inlinable public init(_ value: Bool) { _value = value ? 1 : 0 }
    /// Thread: any.
    @inlinable public init(booleanLiteral value: Bool) { self.init(value) }
    /// Any non-zero byte is true, as in C.
    @inlinable public var boolValue: Bool { _value != 0 }
    public var description: String { boolValue.description }
    public static func == (lhs: DarwinBoolean, rhs: DarwinBoolean) -> Bool { lhs.boolValue == rhs.boolValue }
    public func hash(into hasher: inout Hasher) { hasher.combine(boolValue) }
}

extension Bool {
    /// Thread: any.
    @inlinable public init(_ darwinBoolean: DarwinBoolean) { self = darwinBoolean.boolValue }
}

/// AUGraphUpdate with Apple's `DarwinBoolean` out-parameter. Thread: setup.
@_alwaysEmitIntoClient
@_disfavoredOverload
@discardableResult
public func AUGraphUpdate(_ inGraph: AUGraph, _ outIsUpdated: UnsafeMutablePointer<DarwinBoolean>?) -> OSStatus {
    guard let outIsUpdated else { return CAudioToolbox.AUGraphUpdate(inGraph, nil) }
    return outIsUpdated.withMemoryRebound(to: UInt8.self, capacity: 1) { CAudioToolbox.AUGraphUpdate(inGraph, $0) }
}

/// AUGraphIsOpen with Apple's `DarwinBoolean` out-parameter. Thread: any.
@_alwaysEmitIntoClient
@discardableResult
public func AUGraphIsOpen(_ inGraph: AUGraph, _ outIsOpen: UnsafeMutablePointer<DarwinBoolean>) -> OSStatus {
    outIsOpen.withMemoryRebound(to: UInt8.self, capacity: 1) { CAudioToolbox.AUGraphIsOpen(inGraph, $0) }
}

/// AUGraphIsInitialized with Apple's `DarwinBoolean` out-parameter. Thread: any.
@_alwaysEmitIntoClient
@discardableResult
public func AUGraphIsInitialized(_ inGraph: AUGraph, _ outIsInitialized: UnsafeMutablePointer<DarwinBoolean>) -> OSStatus {
    outIsInitialized.withMemoryRebound(to: UInt8.self, capacity: 1) { CAudioToolbox.AUGraphIsInitialized(inGraph, $0) }
}

/// AUGraphIsRunning with Apple's `DarwinBoolean` out-parameter. Thread: any.
@_alwaysEmitIntoClient
@discardableResult
public func AUGraphIsRunning(_ inGraph: AUGraph, _ outIsRunning: UnsafeMutablePointer<DarwinBoolean>) -> OSStatus {
    outIsRunning.withMemoryRebound(to: UInt8.self, capacity: 1) { CAudioToolbox.AUGraphIsRunning(inGraph, $0) }
}

/// AUGraphSetLatencyCompensation with a Bool, as on Apple. Thread: setup.
@_alwaysEmitIntoClient
@discardableResult
public func AUGraphSetLatencyCompensation(_ inGraph: AUGraph, _ inEnabled: Bool) -> OSStatus {
    CAudioToolbox.AUGraphSetLatencyCompensation(inGraph, inEnabled ? 1 : 0)
}

/// AudioUnitGetPropertyInfo with Apple's `DarwinBoolean` out-parameter. Thread: setup.
@_alwaysEmitIntoClient
@_disfavoredOverload
@discardableResult
public func AudioUnitGetPropertyInfo(
    _ inUnit: AudioUnit, _ inID: AudioUnitPropertyID, _ inScope: AudioUnitScope,
    _ inElement: AudioUnitElement, _ outDataSize: UnsafeMutablePointer<UInt32>?,
    _ outWritable: UnsafeMutablePointer<DarwinBoolean>?
) -> OSStatus {
    guard let outWritable else { return CAudioToolbox.AudioUnitGetPropertyInfo(inUnit, inID, inScope, inElement, outDataSize, nil) }
    return outWritable.withMemoryRebound(to: UInt8.self, capacity: 1) {
        CAudioToolbox.AudioUnitGetPropertyInfo(inUnit, inID, inScope, inElement, outDataSize, $0)
    }
}

/// ExtAudioFileGetPropertyInfo with Apple's `DarwinBoolean` out-parameter. Thread: setup.
@_alwaysEmitIntoClient
@_disfavoredOverload
@discardableResult
public func ExtAudioFileGetPropertyInfo(
    _ inExtAudioFile: ExtAudioFileRef, _ inPropertyID: ExtAudioFilePropertyID,
    _ outSize: UnsafeMutablePointer<UInt32>?,
    _ outWritable: UnsafeMutablePointer<DarwinBoolean>?
) -> OSStatus {
    guard let outWritable else { return CAudioToolbox.ExtAudioFileGetPropertyInfo(inExtAudioFile, inPropertyID, outSize, nil) }
    return outWritable.withMemoryRebound(to: UInt8.self, capacity: 1) {
        CAudioToolbox.ExtAudioFileGetPropertyInfo(inExtAudioFile, inPropertyID, outSize, $0)
    }
}

/// CFURLCreateFromFileSystemRepresentation with a Bool, as on Apple. Thread: any.
@_alwaysEmitIntoClient
@discardableResult
public func CFURLCreateFromFileSystemRepresentation(
    _ allocator: CFAllocator!, _ buffer: UnsafePointer<UInt8>!, _ bufLen: CFIndex,
    _ isDirectory: Bool
) -> CFURL! {
    CAudioToolbox.CFURLCreateFromFileSystemRepresentation(allocator, buffer, bufLen, isDirectory ? 1 : 0)
}

/// CFURLCreateWithFileSystemPath with a Bool, as on Apple. Thread: any.
@_alwaysEmitIntoClient
@discardableResult
public func CFURLCreateWithFileSystemPath(
    _ allocator: CFAllocator!, _ filePath: CFString!, _ pathStyle: CFURLPathStyle,
    _ isDirectory: Bool
) -> CFURL! {
    CAudioToolbox.CFURLCreateWithFileSystemPath(allocator, filePath, pathStyle, isDirectory ? 1 : 0)
}

/// CFURLGetFileSystemRepresentation with Bools, as on Apple. Thread: any.
@_alwaysEmitIntoClient
@discardableResult
public func CFURLGetFileSystemRepresentation(
    _ url: CFURL!, _ resolveAgainstBase: Bool, _ buffer: UnsafeMutablePointer<UInt8>!,
    _ maxBufLen: CFIndex
) -> Bool {
    CAudioToolbox.CFURLGetFileSystemRepresentation(url, resolveAgainstBase ? 1 : 0, buffer, maxBufLen) != 0
}

/// CFRunLoopRunInMode with a Bool, as on Apple. Thread: the run loop's own thread (it runs it).
@_alwaysEmitIntoClient
@discardableResult
public func CFRunLoopRunInMode(_ mode: CFString!, _ seconds: CFTimeInterval, _ returnAfterSourceHandled: Bool) -> CFRunLoopRunResult {
    CAudioToolbox.CFRunLoopRunInMode(mode, seconds, returnAfterSourceHandled ? 1 : 0)
}
