// Apple's AUSilentTimeout (AudioUnitSDK): an effect whose input turns silent keeps sounding for
// its latency and tail, so the input's OutputIsSilence mark passes to the output only once that
// long has elapsed since the silence began.

/// Counts down an effect's latency and tail from the start of a silent stretch of input.
public struct SilentTimeout {
    /// Frames of the current silent stretch still to count as sound.
    @usableFromInline var framesLeft = 0
    /// Set while the input sounds: the next silent buffer starts a new countdown.
    @usableFromInline var restart = true

    /// Thread: setup.
    public init() {}

    /// Whether silent input now begins a new stretch (the only time ``process(frames:limit:silence:)``
    /// reads its limit: a caller may skip working it out otherwise).
    ///
    /// Thread: render.
    public var beginsStretch: Bool {
        @inlinable @_noAllocation @_noLocks get { restart }
    }

    /// Takes `frames` frames of input marked silent (or not) in `silence`: leaves it true only
    /// once the input has been silent for `limit` frames (the limit is read when a stretch begins).
    ///
    /// Thread: render.
    @inlinable @_noAllocation @_noLocks
    public mutating func process(frames: Int, limit: Int, silence: inout Bool) {
        guard silence else {
            restart = true
            return
        }
        if restart {
            framesLeft = limit
            restart = false
        }
        if framesLeft > 0 {
            framesLeft -= min(frames, framesLeft)
            silence = false
        }
    }

    /// Forgets the stretch in progress (AudioUnitReset, initialize).
    ///
    /// Thread: setup, or the render thread between cycles.
    @inlinable @_noAllocation @_noLocks
    public mutating func reset() {
        framesLeft = 0
        restart = true
    }
}
