import Foundation
import LV2Host
import LV2Units
import TestSupport
import XCTest

/// Broken fixture bundles give clear errors through AudioComponentInstanceNew / Initialize /
/// Render; crashing ones are isolated by the sweep's child process; block-length fixtures show
/// the re-blocking.
final class LV2UnitFixtureTests: XCTestCase {
    func fixture(_ name: String) throws -> Component {
        try XCTUnwrap(LV2UnitTestSupport.fixtures.component(uri: "urn:auhost:fixture:\(name)"), name)
    }

    func lastMessage() -> String { String(cfString: AUHostCopyLastErrorMessage()?.takeRetainedValue()) ?? "" }

    func assertInstanceNewFails(_ name: String, _ status: OSStatus, mentioning text: String, line: UInt = #line) throws {
        var unit: AudioUnit?
        XCTAssertEqual(AudioComponentInstanceNew(try fixture(name).handle, &unit), status, line: line)
        XCTAssertNil(unit, line: line)
        let message = lastMessage()
        XCTAssertTrue(message.contains(text), message, line: line)
    }

    func testMissingBinaryIsRefusedByInstanceNew() throws {
        try assertInstanceNewFails("missing-binary", kAudio_FileNotFoundError, mentioning: "missing.so")
    }

    /// Port indices that are not dense (0, 1, 3) mark the bundle's data as broken: discovery leaves
    /// the plug-in out (with a warning) instead of offering a component that cannot be made, and
    /// the LV2 layer refuses it with kAudioUnitErr_InvalidFile naming the index.
    func testPortIndexGapIsRefusedByDiscovery() throws {
        XCTAssertNil(LV2UnitTestSupport.fixtures.component(uri: "urn:auhost:fixture:port-gap"))
        let world = LV2World(lv2Path: LV2UnitTestSupport.fixtureDirectory)
        XCTAssertThrowsError(try LV2Instance.checkLoadable(world.plugin(uri: "urn:auhost:fixture:port-gap"))) { error in
            let error = error as? LV2HostError
            XCTAssertEqual(error?.status, kAudioUnitErr_InvalidFile)
            XCTAssertTrue(error?.message.contains("port index 3") ?? false, error?.message ?? "")
        }
    }

    func testMissingFeatureIsNamedByInstanceNew() throws {
        try assertInstanceNewFails("needs-feature", kAudioUnitErr_FailedInitialization, mentioning: "urn:auhost:fixture:unobtainium")
    }

    func testDescriptorMissingFromBinaryFailsInitialize() throws {
        var unit: AudioUnit?
        XCTAssertEqual(AudioComponentInstanceNew(try fixture("no-descriptor").handle, &unit), noErr)
        defer { AudioComponentInstanceDispose(unit!) }
        XCTAssertEqual(AudioUnitInitialize(unit!), kAudioUnitErr_FailedInitialization)
        XCTAssertTrue(lastMessage().contains("could not be instantiated"), lastMessage())
    }

    /// NaN output: the render fails with kAudioUnitErr_InvalidOfflineRender, the output is
    /// silenced, and the RenderProblem property says why.
    func testNaNOutputIsSilencedAndExplained() throws {
        let rig = try LV2UnitRig(component: try fixture("nan"), maxFrames: 64)
        rig.inputs = [[LV2UnitTestSupport.noise(64, seed: 5)]]
        let storage = rig.storages[0]
        storage.prepare(frames: 64)
        var flags: AudioUnitRenderActionFlags = []
        XCTAssertEqual(AudioUnitRender(rig.unit, &flags, &rig.time, 0, 64, storage.list), kAudioUnitErr_InvalidOfflineRender)
        XCTAssertEqual(storage.samples(channel: 0, frames: 64), [Float](repeating: 0, count: 64))
        var problem: Unmanaged<CFString>?
        var size = UInt32(MemoryLayout<UnsafeRawPointer>.size)
        XCTAssertEqual(AudioUnitGetProperty(rig.unit, kLV2UnitProperty_RenderProblem, kAudioUnitScope_Global, 0, &problem, &size), noErr)
        let text = String(cfString: problem?.takeRetainedValue()) ?? ""
        XCTAssertTrue(text.contains("NaN") && text.contains("urn:auhost:fixture:nan"), text)
    }

    /// A plug-in that requires lv2:isLive (fomp reverb in Debian) loads as a unit in live mode:
    /// its instantiate returns NULL unless isLive is offered, so the exact copy proves the
    /// feature was passed. Directly, offline, it is refused naming the feature; the unit refuses
    /// to leave live mode.
    func testPluginRequiringIsLiveRunsThroughTheUnitInLiveMode() throws {
        let rig = try LV2UnitRig(component: try fixture("needs-live"), maxFrames: 256)
        var live: UInt32 = 9
        var size: UInt32 = 4
        XCTAssertEqual(AudioUnitGetProperty(rig.unit, kLV2UnitProperty_LiveWorker, kAudioUnitScope_Global, 0, &live, &size), noErr)
        XCTAssertEqual(live, 1)
        let input = LV2UnitTestSupport.noise(1000, seed: 11)
        rig.inputs = [[input]]
        XCTAssertEqual(rig.render(frames: 1000, block: 256)[0][0], input)
        XCTAssertEqual(AudioUnitUninitialize(rig.unit), noErr)
        var offline: UInt32 = 0
        XCTAssertEqual(
            AudioUnitSetProperty(rig.unit, kLV2UnitProperty_LiveWorker, kAudioUnitScope_Global, 0, &offline, 4),
            kAudioUnitErr_InvalidPropertyValue)
        XCTAssertTrue(lastMessage().contains("isLive"), lastMessage())
        let world = LV2World(lv2Path: LV2UnitTestSupport.fixtureDirectory)
        XCTAssertThrowsError(try LV2Instance(plugin: world.plugin(uri: "urn:auhost:fixture:needs-live"))) { error in
            XCTAssertTrue("\(error)".contains("isLive"), "\(error)")
        }
    }

