import AUHost
import Foundation

/// Watches out-of-process units (`"isolated": true`, `--isolate`): when one faults, says so on
/// standard error with the unit's sentence (AUHostIsolatedUnitCopyFaultDescription) and restarts
/// it (AUHostIsolatedUnitRestart), at most ``restartLimit`` times a unit; after that the unit stays
/// silent and the rest renders on.
///
/// Thread: setup (the offline render loop or the device player's waiting loop).
final class IsolationSupervisor {
    static let restartLimit = 3
    private var units: [(name: String, unit: AudioUnit, restarts: Int, reported: Bool)]

    /// `units`: the out-of-process units by the name messages use.
    init(_ units: [(name: String, unit: AudioUnit)]) {
        self.units = units.filter { AUHostIsolatedUnitIsOutOfProcess($0.unit) != 0 }.map { ($0.name, $0.unit, 0, false) }
    }

    /// Reports and restarts units that faulted since the last call; returns the lines it wrote.
    @discardableResult
    func check() -> [String] {
        var lines: [String] = []
        for i in units.indices {
            guard let sentence = AUHostIsolatedUnitCopyFaultDescription(units[i].unit)?.takeRetainedValue() else { continue }
            let text = CFBridge.value(UnsafeRawPointer(Unmanaged.passUnretained(sentence).toOpaque()))?.stringValue ?? "a fault"
            if units[i].restarts >= Self.restartLimit {
                if !units[i].reported {
                    lines.append("auhost: \(units[i].name): \(text) It was restarted \(Self.restartLimit) times already; it stays silent.")
                    units[i].reported = true
                }
                continue
            }
            lines.append("auhost: \(units[i].name): \(text)")
            units[i].restarts += 1
            let status = AUHostIsolatedUnitRestart(units[i].unit)
            lines.append(
                status == noErr
                    ? "auhost: \(units[i].name) restarted (\(units[i].restarts) of \(Self.restartLimit))."
                    : "auhost: \(units[i].name) could not be restarted: \(LastErrorMessage.current ?? "status \(status)")")
        }
        for line in lines { FileHandle.standardError.write(Data((line + "\n").utf8)) }
        return lines
    }
}
