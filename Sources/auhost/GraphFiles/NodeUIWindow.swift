import ArgumentParser
import AUHost
import Foundation
import LV2Units

/// A node's plug-in UI shown while its graph plays on a device (`play UNIT --ui`, `run GRAPH --ui
/// NODE`): opened before the graph starts, idled from the player's waiting loop at jalv's rate,
/// and closing its window stops playback. Prints where it shows and each change the UI makes,
/// as `auhost ui` does. Thread: the command's.
final class NodeUIWindow {
    private let ui: LV2PluginUI
    private var lastIdle = Date.distantPast
    private var crashed = false

    /// Opens the first UI AUHost can show of node `node`'s unit (an LV2 unit), on `display`.
    init(_ built: BuiltGraph, node: String, display: String?) throws {
        guard case .device = built.file.head else {
            throw ValidationError("--ui shows a UI while the graph plays on a device; this graph renders into a file.")
        }
        let unit = try built.unit(node)
        var count: UInt32 = 0
        var opened: LV2PluginUI?
        try AudioError.check(AUHostLV2UIGetCount(unit, &count), "Node \(node) is not an LV2 unit: --ui shows LV2 plug-in UIs.")
        for index in 0..<count {
            var uri: Unmanaged<CFString>?, kind: Unmanaged<CFString>?
            var supported: DarwinBoolean = false
            guard AUHostLV2UICopyInfo(unit, index, &uri, &kind, &supported) == noErr else { continue }
            let (uriText, kindText) = (String(cfString: uri?.takeRetainedValue()) ?? "", String(cfString: kind?.takeRetainedValue()) ?? "")
            guard supported.boolValue else { continue }
            let ui = try LV2PluginUI(unit: unit, index: Int(index), display: display)
            setlinebuf(stdout)  // scripts read the window and the changes as they come
            print(
                "Showing \(uriText) (\(kindText.split(separator: "#").last ?? "")) of node \(node) in window 0x\(String(ui.window, radix: 16))."
            )
            opened = ui
            break
        }
        guard let ui = opened else {
            guard count > 0 else { throw AudioError(kAUHostLV2UIErr_UnknownUI, "Node \(node) has no plug-in UI.") }
            // Its first UI's own refusal says why (a kind no window shows, or the plug-in's
            // instance needed: then the node must run out of process).
            _ = try LV2PluginUI(unit: unit, index: 0, display: display)
            throw AudioError(kAUHostLV2UIErr_UnknownUI, "None of node \(node)'s UIs can be shown (auhost ui --list names their kinds).")
        }
        ui.onEvent = { event in
            if case .valueChange(let id, let value) = event { print("parameter \(id) = \(value)") }
        }
        self.ui = ui
    }

    deinit { ui.close() }

    /// Idles the UI if 30 ms have passed since the last time; false once its window was closed.
    /// A UI that crashed is said on standard error, and playback goes on without it.
    func idle() -> Bool {
        guard !crashed, Date().timeIntervalSince(lastIdle) >= 0.03 else { return true }
        lastIdle = Date()
        do { return try ui.idle() == .open } catch {
            crashed = true
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            return true
        }
    }
}
