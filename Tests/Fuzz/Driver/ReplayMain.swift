import Foundation
import FuzzHarnesses

// auhost-fuzz: the harnesses of FuzzRegistry.
//
// Fuzzing (scripts/fuzz.sh builds with -sanitize=fuzzer,address -parse-as-library -DFUZZING):
// libFuzzer's main runs and calls LLVMFuzzerTestOneInput (FuzzEntry.swift):
//   AUHOST_FUZZ_HARNESS=NAME auhost-fuzz [libFuzzer options] CORPUS…
// An ordinary build replays files once, to reproduce a finding without sanitizers:
//   auhost-fuzz --list
//   auhost-fuzz NAME FILE…

#if !FUZZING
@main
enum ReplayMain {
    /// Thread: main.
    static func main() throws {
        let arguments = CommandLine.arguments
        if arguments.count < 2 || arguments[1] == "--list" {
            for h in FuzzRegistry.harnesses { print(h.name) }
            exit(arguments.count < 2 ? 2 : 0)
        }
        guard let harness = FuzzRegistry.harness(arguments[1]) else {
            FileHandle.standardError.write(Data("No harness \"\(arguments[1])\"; `auhost-fuzz --list` names them.\n".utf8))
            exit(2)
        }
        for path in arguments.dropFirst(2) {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            data.withUnsafeBytes { harness($0) }
            print("\(path): ok")
        }
    }
}
#endif