    /// Crashes in instantiate and run are reported by the sweep's child (through the unit API), not fatal.
    func testSweepThroughTheUnitReportsCrashes() {
        let results = LV2Sweep.run(
            uris: [
                "urn:auhost:fixture:crash-instantiate", "urn:auhost:fixture:crash-run",
                "urn:auhost:fixture:nan", "urn:auhost:fixture:needs-feature", "urn:auhost:fixture:pow2-block",
            ],
            lv2Path: LV2UnitTestSupport.fixtureDirectory, timeoutSeconds: 20, throughUnit: true)
        XCTAssertEqual(results.map(\.outcome), [.crashed, .crashed, .nonFiniteOutput, .failed, .rendered])
        XCTAssertTrue(results[0].reason.contains("SIGSEGV"), results[0].reason)
        XCTAssertTrue(results[1].reason.contains("SIGSEGV"), results[1].reason)
        XCTAssertTrue(
            results[3].reason.contains("AudioComponentInstanceNew") && results[3].reason.contains("unobtainium"), results[3].reason)
    }

    /// A fixed-block plug-in under irregular slices: it only ever runs 256-frame blocks (else it
    /// would write NaN), and the unit's output is its input delayed by exactly one block, which
    /// the Latency property reports.
    func testFixedBlockPluginIsReblockedWithOneBlockOfLatency() throws {
        let rig = try LV2UnitRig(component: try fixture("fixed-block"), maxFrames: 256)
        let input = LV2UnitTestSupport.noise(3000, seed: 9)
        rig.inputs = [[input]]
        var output: [Float] = []
        for slice in [100, 37, 256, 1, 200, 256, 150] + Array(repeating: 250, count: 8) {
            output += rig.render(frames: slice, block: slice)[0][0]
        }
        XCTAssertEqual(Array(output.prefix(256)), [Float](repeating: 0, count: 256))
        XCTAssertEqual(Array(output[256...]), Array(input.prefix(output.count - 256)))
        var seconds: Float64 = -1
        var size = UInt32(8)
        XCTAssertEqual(AudioUnitGetProperty(rig.unit, kAudioUnitProperty_Latency, kAudioUnitScope_Global, 0, &seconds, &size), noErr)
        XCTAssertEqual(seconds, 256.0 / 48_000)
    }

    /// A power-of-two plug-in under 300-frame slices: each slice runs as 256 + 32 + 8 + 4 frames,
    /// so the output equals the input with no added latency.
    func testPowerOfTwoPluginRunsSlicesInPowerOfTwoPieces() throws {
        let rig = try LV2UnitRig(component: try fixture("pow2-block"), maxFrames: 300)
        let input = LV2UnitTestSupport.noise(3000, seed: 10)
        rig.inputs = [[input]]
        XCTAssertEqual(rig.render(frames: 3000, block: 300)[0][0], input)
        var seconds: Float64 = -1
        var size = UInt32(8)
        XCTAssertEqual(AudioUnitGetProperty(rig.unit, kAudioUnitProperty_Latency, kAudioUnitScope_Global, 0, &seconds, &size), noErr)
        XCTAssertEqual(seconds, 0)
    }

    /// A plug-in that writes its latency port only when it processes audio (not on the 0-frame run
    /// lv2.h provides for it) gets the fallback: one silent block, then a reset. Latency is its 64
    /// frames right after AudioUnitInitialize, and the output is the input delayed by exactly
    /// those 64 frames from the first render on, as a fresh instance's.
    func testLatencyWrittenOnlyWithAudioIsKnownAtInitialize() throws {
        let rig = try LV2UnitRig(component: try fixture("lazy-latency"), maxFrames: 256)
        var seconds: Float64 = -1
        var size = UInt32(8)
        XCTAssertEqual(AudioUnitGetProperty(rig.unit, kAudioUnitProperty_Latency, kAudioUnitScope_Global, 0, &seconds, &size), noErr)
        XCTAssertEqual(seconds, 64.0 / 48_000)
        XCTAssertEqual(rig.parameter(2), 64, "the latency meter")
        let input = LV2UnitTestSupport.noise(2000, seed: 11)
        rig.inputs = [[input]]
        let output = rig.render(frames: 2000, block: 200)[0][0]
        XCTAssertEqual(Array(output.prefix(64)), [Float](repeating: 0, count: 64))
        XCTAssertEqual(Array(output[64...]), Array(input.prefix(2000 - 64)))
    }
}
