import Foundation
import LV2Host
import XCTest

/// Worlds on different threads never parse Turtle at once. lilv 0.24 formats every file's
/// blank-node prefix in one static buffer that all worlds share, so two worlds parsing at once
/// could give two files of one world the same prefix and merge their ports (two catalog worlds
/// read ZamDynamicEQ with 5 audio inputs and no output, once in three CI runs). The race itself
/// is too narrow to catch in a test (six rounds of two worlds on two threads read right, three
/// times): this test checks that each way a world reads files waits for the one lock.
final class LV2ConcurrentWorldsTests: XCTestCase {
    private let ampURI = "http://lv2plug.in/plugins/eg-amp"

    /// `read` runs on another thread while this thread holds the reads' lock: it must not end
    /// until the lock is let go, and then it must.
    private func assertWaitsForTheReadLock(_ what: String, _ read: @escaping @Sendable () -> Void) {
        let ended = DispatchSemaphore(value: 0)
        let endedEarly = LV2TurtleReads.withLock {
            Thread.detachNewThread {
                read()
                ended.signal()
            }
            return ended.wait(timeout: .now() + 0.5) == .success
        }
        XCTAssertFalse(endedEarly, "\(what) read files while another thread held the lock")
        if !endedEarly { XCTAssertEqual(ended.wait(timeout: .now() + 60), .success, "\(what) never ended") }
    }

    func testEveryWayAWorldReadsFilesTakesTheOneLock() throws {
        let path = LV2SearchPath().text
        assertWaitsForTheReadLock("a whole world") { _ = LV2World(lv2Path: path) }
        let bundle = try XCTUnwrap(URL(string: LV2TestSupport.world.plugin(uri: ampURI).bundleURI)).path + "/"
        nonisolated(unsafe) let world = LV2World(supportBundles: [], lv2Path: nil)
        assertWaitsForTheReadLock("a bundle") { world.load(bundle: bundle) }

        // A descriptor reads its plug-in's data on first use.
        nonisolated(unsafe) let amp = try world.plugin(uri: ampURI)
        nonisolated(unsafe) var name = ""
        assertWaitsForTheReadLock("a plug-in's first query") { name = amp.name }
        XCTAssertEqual(name, "Simple Amplifier")
    }
}
