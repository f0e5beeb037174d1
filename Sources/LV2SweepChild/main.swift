// lv2-sweep-child <plugin-uri> <timeout-seconds> [lv2-path]
// Runs one plug-in through LV2SmokeRender and prints one result line for LV2Sweep:
// "RENDERED peak …", "NONFINITE …" or "FAILED <message>". A crash ends the process on its signal,
// which the parent reports; an alarm bounds hangs.
import LV2Host
#if canImport(Glibc)
import Glibc
#endif

let arguments = CommandLine.arguments
guard arguments.count >= 3, let timeout = UInt32(arguments[2]) else {
    print("FAILED usage: lv2-sweep-child <plugin-uri> <timeout-seconds> [lv2-path]")
    exit(2)
}
alarm(timeout)
setvbuf(stdout, nil, _IOLBF, 0)
let world = LV2World(lv2Path: arguments.count > 3 ? arguments[3] : nil)
do {
    let report = try LV2SmokeRender.run(world.plugin(uri: arguments[1]))
    print("\(report.producedNonFinite ? "NONFINITE" : "RENDERED") \(report.framesRendered) frames, peak \(report.peak)")
    exit(0)
} catch let error as LV2HostError {
    print("FAILED \(error.description)")
    exit(1)
} catch {
    print("FAILED \(error)")
    exit(1)
}
