import AudioUnitBase
import AUHostPlugInABI
import Foundation

/// The one line a unit author writes to export a unit from a plug-in, named in the manifest's
/// "factoryFunction":
///
/// ```swift
/// @_cdecl("TremoloFactory") public func tremoloFactory(_ d: UnsafePointer<AudioComponentDescription>?) -> UnsafeMutableRawPointer? { exportUnit(Tremolo.self, d) }
/// ```
///
/// It returns the unit as an AudioComponentPlugInInterface, or NULL (with the reason kept for
/// the host, see AUHostPlugInCopyFactoryError) when the description is not the kernel's.
///
/// Thread: setup.
public func exportUnit<Kernel: EffectKernel>(_ kernel: Kernel.Type, _ description: UnsafePointer<AudioComponentDescription>?)
    -> UnsafeMutableRawPointer?
{
    guard let asked = checkedDescription(Kernel.componentDescription, description) else { return nil }
    return UnsafeMutableRawPointer(AUBase.makePlugIn(KernelEffectUnit<Kernel>(description: asked)))
}

/// The same for a per-channel kernel (one instance per channel).
///
/// Thread: setup.
public func exportUnit<Kernel: ChannelKernel>(_ kernel: Kernel.Type, _ description: UnsafePointer<AudioComponentDescription>?)
    -> UnsafeMutableRawPointer?
{
    exportUnit(PerChannel<Kernel>.self, description)
}

/// The description the factory was asked for, if it is the one the kernel declares.
func checkedDescription(_ own: AudioComponentDescription, _ asked: UnsafePointer<AudioComponentDescription>?) -> AudioComponentDescription?
{
    guard let asked = asked?.pointee else {
        FactoryError.set(kAudio_ParamError, "The factory was called with a NULL description.")
        return nil
    }
    guard asked.componentType == own.componentType, asked.componentSubType == own.componentSubType,
        asked.componentManufacturer == own.componentManufacturer
    else {
        FactoryError.set(
            kAudioUnitErr_InvalidFile,
            "the manifest describes \(asked.tripleString) but the binary's factory makes \(own.tripleString); correct the manifest's type, subtype and manufacturer"
        )
        return nil
    }
    FactoryError.set(noErr, nil)
    return asked
}

/// Why the last factory call on a thread returned NULL, for the host to read.
enum FactoryError {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var last: [UInt: (OSStatus, String)] = [:]

    static func set(_ status: OSStatus, _ message: String?) {
        lock.lock()
        defer { lock.unlock() }
        last[UInt(pthread_self())] = message.map { (status, $0) }
    }

    static func take() -> (OSStatus, String)? {
        lock.lock()
        defer { lock.unlock() }
        return last.removeValue(forKey: UInt(pthread_self()))
    }
}

/// Exported: why the last factory call on this thread returned NULL (see AUHostPlugIn.h).
///
/// Thread: setup.
@_cdecl("AUHostPlugInCopyFactoryError")
public func _AUHostPlugInCopyFactoryError(_ buffer: UnsafeMutablePointer<CChar>?, _ size: UInt32) -> OSStatus {
    guard let (status, message) = FactoryError.take() else { return noErr }
    if let buffer, size > 0 {
        let bytes = Array(message.utf8.prefix(Int(size) - 1))
        for (i, b) in bytes.enumerated() { buffer[i] = CChar(bitPattern: b) }
        buffer[bytes.count] = 0
    }
    return status
}

/// Exported: the plug-in ABI version this binary was built against (AUHOST_PLUGIN_ABI_VERSION).
///
/// Thread: any.
@_cdecl("AUHostPlugInABIVersion")
public func _AUHostPlugInABIVersion() -> UInt32 { UInt32(AUHOST_PLUGIN_ABI_VERSION) }
