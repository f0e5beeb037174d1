import ArgumentParser
import AUHost
import Foundation

/// `auhost validate UNIT | --all [--json]`: the auval-style battery (ValidationBattery), each unit
/// in a child process of this binary, so a unit that crashes is a FAIL naming the signal and
/// `--all` goes on. Exit status 0 only when no check failed.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check units the way auval does; each unit runs in a child process.")

    @Argument(help: "A triple (\"aufx dely AUHs\"), an LV2 URI, or a unique fragment of the unit's name.")
    var unit: String?

    @Flag(help: "Validate every installed unit.")
    var all = false

    @Flag(help: "Print a JSON report instead of text.")
    var json = false

    @Option(help: "Seconds a unit may take before it is stopped and failed.")
    var timeout: Double = 120

    func validate() throws {
        guard (unit == nil) != !all else { throw ValidationError("Name one UNIT or pass --all (not both).") }
        guard timeout > 0 else { throw ValidationError("--timeout must be positive.") }
    }

    struct UnitReport: Codable {
        var triple: String
        var name: String
        var origin: String
        var result: CheckResult.Outcome
        var checks: [CheckResult]
    }

    struct Report: Codable {
        var units: [UnitReport]
        var summary: [String: Int]
    }

    func run() throws {
        let components = all ? ComponentRegistry.shared.all : [try UnitLookup.component(unit!)]
        var reports: [UnitReport] = []
        for component in components {
            let report = validateInChild(component)
            reports.append(report)
            if !json { printText(report) }
        }
        let failed = reports.filter { $0.result == .fail }.count
        let warned = reports.filter { $0.result == .warn }.count
        let summary = ["units": reports.count, "passed": reports.count - failed - warned, "warned": warned, "failed": failed]
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(Report(units: reports, summary: summary)), as: UTF8.self))
        } else {
            print("\(reports.count) units: \(summary["passed"]!) passed, \(warned) passed with warnings, \(failed) failed")
        }
        if failed > 0 { throw ExitCode(1) }
    }

    private func printText(_ r: UnitReport) {
        print("\(r.triple)  \(r.name)  —  \(r.result.rawValue)")
        for c in r.checks { print("  \(c.outcome.rawValue)  \(c.check): \(c.reason)") }
    }

    /// Runs `auhost validate-child TYPE SUBTYPE MANUFACTURER` and reads its JSON lines; a signal,
    /// a non-zero exit or the timeout adds a FAIL.
    private func validateInChild(_ component: Component) -> UnitReport {
        let d = component.description
        var checks: [CheckResult] = []
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = [
            "validate-child", FourCC.string(d.componentType), FourCC.string(d.componentSubType), FourCC.string(d.componentManufacturer),
        ]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
            let deadline = DispatchWorkItem { if process.isRunning { process.terminate() } }
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: deadline)
            let data = out.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            deadline.cancel()
            let decoder = JSONDecoder()
            for line in data.split(separator: UInt8(ascii: "\n")) {
                if let r = try? decoder.decode(CheckResult.self, from: Data(line)) { checks.append(r) }
            }
            if process.terminationReason == .uncaughtSignal {
                let signal = process.terminationStatus
                let name =
                    signal == SIGTERM
                    ? "SIGTERM (timed out after \(Int(timeout)) s)"
                    : (String(validatingCString: strsignal(signal)) ?? "signal") + " (signal \(signal))"
                checks.append(
                    CheckResult(
                        check: "process", outcome: .fail,
                        reason: "the unit crashed the validating process with \(name) after \(checks.count) checks"))
            } else if process.terminationStatus != 0 {
                checks.append(
                    CheckResult(
                        check: "process", outcome: .fail, reason: "the validating process exited with status \(process.terminationStatus)"))
            }
        } catch {
            checks.append(CheckResult(check: "process", outcome: .fail, reason: "could not start the validating process: \(error)"))
        }
        let result: CheckResult.Outcome =
            checks.contains { $0.outcome == .fail } ? .fail : checks.contains { $0.outcome == .warn } ? .warn : .pass
        return UnitReport(triple: d.tripleString, name: component.name, origin: component.origin, result: result, checks: checks)
    }
}

/// The hidden child of `auhost validate`: runs the battery on one unit, printing each result as a
/// JSON line as soon as it is known (so results before a crash reach the parent).
struct ValidateChildCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "validate-child", shouldDisplay: false)

    @Argument(help: "Type, subtype and manufacturer codes.")
    var codes: [String]

    func run() throws {
        guard codes.count == 3, let t = FourCC.code(codes[0]), let s = FourCC.code(codes[1]), let m = FourCC.code(codes[2]) else {
            throw ValidationError("validate-child takes TYPE SUBTYPE MANUFACTURER.")
        }
        let d = AudioComponentDescription(type: t, subType: s, manufacturer: m)
        guard let component = ComponentRegistry.shared.all.first(where: { $0.description == d }) else {
            throw AudioError(kAudioComponentErr_UnsupportedType, "No unit is \(d.tripleString).")
        }
        var battery = ValidationBattery(component: component)
        let encoder = JSONEncoder()
        battery.onResult = { result in
            if let data = try? encoder.encode(result) {
                FileHandle.standardOutput.write(data + Data("\n".utf8))
            }
        }
        battery.run()
    }
}
