import AUHostCore
import CUIHost
import CUnitIsolation
import Foundation
import LV2Host
import LV2Units
import UnitIsolation

/// A plug-in UI shown in this process, beside the plug-in (opcode openUI): the UI host loop of
/// auhost-ui-host (CUIHost), given the plug-in's handle, extension data and URID map, so that a
/// UI requiring instance-access or data-access works. It runs a turn at a time on the main thread,
/// between control messages: the thread that instantiated the plug-in, which Qt requires of a UI
/// whose plug-in made the QApplication (drumkv1). The host speaks the UI protocol with it over a
/// socket passed after openUI's reply. A UI that crashes takes this process, and so the unit, with
/// it: the host reports the unit's fault and may restart it.
///
/// Thread: the main thread.
extension UnitServer {
    /// What openUI prepared, opened once its reply and the host's socket are sent.
    struct PendingUI {
        let arguments: [String]
        let display: String?
        let requestable: String?
        let access: LV2InstanceUIAccess
        let uiEnd: Int32
        let hostEnd: Int32
    }

    /// Checks openUI's request and the running plug-in, and makes the UI's socket pair.
    func openPluginUI(_ r: inout ByteReader, _ unit: AudioUnit) throws {
        let count = Int(try r.u32())
        guard count <= 65_536 else { throw AudioError(kAudio_ParamError, "openUI with \(count) arguments") }
        let arguments = try (0..<count).map { _ in try r.string() }
        let display = try r.string()
        let hasRequestable = try r.u32() == 1
        let requestable = try r.string(limit: maximumPayload)
        guard pluginUI == nil else {
            throw AudioError(kAUHostLV2UIErr_LoadFailed, "Another UI of this plug-in is open beside it; close that one first.")
        }
        guard let lv2 = ComponentInstance.from(unit)?.unit as? LV2Unit else {
            throw AudioError(kAUHostLV2UIErr_UnknownUI, "The unit is not an LV2 plug-in; it has no LV2 UI.")
        }
        guard let instance = lv2.lv2Instance else {
            throw AudioError(kAudioUnitErr_Uninitialized, "The UI needs the running plug-in; initialize the unit first.")
        }
        var pair: [Int32] = [-1, -1]
        guard auhost_iso_socketpair(&pair) == 0 else {
            throw AudioError(kAUHostLV2UIErr_LoadFailed, "No socket pair for the UI: \(String(cString: strerror(errno))).")
        }
        pendingUI = PendingUI(
            arguments: arguments, display: display.isEmpty ? nil : display, requestable: hasRequestable ? requestable : nil,
            access: instance.uiAccess, uiEnd: pair[1], hostEnd: pair[0])
    }

    /// Shows the UI (up to its `ready`, or its error, which the host reads from the UI's socket).
    func showPluginUI(_ opening: PendingUI) {
        // UIs open their own connections to $DISPLAY (and Gtk reads it): it must name the host's display.
        if let display = opening.display { setenv("DISPLAY", display, 1) }
        var access = AUHostUIPluginAccess(
            handle: opening.access.handle, extension_data: opening.access.extensionData, map: opening.access.map,
            unmap: opening.access.unmap)
        var cArguments = opening.arguments.map { strdup($0) }
        defer { cArguments.forEach { free($0) } }
        pluginUI = cArguments.withUnsafeMutableBufferPointer { list in
            auhost_ui_host_open(
                opening.uiEnd, opening.uiEnd, list.baseAddress, Int32(list.count), opening.display, opening.requestable, &access)
        }
    }

    /// Runs the UI a turn, waiting at most its idle interval for a control message; true when one
    /// is there to read.
    func awaitControlWhileShowingUI() -> Bool {
        guard let ui = pluginUI else { return true }
        var fds = [pollfd](repeating: pollfd(), count: 3)
        fds[0] = pollfd(fd: control, events: Int16(POLLIN), revents: 0)
        let timeout = fds.withUnsafeMutableBufferPointer { auhost_ui_host_poll(ui, $0.baseAddress! + 1) }
        _ = poll(&fds, 3, timeout)
        if !auhost_ui_host_step(ui, fds[1].revents & Int16(POLLIN | POLLHUP) != 0) { closePluginUI() }
        return fds[0].revents != 0
    }

    /// Ends a UI beside the plug-in before the plug-in it may reach into goes away.
    func closePluginUI() {
        if let ui = pluginUI { auhost_ui_host_close(ui) }
        pluginUI = nil
    }
}
