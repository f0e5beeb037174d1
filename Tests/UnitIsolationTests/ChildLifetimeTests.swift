import AUHost
import Foundation
import UnitIsolation
import XCTest

/// A unit's process lives as long as the unit, whichever thread made it: the child asks for
/// SIGKILL when its parent ends (PR_SET_PDEATHSIG), which Linux sends when the parent *thread*
/// ends, so children are started by one thread that lives as long as the host process.
final class ChildLifetimeTests: XCTestCase {
    func testAUnitMadeOnAThreadThatEndsKeepsItsProcess() throws {
        var desc = AudioComponentDescription(
            type: kAudioUnitType_Effect, subType: kAudioUnitSubType_Delay, manufacturer: kAudioUnitManufacturer_Apple)
        nonisolated(unsafe) let component = try XCTUnwrap(AudioComponentFindNext(nil, &desc))
        nonisolated(unsafe) var made: AudioUnit?
        let done = DispatchSemaphore(value: 0)
        Thread {
            made = try? instantiate(component, outOfProcess: true)
            done.signal()
        }.start()
        done.wait()
        // The thread has ended (or is about to): a child tied to it was killed within milliseconds.
        usleep(300_000)
        let rig = try IsolationRig(try XCTUnwrap(made))
        let unit = rig.unit
        var pid: UInt32 = 0
        var size: UInt32 = 4
        XCTAssertEqual(AudioUnitGetProperty(unit, kAUHostIsolatedUnitProperty_ProcessID, kAudioUnitScope_Global, 0, &pid, &size), noErr)
        XCTAssertNotEqual(pid, 0, "the unit's process ended with the thread that made the unit")
        XCTAssertNil(AUHostIsolatedUnitCopyFaultDescription(unit).map { String(describing: $0.takeRetainedValue()) })
        XCTAssertTrue(try rig.render(blocks: 2, frames: 256)[0].contains { $0 != 0 }, "it renders its input")
    }
}
