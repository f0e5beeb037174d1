import ArgumentParser
import AUHost
import Foundation

/// `auhost preset save UNIT NAME`: a user preset, as jalv saves one.
struct PresetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preset", abstract: "Save user presets.", subcommands: [PresetSaveCommand.self])
}

/// `auhost preset save UNIT NAME [--preset P] [-p NAME=VALUE]… [--into DIR]`: an LV2 unit's
/// settings saved as an LV2 preset bundle, listed afterwards by this host (`auhost info`,
/// `--preset NAME`), lv2info and every LV2 host.
struct PresetSaveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "save",
        abstract: "Save an LV2 unit's settings as an LV2 preset (a bundle in ~/.lv2, or --into DIR).")

    @Argument(help: "An LV2 plug-in: its URI or a unique fragment of its name.")
    var unit: String

    @Argument(help: "The preset's name.")
    var name: String

    @Option(help: "Start from a factory preset (name or number).")
    var preset: String?

    @Option(name: .customShort("p"), help: "Set a parameter: NAME=VALUE (name or id; number or value string).")
    var parameters: [String] = []

    @Option(help: "The folder to save the preset's bundle into (default: ~/.lv2; it must be on LV2_PATH to be found).")
    var into: String?

    /// Blocks of 512 silent frames rendered before saving (convoLV2 takes an impulse response in
    /// two: the patch:Set, then its worker's reply).
    static let settlingBlocks = 8

    func validate() throws {
        if name.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("The preset needs a name.") }
    }

    func run() throws {
        let component = try UnitLookup.component(unit)
        let rig = try OfflineUnitRig(component: component, sampleRate: 48_000, channels: 2, maxFrames: 512)
        let instance = rig.unit
        try UnitSettings.apply(preset: preset, parameters: parameters, to: instance)
        // Paths and strings reach the plug-in as patch:Set in its next run, and some load them
        // through their worker: a few silent blocks first, so the state saved holds them.
        for _ in 0..<Self.settlingBlocks {
            try AudioError.check(rig.render(frames: 512), LastErrorMessage.current ?? "The unit did not render.")
        }
        let name = CFBridge.string(self.name)
        defer { name.release() }
        let folder = into.map { CFBridge.string(URL(fileURLWithPath: $0).path) }
        defer { folder?.release() }
        var bundle: Unmanaged<CFString>?
        try AudioError.check(
            AUHostLV2SaveUserPreset(instance.handle, name.takeUnretainedValue(), folder?.takeUnretainedValue(), &bundle),
            LastErrorMessage.current ?? "The preset could not be saved.")
        let path = String(cfString: bundle?.takeRetainedValue()) ?? "?"
        print("Saved preset \"\(self.name)\" of \(component.name) in \(path).")
    }
}
