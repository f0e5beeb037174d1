import AUHost
import CAUHostFloatMode
import XCTest

/// libSoundTouchDll (time-pitch) is built with -ffast-math, whose start-up code switches the
/// loading thread to flush subnormals to zero: every program that linked AUHost lost IEEE
/// arithmetic near zero on its main thread. AUHost now opens it on first use and gives the
/// loading thread its own mode back (CLazyLibraries); FloatMode.c's constructor clears the mode
/// a library linked at start set.
final class FloatModeTests: XCTestCase {
    func testTheMainThreadKeepsSubnormalsAfterAUHostLoads() {
        XCTAssertTrue(Thread.isMainThread)
        XCTAssertEqual(auhost_float_mode_keeps_subnormals(), 1, "FLT_MIN / 4 was flushed to zero")
        // Time-pitch on a queue still works (SoundTouch is loaded and used).
        var format = float32Format(channels: 2)
        var queue: AudioQueueRef?
        XCTAssertEqual(AudioQueueNewOutput(&format, { _, _, _ in }, nil, nil, nil, 0, &queue), noErr)
        var on: UInt32 = 1
        XCTAssertEqual(AudioQueueSetProperty(queue!, kAudioQueueProperty_EnableTimePitch, &on, 4), noErr)
        XCTAssertEqual(AudioQueueDispose(queue!, true), noErr)
        XCTAssertEqual(auhost_float_mode_keeps_subnormals(), 1)
    }
}
