import AudioUnitBase
import CLV2Export
import Foundation

/// The second line a unit author writes: the same unit as an LV2 plug-in, for every Linux host
/// that loads LV2 (Ardour, Carla, Qtractor, jalv, the lilv tools…):
///
/// ```swift
/// @_cdecl("lv2_descriptor") public func lv2Descriptor(_ index: UInt32) -> UnsafeRawPointer? { exportLV2(Tremolo.self, index) }
/// ```
///
/// The SDK's build writes the bundle's Turtle by asking this descriptor (SDK/Tools/auhost-lv2-turtle.c),
/// so the data and the code never drift apart. One unit per binary: index 0, NULL otherwise.
///
/// Thread: setup (LV2's discovery class).
public func exportLV2<Kernel: EffectKernel>(_ kernel: Kernel.Type, _ index: UInt32) -> UnsafeRawPointer? {
    LV2Export.descriptor(
        index,
        LV2UnitFactory(description: Kernel.componentDescription, isInstrument: false, wantsMusicalContext: Kernel.wantsMusicalContext) {
            KernelEffectUnit<Kernel>(description: Kernel.componentDescription)
        })
}

/// The same for a per-channel kernel. Thread: setup.
public func exportLV2<Kernel: ChannelKernel>(_ kernel: Kernel.Type, _ index: UInt32) -> UnsafeRawPointer? {
    exportLV2(PerChannel<Kernel>.self, index)
}

/// The same for an instrument: its MIDI arrives through an atom port (midi:MidiEvent). Thread: setup.
public func exportLV2<Kernel: InstrumentKernel>(_ kernel: Kernel.Type, _ index: UInt32) -> UnsafeRawPointer? {
    LV2Export.descriptor(
        index,
        LV2UnitFactory(description: Kernel.componentDescription, isInstrument: true, wantsMusicalContext: Kernel.wantsMusicalContext) {
            KernelInstrumentUnit<Kernel>(description: Kernel.componentDescription)
        })
}

/// How the LV2 side makes the unit: the SDK's unit class around the author's kernel.
struct LV2UnitFactory {
    let description: AudioComponentDescription
    let isInstrument: Bool
    /// Whether the event input supports time:Position (UnitDeclaration.wantsMusicalContext).
    let wantsMusicalContext: Bool
    let make: () -> AUBase

    /// The plug-in's URI: `urn:auhost:<type>:<subtype>:<manufacturer>`, each code percent-encoded
    /// where it holds a character a URI cannot (a space, say). Thread: any.
    var uri: String {
        let codes = [description.componentType, description.componentSubType, description.componentManufacturer]
        return "urn:auhost:" + codes.map { LV2UnitFactory.uriSegment(FourCC.string($0)) }.joined(separator: ":")
    }

    static func uriSegment(_ code: String) -> String {
        var out = ""
        for byte in code.utf8 {
            let c = Character(Unicode.Scalar(byte))
            if c.isASCII && (c.isLetter || c.isNumber || "-._~".contains(c)) {
                out.append(c)
            } else {
                out += String(format: "%%%02X", byte)
            }
        }
        return out
    }
}

/// The one descriptor this binary hands out, made on the first `lv2_descriptor(0)` call and kept
/// for the life of the process (the image is never unloaded: it is linked with -z nodelete).
enum LV2Export {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var made: UnsafeMutablePointer<LV2_Descriptor>?
    /// The factory behind the descriptor: written once under the lock before the descriptor is
    /// published, read by instantiate and the generator afterwards.
    nonisolated(unsafe) static var factory: LV2UnitFactory?

    /// Thread: setup.
    static func descriptor(_ index: UInt32, _ factory: @autoclosure () -> LV2UnitFactory) -> UnsafeRawPointer? {
        guard index == 0 else { return nil }
        lock.lock()
        defer { lock.unlock() }
        if let made { return UnsafeRawPointer(made) }
        let f = factory()
        self.factory = f
        let d = UnsafeMutablePointer<LV2_Descriptor>.allocate(capacity: 1)
        d.initialize(
            to: LV2_Descriptor(
                URI: UnsafePointer(strdup(f.uri)),
                instantiate: lv2Instantiate, connect_port: lv2ConnectPort, activate: lv2Activate, run: lv2Run,
                deactivate: lv2Deactivate, cleanup: lv2Cleanup, extension_data: lv2ExtensionData))
        made = d
        return UnsafeRawPointer(d)
    }
}

// The descriptor's entries, in LV2's thread classes: instantiate, activate, deactivate and cleanup
// are "instantiation" (setup), connect_port and run "audio" (render).

private let lv2Instantiate:
    @convention(c) (
        UnsafePointer<LV2_Descriptor>?, Double, UnsafePointer<CChar>?, UnsafePointer<UnsafePointer<LV2_Feature>?>?
    ) -> LV2_Handle? = { _, rate, _, features in
        guard let factory = LV2Export.factory else { return nil }
        return LV2Instance.make(factory, sampleRate: rate, features: LV2Features(features))
    }

private let lv2ConnectPort: @convention(c) (LV2_Handle?, UInt32, UnsafeMutableRawPointer?) -> Void = { handle, port, data in
    guard let handle else { return }
    LV2RunState.connect(handle.assumingMemoryBound(to: LV2RunState.self), port: port, data)
}

private let lv2Activate: @convention(c) (LV2_Handle?) -> Void = { handle in
    guard let handle else { return }
    LV2Instance.from(handle).activate()
}

private let lv2Run: @convention(c) (LV2_Handle?, UInt32) -> Void = { handle, frames in
    guard let handle else { return }
    LV2RunState.run(handle.assumingMemoryBound(to: LV2RunState.self), frames: Int(frames))
}

private let lv2Deactivate: @convention(c) (LV2_Handle?) -> Void = { _ in }

private let lv2Cleanup: @convention(c) (LV2_Handle?) -> Void = { handle in
    guard let handle else { return }
    LV2Instance.destroy(handle)
}

private let lv2ExtensionData: @convention(c) (UnsafePointer<CChar>?) -> UnsafeRawPointer? = { uri in
    guard let uri else { return nil }
    switch String(cString: uri) {
    case LV2URI.stateInterface: return UnsafeRawPointer(LV2StateExtension.interface)
    case AUHOST_LV2_TURTLE_GENERATOR_URI: return UnsafeRawPointer(LV2TurtleExtension.generator)
    default: return nil
    }
}
