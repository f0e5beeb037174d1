import ArgumentParser
import AUHost
import Foundation
import LV2Host
import LV2Units

/// `auhost ui UNIT [--ui N|URI] [--seconds S] [--screenshot FILE]`: runs an LV2 unit on silence
/// and shows its plug-in UI (AUHostLV2UI.h) until the window is closed (or S seconds pass).
/// Moving a control sets the unit's parameter; the command prints each change. Exit status 0
/// when the window was closed or the time ran out, 1 when the UI could not open or crashed.
struct UICommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ui", abstract: "Show an LV2 unit's plug-in UI while the unit runs on silence.")

    @Argument(help: "An LV2 plug-in: its URI or a unique fragment of its name.")
    var unit: String

    @Option(help: "Which UI: its index in --list or its URI (default: the first AUHost can show).")
    var ui: String?

    @Flag(help: "List the plug-in's UIs and their kinds, then exit.")
    var list = false

    @Option(help: "Close the UI after this many seconds (default: when its window is closed).")
    var seconds: Double?

    @Option(help: "Write the UI's window to FILE (PPM) once it is up (with --seconds: just before closing).")
    var screenshot: String?

    @Option(help: "The X display (default: $DISPLAY).")
    var display: String?

    @Option(name: .customShort("p"), help: "Set a parameter: NAME=VALUE (name or id; number or value string).")
    var parameters: [String] = []

    func validate() throws {
        if let seconds, !(seconds > 0 && seconds <= 86_400) { throw ValidationError("--seconds must be in (0, 86400], not \(seconds).") }
    }

    @Flag(help: "Run the unit in a process of its own (always for a UI that needs the plug-in's instance).")
    var isolate = false

    func run() throws {
        let component = try UnitLookup.component(unit)
        var instance = try AudioUnitInstance(component, outOfProcess: isolate)
        let uis = instance.lv2UIs
        if list {
            if uis.isEmpty { print("\(component.name) declares no UI.") }
            for (index, ui) in uis.enumerated() {
                let why =
                    ui.isSupported
                    ? ""
                    : ui.isShownBesidePlugin
                        ? " (needs instance-access: shown beside the plug-in, out of process)"
                        : " (not supported: neither an X11 nor a Gtk2 window can show it)"
                print("\(index)  \(ui.kindName)\(why)  \(ui.uri)")
            }
            return
        }
        // Line by line even into a pipe: scripts read the window ID and the changes as they come.
        setlinebuf(stdout)
        let index = try chooseUI(uis, name: component.name)
        // Such a UI lives in the plug-in's own process: the unit's, out of this one.
        if uis[index].isShownBesidePlugin && !isolate {
            print("\(uis[index].uri) needs the plug-in's instance: the unit runs out of process, its UI beside it.")
            instance = try AudioUnitInstance(component, outOfProcess: true)
        }
        if isolate || uis[index].isShownBesidePlugin {
            // The silence is rendered unpaced, beside a UI drawing on the same cores: a slow cycle
            // is no fault, only a child stuck for 10 s is declared hung (as `auhost render` does).
            try instance.setProperty(kAUHostIsolatedUnitProperty_RenderDeadline, 10.0 as Float64)
        }
        try instance.initialize()
        try UnitSettings.apply(preset: nil, parameters: parameters, to: instance)
        let silence = try SilenceRunner(instance)
        let pluginUI = try instance.openLV2UI(index: index, display: display)
        defer { pluginUI.close() }
        pluginUI.onEvent = { event in
            if case .valueChange(let id, let value) = event { print("parameter \(id) = \(value)") }
        }
        print("Showing \(uis[index].uri) (\(uis[index].kindName)) of \(component.name) in window 0x\(String(pluginUI.window, radix: 16)).")
        if let screenshot, seconds == nil { try pluginUI.screenshot(to: screenshot) }
        let end = seconds.map { Date().addingTimeInterval($0) }
        // jalv's rate: 30 ms between idles; the unit renders a block of silence each time.
        while try pluginUI.idle() == .open {
            if let end, Date() >= end {
                if let screenshot { try pluginUI.screenshot(to: screenshot) }
                break
            }
            try silence.renderBlock()
            usleep(30_000)
        }
        print("The UI was closed.")
    }

    private func chooseUI(_ uis: [LV2PluginUIDescriptor], name: String) throws -> Int {
        guard !uis.isEmpty else { throw ValidationError("\(name) declares no UI (status \(kAUHostLV2UIErr_UnknownUI)).") }
        guard let ui else {
            return uis.firstIndex(where: \.isSupported) ?? uis.firstIndex(where: \.isShownBesidePlugin) ?? 0
        }
        if let index = Int(ui), uis.indices.contains(index) { return index }
        if let index = uis.firstIndex(where: { $0.uri == ui }) { return index }
        throw ValidationError("\(name) has no UI \"\(ui)\"; auhost ui --list \"\(unit)\" lists \(uis.count).")
    }
}

/// Renders a unit's output on silent input, one block at a time, so meters move and the plug-in
/// runs while its UI is up. Thread: the command's.
private final class SilenceRunner {
    let instance: AudioUnitInstance
    let outputs: [AudioBufferStorage]
    var time = AudioTimeStamp()
    static let frames: UInt32 = 512

    init(_ instance: AudioUnitInstance) throws {
        self.instance = instance
        var callback = AURenderCallbackStruct(
            inputProc: { _, _, _, _, _, ioData in
                for buffer in UnsafeMutableAudioBufferListPointer(ioData!) { memset(buffer.mData!, 0, Int(buffer.mDataByteSize)) }
                return noErr
            }, inputProcRefCon: nil)
        var inputCount: UInt32 = 0, outputCount: UInt32 = 0, size: UInt32 = 4
        AudioUnitGetProperty(instance.handle, kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0, &inputCount, &size)
        AudioUnitGetProperty(instance.handle, kAudioUnitProperty_ElementCount, kAudioUnitScope_Output, 0, &outputCount, &size)
        for element in 0..<inputCount {
            try AudioError.check(
                AudioUnitSetProperty(
                    instance.handle, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, element, &callback,
                    UInt32(MemoryLayout<AURenderCallbackStruct>.size)), "Could not feed silence to input \(element).")
        }
        outputs = try (0..<outputCount).map {
            AudioBufferStorage(format: try instance.streamFormat(scope: kAudioUnitScope_Output, element: $0), capacity: Self.frames)
        }
        time.mFlags = .sampleTimeValid
    }

    func renderBlock() throws {
        for (element, storage) in outputs.enumerated() {
            storage.prepare(frames: Self.frames)
            var flags: AudioUnitRenderActionFlags = []
            try AudioError.check(
                AudioUnitRender(instance.handle, &flags, &time, UInt32(element), Self.frames, storage.list), "The unit failed to render.")
        }
        time.mSampleTime += Double(Self.frames)
    }
}
