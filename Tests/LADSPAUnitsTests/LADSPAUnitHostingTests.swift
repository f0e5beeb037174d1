import AUHost
import Foundation
import LADSPAUnits
import XCTest

/// LADSPA units reached the ways every unit is: AudioComponentFindNext by triple, `auhost render`
/// by label, and out of process (`--isolate`, the unit-host child describes its library itself).
final class LADSPAUnitHostingTests: XCTestCase {
    /// (The tests' provider over the fixed path may sit beside the default one over the system's
    /// path, which knows the same plug-in under the same triple: the walk must reach the tests'.)
    func testFindNextFindsALADSPAUnitByItsTriple() throws {
        let hpf = try LADSPATestSupport.component("hpf")
        var search = hpf.description
        search.componentFlags = 0
        search.componentFlagsMask = 0
        var found: [UnsafeRawPointer] = []
        var next = AudioComponentFindNext(nil, &search)
        while let component = next {
            found.append(UnsafeRawPointer(component))
            next = AudioComponentFindNext(component, &search)
        }
        XCTAssertTrue(found.contains(UnsafeRawPointer(hpf.handle)), "FindNext by hpf's triple did not reach it")
        var name: Unmanaged<CFString>?
        XCTAssertEqual(AudioComponentCopyName(hpf.handle, &name), noErr)
        // "Manufacturer: Name", the maker without its e-mail address and the spaces around it.
        XCTAssertEqual(hpf.name, "CMT (http://www.ladspa.org/cmt, plugin by Richard W.E. Furse): High Pass Filter (One Pole)")
        XCTAssertEqual(try LADSPATestSupport.component("gate").name, "Steve Harris: Gate")
    }

    /// The same file through the unit in process and out of process: the same bytes.
    func testIsolatedRenderEqualsTheInProcessRender() throws {
        let folder = LADSPATestSupport.scratch + "/isolate"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let input = folder + "/in.wav"
        let sox = LADSPATestSupport.run(
            "/usr/bin/sox", ["-n", "-r", "44100", "-b", "16", "-c", "1", input, "synth", "0.5", "sine", "300", "vol", "0.5"])
        XCTAssertEqual(sox.status, 0, sox.output)
        // The provider's cache (same path): the CLI need not describe the libraries again.
        let environment = LADSPATestSupport.cliEnvironment
        let auhost = LADSPATestSupport.products + "/auhost"
        var outputs: [Data] = []
        for isolate in [false, true] {
            let output = folder + (isolate ? "/isolated.wav" : "/plain.wav")
            let result = LADSPATestSupport.run(
                auhost, ["render", "-i", input, "-o", output, "tap_deesser", "-p", "0=-30"] + (isolate ? ["--isolate"] : []),
                environment: environment)
            XCTAssertEqual(result.status, 0, result.output)
            outputs.append(try Data(contentsOf: URL(fileURLWithPath: output)))
        }
        XCTAssertEqual(outputs[0], outputs[1])
        XCTAssertGreaterThan(outputs[0].count, 44_100)
    }

    /// `auhost validate` and `auhost bench` take LADSPA and DSSI units as they take any unit: every
    /// check of the battery passes for CMT's high-pass filter and for hexter, and a block of the
    /// filter allocates nothing.
    func testValidatedAndBenchedLikeEveryUnit() throws {
        let auhost = LADSPATestSupport.products + "/auhost"
        for unit in ["hpf", "hexter"] {
            let result = LADSPATestSupport.run(auhost, ["validate", unit], environment: LADSPATestSupport.cliEnvironment)
            XCTAssertEqual(result.status, 0, result.output)
            XCTAssertTrue(result.output.contains("1 units: 1 passed, 0 passed with warnings, 0 failed"), result.output)
            XCTAssertFalse(result.output.contains("FAIL "), result.output)
        }
        let bench = LADSPATestSupport.run(auhost, ["bench", "hpf"], environment: LADSPATestSupport.cliEnvironment)
        XCTAssertEqual(bench.status, 0, bench.output)
        XCTAssertTrue(bench.output.contains("allocations per block: 0.00"), bench.output)
    }

    /// `auhost info` by label, by unique ID, by a fragment of the name, and by "ladspa:LABEL" where
    /// an LV2 unit has the same name (swh's LADSPA "gate" and its LV2 "Gate").
    func testCLIFindsUnitsByLabelUniqueIDAndPrefixedLabel() throws {
        let auhost = LADSPATestSupport.products + "/auhost"
        let lookups = [
            ("hpf", "ladspa hpf 1052 "), ("1052", "ladspa hpf 1052 "), ("ladspa:gate", "ladspa gate 1410 "),
            ("High Pass Filter (One Pole)", "ladspa hpf 1052 "), ("DX7 emulation", "ladspa hexter 2183 "),
        ]
        for (unit, origin) in lookups {
            let result = LADSPATestSupport.run(auhost, ["info", unit], environment: LADSPATestSupport.cliEnvironment)
            XCTAssertEqual(result.status, 0, result.output)
            XCTAssertTrue(result.output.contains("origin:      " + origin), result.output)
        }
        let missing = LADSPATestSupport.run(auhost, ["info", "ladspa:no-such-label"], environment: LADSPATestSupport.cliEnvironment)
        XCTAssertNotEqual(missing.status, 0)
        XCTAssertTrue(missing.output.contains("No LADSPA or DSSI plug-in is labelled"), missing.output)
    }
}
