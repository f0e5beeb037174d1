import Foundation

/// One play of a sound: what the render thread needs to mix it, allocated by the thread that
/// starts the play and freed by the system-sound thread after the render thread let go of it.
struct Voice {
    let samples: UnsafePointer<Float>
    let frames: Int
    /// Frames mixed so far (the render thread's alone while the voice plays).
    var position = 0
    /// The play's owner (a retained PlayRecord), released by the system-sound thread.
    let record: UnsafeMutableRawPointer
}

/// What happens when a play ends: the sound it came from (kept alive until then) and the
/// completion function of a *WithCompletion call.
final class PlayRecord {
    let sound: SystemSound
    let completion: (@convention(c) (UnsafeMutableRawPointer?) -> Void)?
    let userData: UnsafeMutableRawPointer?

    /// Thread: setup.
    init(sound: SystemSound, completion: (@convention(c) (UnsafeMutableRawPointer?) -> Void)?, userData: UnsafeMutableRawPointer?) {
        self.sound = sound
        self.completion = completion
        self.userData = userData
    }

    /// Runs the play's completions: the function of a *WithCompletion call here, the sound's
    /// registered routine on its run loop.
    ///
    /// Thread: the system-sound thread (or the caller, when nothing played).
    func complete() {
        completion?(userData)
        sound.playEnded()
    }
}
