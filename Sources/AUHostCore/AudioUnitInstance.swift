import AudioUnitBase

/// The idiomatic Swift face of an AudioUnit: throwing calls whose errors carry the documented
/// status, typed accessors for the standard properties and parameters. It owns the instance
/// (disposed on deinit) and its `handle` works with every C API call.
///
/// ```swift
/// let delay = try AudioUnitInstance(AudioComponentDescription("aufx", "dely")!)
/// try delay.setStreamFormat(.canonical(sampleRate: 48_000, channels: 2), scope: kAudioUnitScope_Input)
/// try delay.setRenderCallback(bus: 0, callback)
/// try delay.initialize()
/// ```
public final class AudioUnitInstance {
    /// The C handle (AudioUnit).
    public let handle: AudioUnit
    /// The component it was made from.
    public let component: Component

    /// Makes an instance of the first component matching `description` (0 as wildcard).
    ///
    /// Thread: setup.
    public convenience init(_ description: AudioComponentDescription) throws {
        guard let component = ComponentRegistry.shared.findNext(after: nil, matching: description) else {
            throw AudioError(kAudioComponentErr_UnsupportedType, "No unit matches \(description.tripleString).")
        }
        try self.init(component)
    }

    /// Makes an instance of `component`.
    ///
    /// Thread: setup.
    public init(_ component: Component) throws {
        var handle: AudioComponentInstance?
        try AudioError.check(
            AudioComponentInstanceNew(component.handle, &handle),
            LastErrorMessage.current ?? "Could not make \(component.name).")
        self.handle = handle!
        self.component = component
    }

    /// Makes an instance of `component` in a child process of its own when `outOfProcess` (as
    /// AudioComponentInstantiate with kAudioComponentInstantiation_LoadOutOfProcess; see
    /// AUHostIsolation.h), else in this process.
    ///
    /// Thread: setup.
    public init(_ component: Component, outOfProcess: Bool) throws {
        var handle: AudioComponentInstance?
        try AudioError.check(
            newInstance(component.handle, outOfProcess: outOfProcess, &handle),
            LastErrorMessage.current ?? "Could not make \(component.name).")
        self.handle = handle!
        self.component = component
    }

    deinit { AudioComponentInstanceDispose(handle) }

    /// Thread: setup.
    public func initialize() throws {
        try AudioError.check(AudioUnitInitialize(handle), LastErrorMessage.current ?? "Initialize failed.")
    }

    /// Thread: setup.
    public func uninitialize() throws {
        try AudioError.check(AudioUnitUninitialize(handle), LastErrorMessage.current ?? "Uninitialize failed.")
    }

    /// Thread: setup.
    public func reset() throws {
        try AudioError.check(AudioUnitReset(handle, kAudioUnitScope_Global, 0), LastErrorMessage.current ?? "Reset failed.")
    }

    /// A fixed-size property value. A value of another size than T's is refused
    /// (kAudio_ParamError). An Optional T reads its wrapped type: `(try? unit.property(id)) ?? 0`
    /// infers T = UInt32?, which would otherwise read 4 bytes into a 5-byte Optional.
    ///
    /// Thread: setup.
    public func property<T>(
        _ id: AudioUnitPropertyID, scope: AudioUnitScope = kAudioUnitScope_Global,
        element: AudioUnitElement = 0, as: T.Type = T.self
    ) throws -> T {
        if let optional = T.self as? any OptionalPropertyValue.Type {
            return try optional.read(self, id, scope, element) as! T
        }
        let value = UnsafeMutableRawPointer.allocate(byteCount: MemoryLayout<T>.size, alignment: MemoryLayout<T>.alignment)
        defer { value.deallocate() }
        var size = UInt32(MemoryLayout<T>.size)
        try AudioError.check(
            AudioUnitGetProperty(handle, id, scope, element, value, &size),
            LastErrorMessage.current ?? "Could not read \(propertyName(id)).")
        guard size == MemoryLayout<T>.size else {
            throw AudioError(
                kAudio_ParamError, "\(propertyName(id)) is \(size) bytes, not the \(MemoryLayout<T>.size) bytes of \(T.self).")
        }
        return value.load(as: T.self)
    }

    /// Sets a fixed-size property value. `T` is bitwise-copyable: its bytes are the value (a class
    /// reference or an Optional's tag byte would hand the unit a pointer or padding).
    ///
    /// Thread: setup.
    public func setProperty<T: BitwiseCopyable>(
        _ id: AudioUnitPropertyID, scope: AudioUnitScope = kAudioUnitScope_Global,
        element: AudioUnitElement = 0, _ value: T
    ) throws {
        var copy = value
        try AudioError.check(
            AudioUnitSetProperty(handle, id, scope, element, &copy, UInt32(MemoryLayout<T>.size)),
            LastErrorMessage.current ?? "Could not set \(propertyName(id)).")
    }

    /// Thread: setup.
    public func streamFormat(scope: AudioUnitScope, element: AudioUnitElement = 0) throws -> AudioStreamBasicDescription {
        try property(kAudioUnitProperty_StreamFormat, scope: scope, element: element)
    }

    /// Thread: setup.
    public func setStreamFormat(_ format: AudioStreamBasicDescription, scope: AudioUnitScope, element: AudioUnitElement = 0) throws {
        try setProperty(kAudioUnitProperty_StreamFormat, scope: scope, element: element, format)
    }

