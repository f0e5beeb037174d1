import AudioToolbox
import AudioTypes
import Foundation
import Synchronization

/// Everything the render thread does for a playback queue, in one file: take buffers handed over
/// through `incoming`, copy their frames out as Float32 (Volume, its ramp and Pan applied, trims
/// honoured), hand finished buffers back through `finished`, and post `wake` so the queue's
/// callback thread returns them to the app. It allocates nothing, takes no lock and never waits.
final class PlaybackEngine: @unchecked Sendable {
    let format: QueueSampleFormat
    /// Setup threads push enqueued buffers; the render thread pops them.
    let incoming: PointerRing
    /// The render thread pushes finished buffers; the callback thread (or OfflineRender) pops them.
    let finished: PointerRing
    /// Posted by the render thread when there is something for the callback thread.
    let wake: UnsafeMutablePointer<sem_t>
    let meter: LevelMeter
    /// PlayRate and Pitch (kAudioQueueProperty_EnableTimePitch), and the scratch buffers that
    /// feed it; set only while no render call can run.
    private(set) var timePitch: TimePitch?
    private var timePitchInput: UnsafeMutableAudioBufferListPointer?

    // Set by setup threads, read by the render thread.
    /// The Volume and Pan asked for, with a generation so that a repeated value still restarts a ramp.
    let volumeSetting = Atomic<UInt64>(UInt64(Float(1).bitPattern))
    let panBits = Atomic<UInt32>(Float(0).bitPattern)
    let rampTimeBits = Atomic<UInt32>(Float(0).bitPattern)
    let meteringEnabled = Atomic<Bool>(false)
    /// 1 after Stop(false): once every enqueued buffer has played (and `drainFrames` of silence
    /// after it, so the device's own buffer empties), `drained` becomes 1.
    let stopAfterQueued = Atomic<Int>(0)
    let drained = Atomic<Int>(0)
    /// Frames of silence to play after the last buffer before a Stop(false) completes.
    let drainFrames = Atomic<Int>(0)

    // Set by the render thread, read anywhere.
    /// Frames rendered since the last Reset/Stop (the queue's sample time).
    let framesRendered = Atomic<Int>(0)
    /// The last thread that rendered (tests check that callbacks never run on it).
    let renderThread = Atomic<UInt>(0)

    // Render-thread private state.
    private var current: UnsafeMutablePointer<QueueBufferSlot>?
    private var position = 0
    private var end = 0
    private var volume: Float = 1
    private var targetVolume: Float = 1
    private var volumeStep: Float = 0
    private var rampFramesLeft = 0
    private var volumeGenerationSeen: UInt64 = 0
    private var silenceAfterLast = 0
    /// Frames taken from buffers so far (read by OfflineRender on the rendering thread itself).
    private(set) var framesFromBuffers = 0

    /// Thread: setup.
    init(format: QueueSampleFormat, capacity: Int, wake: UnsafeMutablePointer<sem_t>) {
        self.format = format
        incoming = PointerRing(capacity: capacity)
        finished = PointerRing(capacity: capacity)
        self.wake = wake
        meter = LevelMeter(channels: format.channels)
    }

    /// Turns time-pitch on or off. Only while no render call can run (device closed, no
    /// OfflineRender in progress). Throws what the stretch cannot be made for (it stays off).
    ///
    /// Thread: setup.
    func setTimePitch(_ enabled: Bool) throws {
        removeTimePitch()
        guard enabled else { return }
        timePitch = try TimePitch(channels: format.channels, sampleRate: format.sampleRate)
        let input = AudioBufferList.allocate(maximumBuffers: format.channels)
        for c in 0..<format.channels {
            input[c] = AudioBuffer(
                mNumberChannels: 1, mDataByteSize: UInt32(TimePitch.chunkFrames * 4), mData: calloc(TimePitch.chunkFrames, 4))
        }
        timePitchInput = input
    }

    /// Thread: setup.
    private func removeTimePitch() {
        if let input = timePitchInput {
            for c in 0..<input.count { free(input[c].mData) }
            free(input.unsafeMutablePointer)
            timePitchInput = nil
        }
        timePitch = nil
    }

    deinit { removeTimePitch() }

