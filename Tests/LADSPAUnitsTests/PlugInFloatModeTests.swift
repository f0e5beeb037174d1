import CAUHostFloatMode
import Foundation
import LADSPAHost
import XCTest

/// Debian's caps and zam-plugins (LADSPA and LV2 alike) are built with -ffast-math: their
/// libraries carry crtfastmath.o, whose constructor turns on flush-to-zero and denormals-are-zero
/// on the thread that opens them. Opening plug-in code must leave the host's thread as it was, or
/// everything computed on it afterwards rounds differently (hexter's render differed from a
/// direct run one frame after a note-off once caps had been opened earlier in the same process).
final class PlugInFloatModeTests: XCTestCase {
    func testOpeningAFastMathLibraryKeepsTheThreadsFloatMode() throws {
        // A copy under a new name: the loader runs the constructor again for a new file, where
        // the library already opened by an earlier test would not be loaded twice.
        let copy = LADSPATestSupport.scratch + "/caps-copy-\(UUID().uuidString).so"
        try FileManager.default.copyItem(atPath: "/usr/lib/ladspa/caps.so", toPath: copy)
        XCTAssertEqual(auhost_float_mode_keeps_subnormals(), 1, "this thread flushed subnormals before the test")
        _ = try LADSPALibrary.open(copy)
        XCTAssertEqual(auhost_float_mode_keeps_subnormals(), 1, "opening caps.so left flush-to-zero on")
    }
}
