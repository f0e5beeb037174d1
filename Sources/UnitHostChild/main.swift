// auhost-unit-host <parent-pid> <type> <subtype> <manufacturer> <origin…>
//
// The child process of an out-of-process unit (issue 19): loads one component — an LV2 plug-in
// from its own bundle only, an SDK plug-in from its own folder only, or a built-in unit — and
// serves it to the host that spawned it: setup calls on the control socket (fd 3), audio and
// events through the shared block (fd 4). It dies with its parent (PR_SET_PDEATHSIG) and cannot
// gain privileges (PR_SET_NO_NEW_PRIVS). Nothing else is open.
//
// auhost-unit-host --fork-server <parent-pid>: the host's fork server (fork_server.c); each child
// it forks continues below with the arguments the host sent.
import AUHost
import AUHostCore
import CAUHostFloatMode
import CUIHost
import CUnitIsolation
import Foundation
import UnitIsolation

// The child renders as auhost does: subnormals flushed on its threads (AUHostCommand.main says why).
auhost_float_mode_flush_subnormals()

var arguments = CommandLine.arguments
if arguments.count == 3, arguments[1] == "--fork-server", let parent = pid_t(arguments[2]) {
    // The fork server (fork_server.c): returns only in a child forked for one unit, with its arguments.
    let argv = auhost_iso_fork_server(parent)!
    arguments = []
    while let argument = argv[arguments.count] { arguments.append(String(cString: argument)) }
}
guard arguments.count >= 6, let parent = pid_t(arguments[1]), let type = UInt32(arguments[2]),
    let subtype = UInt32(arguments[3]), let manufacturer = UInt32(arguments[4])
else {
    FileHandle.standardError.write(Data("usage: auhost-unit-host <parent-pid> <type> <subtype> <manufacturer> <origin>\n".utf8))
    exit(2)
}
guard auhost_iso_sandbox_child(parent) == 0 else { exit(3) }
let origin = arguments[5...].joined(separator: " ")
let description = AudioComponentDescription(
    componentType: type, componentSubType: subtype, componentManufacturer: manufacturer, componentFlags: 0, componentFlagsMask: 0)

// Its UI may be shown here, beside the plug-in (UnitServer+PluginUI): Qt on the display, if any.
auhost_ui_host_prepare_toolkits()
let server = UnitServer(control: AUHOST_ISO_CONTROL_FD, block: AUHOST_ISO_BLOCK_FD)
server.load(description: description, origin: origin)
server.serve()
exit(0)