    /// Asks for `value` as the new Volume (ramped over VolumeRampTime).
    ///
    /// Thread: setup.
    func setVolume(_ value: Float) {
        let generation = (volumeSetting.load(ordering: .relaxed) >> 32) &+ 1
        volumeSetting.store(generation << 32 | UInt64(value.bitPattern), ordering: .releasing)
    }

    /// Renders `frames` frames into the non-interleaved Float32 buffers of `ioData` (one per
    /// queue channel) and returns how many came from enqueued buffers (the rest is silence).
    ///
    /// Thread: render (or the OfflineRender caller, with no device thread running).
    func render(frames: Int, into ioData: UnsafeMutablePointer<AudioBufferList>) -> Int {
        renderThread.store(UInt(pthread_self()), ordering: .relaxed)
        let out = UnsafeMutableAudioBufferListPointer(ioData)
        followSettings()
        var done = 0
        if let timePitch, timePitch.isActive {
            timePitch.followSettings()
            done = renderStretched(timePitch, frames: frames, into: out)
        } else {
            done = pull(frames: frames, into: out, offset: 0)
        }
        for c in 0..<out.count {
            guard let samples = out[c].mData?.assumingMemoryBound(to: Float.self) else { continue }
            if c >= format.channels {
                samples.update(repeating: 0, count: frames)
            } else if done < frames {
                (samples + done).update(repeating: 0, count: frames - done)
            }
        }
        if meteringEnabled.load(ordering: .relaxed) {
            meter.accumulate(out, offset: 0, frames: done)
            meter.publish()
        }
        framesFromBuffers &+= done
        if done < frames { noteSilence(frames - done) }
        framesRendered.add(frames, ordering: .releasing)
        return done
    }

    /// Renders `frames` frames through time-pitch, in pieces of at most its chunk, feeding it the
    /// enqueued frames it asks for; returns how many came from them (the rest is silence: the
    /// queue ran dry, or its end was reached).
    ///
    /// Thread: render.
    @inline(__always)
    private func renderStretched(_ timePitch: TimePitch, frames: Int, into out: UnsafeMutableAudioBufferListPointer) -> Int {
        let stretch = timePitch.stretch, input = timePitchInput!
        var done = 0
        while done < frames {
            let piece = min(frames - done, TimePitch.chunkFrames)
            var ready = piece
            while true {
                let wanted = stretch.inputFramesWanted(toProduce: piece)
                if wanted == 0 { break }
                let fed = pull(frames: wanted, into: input, offset: 0)
                if fed > 0 {
                    timePitch.put(input, frames: fed)
                    continue
                }
                let ending = stopAfterQueued.load(ordering: .acquiring) == 1 && current == nil && incoming.isEmpty
                if ending && !timePitch.flushed {
                    timePitch.flushOnce()  // the end of the queued audio: push SoundTouch's tail out
                    continue
                }
                ready = min(piece, stretch.readableFrames(tail: ending))
                break
            }
            stretch.read(into: out.unsafeMutablePointer, offset: done, frames: ready)
            done += ready
            if ready < piece { break }
        }
        return done
    }

    /// Copies up to `frames` frames from the enqueued buffers into `out` at `offset` with
    /// Volume (and its ramp) and Pan applied, returning finished buffers; returns the frames copied.
    ///
    /// Thread: render.
    @inline(__always)
    private func pull(frames: Int, into out: UnsafeMutableAudioBufferListPointer, offset: Int) -> Int {
        let panGains = gainsForPan()
        var done = 0
        while done < frames {
            if current == nil, !takeNextBuffer() { break }
            guard let slot = current else { continue }  // a buffer trimmed to nothing finished at once
            let n = min(frames - done, end - position)
            let data = slot.pointee.decoded.map { UnsafeRawPointer($0) } ?? UnsafeRawPointer(slot.pointee.buffer.mAudioData)
            for f in 0..<n {
                let gain = nextGain()
                let source = (position + f) * format.channels
                for c in 0..<min(out.count, format.channels) {
                    out[c].mData!.assumingMemoryBound(to: Float.self)[offset + done + f] =
                        format.load(data, source + c) * gain * (c == 0 ? panGains.0 : c == 1 ? panGains.1 : 1)
                }
            }
            position += n
            done += n
            if position >= end { finishCurrent() }
        }
        return done
    }

