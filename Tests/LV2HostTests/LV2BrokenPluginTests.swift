import AudioToolbox
import LV2Host
import XCTest

/// Deliberately broken fixture bundles (Tests/LV2HostTests/Fixtures) give clear errors, and the
/// sweep survives plug-ins that crash.
final class LV2BrokenPluginTests: XCTestCase {
    var world: LV2World { LV2TestSupport.fixtureWorld }

    func assertThrows(_ uri: String, status: Int32, mentioning text: String, line: UInt = #line) {
        XCTAssertThrowsError(try LV2Instance(plugin: world.plugin(uri: uri)), line: line) { error in
            let error = error as? LV2HostError
            XCTAssertEqual(error?.status, OSStatus(status), line: line)
            XCTAssertTrue(error?.message.contains(text) ?? false, "\(String(describing: error))", line: line)
        }
    }

    func testMissingBinary() {
        assertThrows("urn:auhost:fixture:missing-binary", status: kAudio_FileNotFoundError, mentioning: "missing.so")
    }
    func testPortIndexGap() {
        assertThrows("urn:auhost:fixture:port-gap", status: kAudioUnitErr_InvalidFile, mentioning: "declares 3 ports")
    }
    func testMissingFeature() {
        assertThrows(
            "urn:auhost:fixture:needs-feature", status: kAudioUnitErr_FailedInitialization, mentioning: "urn:auhost:fixture:unobtainium")
    }
    func testDescriptorMissingFromBinary() {
        assertThrows(
            "urn:auhost:fixture:no-descriptor", status: kAudioUnitErr_FailedInitialization, mentioning: "could not be instantiated")
    }

    func testNaNOutputIsDetected() throws {
        let plugin = try LV2Instance(plugin: world.plugin(uri: "urn:auhost:fixture:nan"), configuration: .init(maxBlockLength: 64))
        plugin.activate()
        XCTAssertEqual(plugin.run(frames: 64), .ok)
        XCTAssertTrue(plugin.outputsContainNonFinite(frames: 64))
        XCTAssertFalse(plugin.outputsContainNonFinite(frames: 32), "the NaN is at frame 32")
    }

    func testSweepReportsCrashesInInstantiateAndRun() {
        let results = LV2Sweep.run(
            uris: [
                "urn:auhost:fixture:crash-instantiate", "urn:auhost:fixture:crash-run",
                "urn:auhost:fixture:nan", "urn:auhost:fixture:needs-feature",
            ],
            lv2Path: LV2TestSupport.fixtureDirectory, timeoutSeconds: 20)
        XCTAssertEqual(results.map(\.outcome), [.crashed, .crashed, .nonFiniteOutput, .failed])
        XCTAssertTrue(results[0].reason.contains("SIGSEGV"), results[0].reason)
        XCTAssertTrue(results[1].reason.contains("SIGSEGV"), results[1].reason)
        XCTAssertTrue(results[3].reason.contains("unobtainium"), results[3].reason)
    }

    /// The sweep over every installed plug-in: every one gets a result; the counts go to the log.
    func testSweepOverInstalledPlugins() {
        let uris = LV2TestSupport.world.plugins.map(\.uri)
        let results = LV2Sweep.run(uris: uris, timeoutSeconds: 30)
        XCTAssertEqual(results.map(\.uri), uris)
        var counts: [LV2Sweep.Outcome: Int] = [:]
        for result in results { counts[result.outcome, default: 0] += 1 }
        print("LV2 sweep: \(uris.count) plug-ins, " + counts.map { "\($0.key.rawValue) \($0.value)" }.sorted().joined(separator: ", "))
        for result in results where result.outcome != .rendered { print("  \(result.outcome.rawValue) \(result.uri): \(result.reason)") }
        XCTAssertNotNil(results.first { $0.uri == "http://lv2plug.in/plugins/eg-amp" && $0.outcome == .rendered })
    }
}
