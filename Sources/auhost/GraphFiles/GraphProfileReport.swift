import AUHost
import Foundation

/// `auhost bench --graph`: each node's render time and the graph's critical path, so a user sees
/// why a graph does or does not scale with threads (AudioGraph.profile).
enum GraphProfileReport {
    /// Renders `cycles` blocks timed per node and prints the report.
    ///
    /// Thread: setup (renders on the calling thread).
    static func print(_ built: BuiltGraph, cycles: Int, _ renderBlock: () throws -> Void) throws {
        let graph = built.graph
        let fileName = Dictionary(built.nodes.map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        let threads = graph.renderThreads
        guard let profile = try graph.profile(cycles: cycles, renderBlock) else {
            Swift.print("per-node time: not measured (\(graph.serialReason ?? "no node renders before the head"))")
            return
        }
        let reason = graph.serialReason.map { "renders serially: \($0)" } ?? "renders in parallel"
        Swift.print("per-node time (median of \(cycles) blocks; \(threads) thread\(threads == 1 ? "" : "s"), \(reason)):")
        let width = profile.nodes.map { (fileName[$0.node] ?? "").count }.max() ?? 0
        for n in profile.nodes {
            let name = (fileName[n.node] ?? "").padding(toLength: width, withPad: " ", startingAt: 0)
            Swift.print(String(format: "  %@  %9.2f µs  %@", name, n.seconds * 1e6, n.name))
        }
        let path = profile.criticalPath.map { fileName[$0] ?? "node \($0)" }.joined(separator: " → ")
        Swift.print(
            String(
                format: "critical path: %@ (%.2f µs of %.2f µs of node work): threads can make a block at most %.2f× faster",
                path, profile.criticalSeconds * 1e6, profile.totalSeconds * 1e6, profile.parallelism))
    }
}
