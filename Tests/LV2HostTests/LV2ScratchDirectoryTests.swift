import Foundation
import LV2Host
import XCTest

/// Every instance makes a directory for `state:makePath`; each was left in /tmp for good (47,526
/// of them after a day of test runs on this machine).
final class LV2ScratchDirectoryTests: XCTestCase {
    func testAnInstanceRemovesItsScratchDirectoryAndWhatThePlugInWroteThere() throws {
        let plugin = try LV2TestSupport.world.plugin(uri: "http://lv2plug.in/plugins/eg-amp")
        var amp: LV2Instance? = try LV2Instance(plugin: plugin)
        let directory = try XCTUnwrap(amp?.scratchDirectory)
        var isDirectory: ObjCBool = false
        XCTAssertTrue(FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory))
        XCTAssertTrue(isDirectory.boolValue)
        XCTAssertTrue(FileManager.default.createFile(atPath: directory + "/recording.wav", contents: Data([1, 2, 3])))
        amp = nil
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory), "\(directory) outlived its instance")
    }
}
