import AUHostCore
import CUIHost
import CUnitIsolation
import Foundation
import LV2Host

/// A plug-in UI shown in this process, beside the plug-in (opcode openUI): the UI host loop of
/// auhost-ui-host (CUIHost) on a thread of its own, given the plug-in's handle, extension data
/// and URID map, so that a UI requiring instance-access or data-access works. The host speaks
/// the UI protocol with it over a socket it receives. A UI that crashes takes this process, and
/// so the unit, with it: the host reports the unit's fault and may restart it.
///
/// Thread: setup (the main thread); the UI runs on its own.
final class PluginUIThread {
    /// Our copy of the UI's end of the socket: shutting it down ends the UI's loop.
    private let wake: Int32
    private let ended = DispatchSemaphore(value: 0)

    /// Starts the UI; answers it and the host's end of the socket (to be passed to the host).
    static func start(arguments: [String], display: String?, requestable: String?, access: LV2InstanceUIAccess) throws -> (
        PluginUIThread, Int32
    ) {
        var pair: [Int32] = [-1, -1]
        guard auhost_iso_socketpair(&pair) == 0 else {
            throw AudioError(kAUHostLV2UIErr_LoadFailed, "No socket pair for the UI: \(String(cString: strerror(errno))).")
        }
        let uiEnd = pair[1]
        let ui = PluginUIThread(wake: dup(uiEnd))
        let ended = ui.ended
        let thread = Thread {
            // Owned by this thread until the loop returns (it closes `uiEnd`).
            var cArguments = arguments.map { strdup($0) }
            var pluginAccess = AUHostUIPluginAccess(
                handle: access.handle, extension_data: access.extensionData, map: access.map, unmap: access.unmap)
            _ = cArguments.withUnsafeMutableBufferPointer { list in
                auhost_ui_host_run(uiEnd, uiEnd, list.baseAddress, Int32(list.count), display, requestable, &pluginAccess)
            }
            cArguments.forEach { free($0) }
            ended.signal()
        }
        thread.name = "auhost plug-in UI"
        // UIs' toolkits (Qt, Gtk, OpenGL) expect a main thread's stack, not Foundation's 512 KiB.
        thread.stackSize = 8 << 20
        thread.start()
        return (ui, pair[0])
    }

    private init(wake: Int32) {
        self.wake = wake
    }

    /// Whether the UI's loop is still running.
    var isRunning: Bool {
        guard ended.wait(timeout: .now()) == .success else { return true }
        ended.signal()
        return false
    }

    /// Ends the UI (as the host going away would) and waits for its thread, before the plug-in
    /// it may reach into is freed.
    func close() {
        shutdown(wake, Int32(SHUT_RDWR))
        ended.wait()
        ended.signal()
        Glibc.close(wake)
    }
}
