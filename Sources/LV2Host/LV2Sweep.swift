import AudioTypes

#if canImport(Glibc)
import Glibc
#endif

/// Runs plug-ins in child processes so one that crashes or hangs cannot take the host down.
///
/// ```swift
/// let results = LV2Sweep.run(uris: world.plugins.map(\.uri))
/// for r in results where r.outcome != .rendered { print(r.uri, r.outcome, r.reason) }
/// ```
public enum LV2Sweep {
    /// How one plug-in fared.
    public enum Outcome: String, Equatable, Sendable {
        /// Instantiated and rendered with finite output.
        case rendered
        /// Rendered but produced NaN or infinity.
        case nonFiniteOutput
        /// The layer refused or could not instantiate it (reason: the error message).
        case failed
        /// The child died on a signal (reason names it) or timed out.
        case crashed
    }

    public struct Result: Equatable, Sendable {
        public let uri: String
        public let outcome: Outcome
        /// The error message, signal, or a summary of the render ("peak 0.42").
        public let reason: String
    }

    /// The `lv2-sweep-child` executable: `$LV2_SWEEP_CHILD`, else where ``HelperProgram`` finds it.
    /// Thread: any.
    public static func defaultChildPath() -> String {
        HelperProgram.path(named: "lv2-sweep-child", environment: "LV2_SWEEP_CHILD")
    }

    /// Runs each URI in its own child (`child [--unit] <uri> <timeout> [lv2Path]`), at most
    /// `parallel` at a time, each killed after `timeoutSeconds`. With `throughUnit` the child
    /// renders through the Audio Unit API (LV2Units) instead of LV2Instance directly. Results are
    /// in the order of `uris`. Thread: setup (non-real-time); blocks until all children end.
    public static func run(
        uris: [String], lv2Path: String? = nil, childPath: String = defaultChildPath(),
        timeoutSeconds: UInt32 = 30, parallel: Int = 2, throughUnit: Bool = false
    ) -> [Result] {
        var results = [Result?](repeating: nil, count: uris.count)
        var running: [(child: HelperChild, index: Int)] = []
        var next = 0
        while next < uris.count || !running.isEmpty {
            while next < uris.count && running.count < max(parallel, 1) {
                let arguments =
                    [childPath] + (throughUnit ? ["--unit"] : []) + [uris[next], String(timeoutSeconds)] + (lv2Path.map { [$0] } ?? [])
                switch HelperChild.start(arguments) {
                case .success(let child): running.append((child, next))
                case .failure(let failure): results[next] = Result(uri: uris[next], outcome: .failed, reason: failure.message)
                }
                next += 1
            }
            // Reap the oldest; children write little, so reading to EOF never blocks them long.
            let child = running.removeFirst()
            results[child.index] = finish(uri: uris[child.index], child: child.child)
        }
        return results.map { $0! }
    }

    /// The results as a tab-separated table (URI, result, reason), one plug-in per line after a
    /// header. Thread: any.
    public static func table(_ results: [Result]) -> String {
        "uri\tresult\treason\n" + results.map { "\($0.uri)\t\($0.outcome.rawValue)\t\($0.reason)\n" }.joined()
    }

    /// Runs one plug-in in a child. Thread: setup (non-real-time).
    public static func run(
        uri: String, lv2Path: String? = nil, childPath: String = defaultChildPath(),
        timeoutSeconds: UInt32 = 30
    ) -> Result {
        run(uris: [uri], lv2Path: lv2Path, childPath: childPath, timeoutSeconds: timeoutSeconds, parallel: 1)[0]
    }

    private static func finish(uri: String, child: HelperChild) -> Result {
        let (output, status) = child.finish()
        let text = String(decoding: output, as: UTF8.self)
        let lastLine = text.split(separator: "\n").last.map(String.init) ?? ""
        let signal = status & 0x7f
        if signal != 0 {
            let name =
                signal == SIGSEGV
                ? "SIGSEGV"
                : signal == SIGABRT
                    ? "SIGABRT"
                    : signal == SIGALRM
                        ? "SIGALRM (timed out)"
                        : signal == SIGBUS ? "SIGBUS" : signal == SIGFPE ? "SIGFPE" : signal == SIGILL ? "SIGILL" : "signal \(signal)"
            return Result(uri: uri, outcome: .crashed, reason: "child killed by \(name)")
        }
        let fields = lastLine.split(separator: " ", maxSplits: 1).map(String.init)
        let detail = fields.count > 1 ? fields[1] : ""
        switch fields.first {
        case "RENDERED": return Result(uri: uri, outcome: .rendered, reason: detail)
        case "NONFINITE": return Result(uri: uri, outcome: .nonFiniteOutput, reason: detail)
        case "FAILED": return Result(uri: uri, outcome: .failed, reason: detail)
        default:
            return Result(
                uri: uri, outcome: .failed,
                reason: "child exited with status \((status >> 8) & 0xff) and no result line")
        }
    }
}
