import Foundation

/// What the LADSPA sweep (scripts/ladspa-sweep.py) needs to drive applyplugin and the reference
/// host with exactly the values a unit starts with: `lv2-sweep-child --ladspa-defaults RATE
/// LIBRARY LABEL` prints "audio INPUTS OUTPUTS", "latency 0|1", "inplace-broken 0|1", then one
/// "control PORT VALUE" per control input, in port order, VALUE with 9 significant digits (a
/// float's exact value reads back). Runs the library's code: a child's job.
public enum LADSPADefaultsReport {
    public static let childFlag = "--ladspa-defaults"

    /// The child's side; exits 0, or 1 with "failed REASON". Thread: setup (child's main).
    public static func childMain(arguments: [String]) -> Never {
        guard arguments.count == 3, let rate = Double(arguments[0]) else {
            print("failed usage: \(childFlag) RATE LIBRARY LABEL")
            exit(2)
        }
        do {
            guard let plugin = try LADSPALibrary.open(arguments[1]).describe().first(where: { $0.label == arguments[2] }) else {
                print("failed no plug-in \(arguments[2]) in \(arguments[1])")
                exit(1)
            }
            print("audio \(plugin.audioInputs.count) \(plugin.audioOutputs.count)")
            print("latency \(plugin.ports.contains(where: \.reportsLatency) ? 1 : 0)")
            print("inplace-broken \(plugin.isInPlaceBroken ? 1 : 0)")
            for port in plugin.controlInputs {
                print("control \(port) \(String(format: "%.9g", Double(plugin.ports[port].defaultValue(sampleRate: rate))))")
            }
            exit(0)
        } catch {
            print("failed \(error)")
            exit(1)
        }
    }
}