    /// kAudioUnitProperty_MaximumFramesPerSlice.
    ///
    /// Thread: setup.
    public var maximumFramesPerSlice: UInt32 {
        get throws { try property(kAudioUnitProperty_MaximumFramesPerSlice) }
    }

    /// Thread: setup.
    public func setMaximumFramesPerSlice(_ frames: UInt32) throws {
        try setProperty(kAudioUnitProperty_MaximumFramesPerSlice, frames)
    }

    /// Feeds input bus `bus` from a render callback.
    ///
    /// Thread: setup.
    public func setRenderCallback(bus: AudioUnitElement, _ callback: AURenderCallback, refCon: UnsafeMutableRawPointer? = nil) throws {
        try setProperty(
            kAudioUnitProperty_SetRenderCallback, scope: kAudioUnitScope_Input, element: bus,
            AURenderCallbackStruct(inputProc: callback, inputProcRefCon: refCon))
    }

    /// Feeds input bus `bus` from another unit's output bus (kAudioUnitProperty_MakeConnection).
    ///
    /// Thread: setup.
    public func connectInput(_ bus: AudioUnitElement, from source: AudioUnitInstance, output: AudioUnitElement = 0) throws {
        try setProperty(
            kAudioUnitProperty_MakeConnection, scope: kAudioUnitScope_Input, element: bus,
            AudioUnitConnection(sourceAudioUnit: source.handle, sourceOutputNumber: output, destInputNumber: bus))
    }

    /// Thread: any.
    public func parameter(
        _ id: AudioUnitParameterID, scope: AudioUnitScope = kAudioUnitScope_Global,
        element: AudioUnitElement = 0
    ) throws -> AudioUnitParameterValue {
        var value: AudioUnitParameterValue = 0
        try AudioError.check(
            AudioUnitGetParameter(handle, id, scope, element, &value),
            "No parameter \(id) in \(scopeName(scope)) scope, element \(element).")
        return value
    }

    /// Thread: any.
    public func setParameter(
        _ id: AudioUnitParameterID, _ value: AudioUnitParameterValue, scope: AudioUnitScope = kAudioUnitScope_Global,
        element: AudioUnitElement = 0
    ) throws {
        try AudioError.check(
            AudioUnitSetParameter(handle, id, scope, element, value, 0),
            "Could not set parameter \(id) in \(scopeName(scope)) scope, element \(element) to \(value).")
    }

    /// The parameters of a scope, with their info.
    ///
    /// Thread: setup.
    public func parameterDefinitions(scope: AudioUnitScope = kAudioUnitScope_Global) throws -> [(
        id: AudioUnitParameterID, info: AudioUnitParameterInfo
    )] {
        var size: UInt32 = 0
        try AudioError.check(AudioUnitGetPropertyInfo(handle, kAudioUnitProperty_ParameterList, scope, 0, &size, nil), "No parameter list.")
        var ids = [AudioUnitParameterID](repeating: 0, count: Int(size) / 4)
        if size > 0 {
            try AudioError.check(
                AudioUnitGetProperty(handle, kAudioUnitProperty_ParameterList, scope, 0, &ids, &size), "No parameter list.")
        }
        return try ids.map { id in
            var info = AudioUnitParameterInfo()
            var infoSize = UInt32(MemoryLayout<AudioUnitParameterInfo>.size)
            try AudioError.check(
                AudioUnitGetProperty(handle, kAudioUnitProperty_ParameterInfo, scope, id, &info, &infoSize), "No info for parameter \(id).")
            info.cfNameString?.release()
            info.cfNameString = nil
            return (id, info)
        }
    }

    /// The unit's state (ClassInfo) as a property-list value.
    ///
    /// Thread: setup.
    public func classInfo() throws -> PropertyListValue {
        let ref: UnsafeRawPointer? = try property(kAudioUnitProperty_ClassInfo)
        defer { ref.map { Unmanaged<AnyObject>.fromOpaque($0).release() } }
        guard let value = CFBridge.value(ref) else { throw AudioError(kAudioUnitErr_InvalidPropertyValue, "ClassInfo was empty.") }
        return value
    }

    /// Restores state from ``classInfo()``.
    ///
    /// Thread: setup.
    public func setClassInfo(_ value: PropertyListValue) throws {
        let object = CFBridge.propertyList(value)
        defer { object.release() }
        try setProperty(kAudioUnitProperty_ClassInfo, UnsafeRawPointer(object.toOpaque()))
    }

    /// AudioUnitRender.
    ///
    /// Thread: render.
    public func render(
        _ flags: inout AudioUnitRenderActionFlags, _ timeStamp: inout AudioTimeStamp, bus: UInt32,
        frames: UInt32, _ buffers: UnsafeMutablePointer<AudioBufferList>
    ) -> OSStatus {
        AudioUnitRender(handle, &flags, &timeStamp, bus, frames, buffers)
    }
}

/// Lets ``AudioUnitInstance/property(_:scope:element:as:)`` read an Optional as its wrapped type.
protocol OptionalPropertyValue {
    static func read(_ unit: AudioUnitInstance, _ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement) throws
        -> Self
}

extension Optional: OptionalPropertyValue {
    static func read(_ unit: AudioUnitInstance, _ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement) throws
        -> Self
    {
        try unit.property(id, scope: scope, element: element, as: Wrapped.self)
    }
}
