import Foundation
import FuzzHarnesses

// The libFuzzer entry points, called by libFuzzer's main in the fuzzing build: the harness is
// the one AUHOST_FUZZ_HARNESS names; AUHOST_FUZZ_LIST=1 prints the names instead.

/// The harness AUHOST_FUZZ_HARNESS names (an unknown name ends the process with the list).
let selectedHarness: (UnsafeRawBufferPointer) -> Void = {
    let name = ProcessInfo.processInfo.environment["AUHOST_FUZZ_HARNESS"] ?? ""
    guard let harness = FuzzRegistry.harness(name) else {
        FileHandle.standardError.write(
            Data("Set AUHOST_FUZZ_HARNESS to one of: \(FuzzRegistry.harnesses.map(\.name).joined(separator: ", ")).\n".utf8))
        exit(2)
    }
    return harness
}()

/// Thread: the fuzzer's (one).
@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(_ argc: UnsafeMutablePointer<Int32>?, _ argv: UnsafeMutableRawPointer?) -> Int32 {
    if ProcessInfo.processInfo.environment["AUHOST_FUZZ_LIST"] == "1" {
        for h in FuzzRegistry.harnesses { print(h.name) }
        exit(0)
    }
    if ProcessInfo.processInfo.environment["AUHOST_CAPI_FUZZ_LIST_UNITS"] == "1" {
        for (i, name) in CAPIFuzz.builtInTargetNames.enumerated() { print("unit \(i): \(name)") }
        exit(0)
    }
    if let pinned = CAPIFuzz.pinnedTargetName { FileHandle.standardError.write(Data("CAPIFuzz pinned to \(pinned)\n".utf8)) }
    _ = selectedHarness
    CAPIFuzz.discoverUnits()
    return 0
}

/// Thread: the fuzzer's (one).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    selectedHarness(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

#if FUZZING
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

/// The program's entry point in the fuzzing build (SwiftPM points `main` at MODULE_main):
/// libFuzzer's engine with the command line as given.
@_cdecl("auhost_fuzz_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    var argc = argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
    _ = fuzzerInitialize(nil, nil)
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzerTestOneInput(data, size) }
}
#endif
