// lv2-sweep-child [--unit] <plugin-uri> <timeout-seconds> [lv2-path]
// Runs one plug-in through LV2SmokeRender (or, with --unit, through the Audio Unit API with
// LV2UnitSmokeRender) and prints one result line for LV2Sweep: "RENDERED peak …", "NONFINITE …"
// or "FAILED <message>". A crash ends the process on its signal, which the parent reports; an
// alarm bounds hangs.
//
// lv2-sweep-child --ladspa-describe <timeout-seconds> <library>...: describes LADSPA libraries for
// LADSPAScan (the host never runs a LADSPA library's code to list it).
// lv2-sweep-child --ladspa-defaults <rate> <library> <label>: a plug-in's control defaults for the
// LADSPA sweep (LADSPADefaultsReport).
//
// lv2-sweep-child --catalog-share <lv2-path> <bundle>...: reads those bundles' plug-ins for a cold
// catalog read in the parent (LV2CatalogStore.readBundles) and prints them in the cache's format.
//
// lv2-sweep-child --catalog <lv2-path>: loads the catalog of that path through the cache
// (LV2CatalogStore) and prints "CATALOG <plug-ins> plug-ins, <read> bundles read"; the cache tests
// start several at once.
import AUHost
import LADSPAHost
import LV2Host
import LV2Units
#if canImport(Glibc)
import Glibc
#endif

var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == LADSPAScan.childFlag { LADSPAScan.childMain(arguments: Array(arguments.dropFirst())) }
if arguments.first == LADSPADefaultsReport.childFlag { LADSPADefaultsReport.childMain(arguments: Array(arguments.dropFirst())) }
if arguments.first == LV2CatalogStore.shareFlag { LV2CatalogStore.shareChildMain(arguments: Array(arguments.dropFirst())) }
if arguments.count == 2, arguments[0] == "--catalog" {
    let snapshot = LV2CatalogStore.load(path: LV2SearchPath(lv2Path: arguments[1])) { _ in }
    print("CATALOG \(snapshot.catalog.entries.count) plug-ins, \(snapshot.bundlesRead) bundles read")
    exit(0)
}
let throughUnit = arguments.first == "--unit"
if throughUnit { arguments.removeFirst() }
guard arguments.count >= 2, let timeout = UInt32(arguments[1]) else {
    print("FAILED usage: lv2-sweep-child [--unit] <plugin-uri> <timeout-seconds> [lv2-path]")
    exit(2)
}
alarm(timeout)
setvbuf(stdout, nil, _IOLBF, 0)
let lv2Path = arguments.count > 2 ? arguments[2] : nil
func printReport(_ report: LV2SmokeRender.Report) {
    print("\(report.producedNonFinite ? "NONFINITE" : "RENDERED") \(report.framesRendered) frames, peak \(report.peak)")
}
do {
    if throughUnit {
        // Printed before the unit is disposed: a crash in the plug-in's cleanup then still ends
        // this process on its signal (reported as a crash), after saying what was rendered.
        _ = try LV2UnitSmokeRender.run(uri: arguments[0], provider: LV2Provider(lv2Path: lv2Path), rendered: printReport)
    } else {
        printReport(try LV2SmokeRender.run(LV2World(lv2Path: lv2Path).plugin(uri: arguments[0])))
    }
    exit(0)
} catch let error as LV2HostError {
    print("FAILED \(error.description)")
    exit(1)
} catch let error as AudioError {
    print("FAILED \(error.message) (OSStatus \(error.status))")
    exit(1)
} catch {
    print("FAILED \(error)")
    exit(1)
}