    /// Whether nothing is playing or waiting to play.
    ///
    /// Thread: render.
    var isExhausted: Bool { current == nil && incoming.isEmpty && (timePitch?.isEmpty ?? true) }

    /// Returns the buffer in progress and every waiting one to `finished`, and forgets the play
    /// position and any ramp. Only while no render call runs (device stopped).
    ///
    /// Thread: setup.
    func returnEverything() {
        if let slot = current {
            current = nil
            _ = finished.push(UnsafeMutableRawPointer(slot))
        }
        while let pointer = incoming.pop() { _ = finished.push(pointer) }
        timePitch?.clear()
        rampFramesLeft = 0
        volume = targetVolume
        silenceAfterLast = 0
        stopAfterQueued.store(0, ordering: .relaxed)
        drained.store(0, ordering: .relaxed)
        framesRendered.store(0, ordering: .relaxed)
    }

    // MARK: render-thread helpers

    @inline(__always)
    private func takeNextBuffer() -> Bool {
        guard let pointer = incoming.pop() else { return false }
        let slot = pointer.assumingMemoryBound(to: QueueBufferSlot.self)
        let frames =
            slot.pointee.decoded != nil
            ? Int(slot.pointee.decodedFrames) : Int(slot.pointee.enqueuedBytes) / format.bytesPerFrame
        position = min(Int(slot.pointee.trimStart), frames)
        end = max(position, frames - Int(slot.pointee.trimEnd))
        current = slot
        silenceAfterLast = 0
        if !slot.pointee.rampTime.isNaN { rampTimeBits.store(slot.pointee.rampTime.bitPattern, ordering: .relaxed) }
        if !slot.pointee.pan.isNaN { panBits.store(slot.pointee.pan.bitPattern, ordering: .relaxed) }
        if !slot.pointee.volume.isNaN { startRamp(to: slot.pointee.volume) }
        if position >= end { finishCurrent() }
        return true
    }

    @inline(__always)
    private func finishCurrent() {
        guard let slot = current else { return }
        current = nil
        _ = finished.push(UnsafeMutableRawPointer(slot))  // capacity = buffers allocated: never full
        sem_post(wake)
    }

    @inline(__always)
    private func followSettings() {
        let setting = volumeSetting.load(ordering: .acquiring)
        if setting >> 32 != volumeGenerationSeen {
            volumeGenerationSeen = setting >> 32
            startRamp(to: Float(bitPattern: UInt32(truncatingIfNeeded: setting)))
        }
    }

    @inline(__always)
    private func startRamp(to value: Float) {
        targetVolume = value
        // Rounded: 0.01 s as a Float32 is 0.00999999977 s, which must still be 480 frames at 48 kHz.
        let frames = Int((Double(Float(bitPattern: rampTimeBits.load(ordering: .relaxed))) * format.sampleRate).rounded())
        if frames <= 0 {
            volume = value
            rampFramesLeft = 0
        } else {
            volumeStep = (value - volume) / Float(frames)
            rampFramesLeft = frames
        }
    }

    /// The gain for the next frame: exactly Volume, or the ramp's value on its way there.
    @inline(__always)
    private func nextGain() -> Float {
        guard rampFramesLeft > 0 else { return volume }
        rampFramesLeft -= 1
        volume = rampFramesLeft == 0 ? targetVolume : volume + volumeStep
        return volume
    }

    /// Left and right gains for a balance of -1 … 1 (the far side is scaled by 1 - |pan|).
    @inline(__always)
    private func gainsForPan() -> (Float, Float) {
        guard format.channels == 2 else { return (1, 1) }
        let pan = Float(bitPattern: panBits.load(ordering: .relaxed))
        return (pan > 0 ? 1 - pan : 1, pan < 0 ? 1 + pan : 1)
    }

    @inline(__always)
    private func noteSilence(_ frames: Int) {
        guard stopAfterQueued.load(ordering: .acquiring) == 1, isExhausted, drained.load(ordering: .relaxed) == 0 else { return }
        silenceAfterLast += frames
        if silenceAfterLast >= drainFrames.load(ordering: .relaxed) {
            drained.store(1, ordering: .releasing)
            sem_post(wake)
        }
    }
}
