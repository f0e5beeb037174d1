import Foundation

/// One ported example: how to run it and what its output must be.
struct Example {
    let name: String
    /// Runs the example in `workspace` and checks its output; returns what was checked.
    let check: (Workspace) throws -> String
}

signal(SIGPIPE, SIG_IGN)
/// examples-check [NAME ...]: every example, or the named ones.
let only = Set(CommandLine.arguments.dropFirst())
var failures = 0
for example in allExamples where only.isEmpty || only.contains(example.name) {
    let result: (passed: Bool, text: String)
    do {
        let workspace = try Workspace(example.name)
        result = (true, try example.check(workspace))
        workspace.remove()
    } catch {
        result = (false, "\(error)")
    }
    if !result.passed { failures += 1 }
    print("\(example.name.padding(toLength: 24, withPad: " ", startingAt: 0)) \(result.passed ? "PASS" : "FAIL")  \(result.text)")
    fflush(stdout)
}
exit(failures == 0 ? 0 : 1)
