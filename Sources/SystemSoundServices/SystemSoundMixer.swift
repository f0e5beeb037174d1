import AudioToolbox
import AudioTypes
import Foundation
import Synchronization

/// The one output every system sound plays through: an ALSA I/O unit on "default" whose render
/// callback sums the voices playing. Plays cross to the render thread through one lock-free ring
/// and come back finished through another; the system-sound thread completes them and closes the
/// device once nothing has played for the device's buffer length.
final class SystemSoundMixer: @unchecked Sendable {
    static let shared = SystemSoundMixer()

    static let maximumVoices = Int(kAUHostSystemSoundMaximumVoices)
    private let lock = NSLock()
    private let starting = PointerRing(capacity: maximumVoices)
    private let finished = PointerRing(capacity: maximumVoices)
    /// The render thread's voices (no other thread touches them while the unit runs).
    private let active = UnsafeMutablePointer<UnsafeMutablePointer<Voice>?>.allocate(capacity: maximumVoices)
    private let activeCount = Atomic<Int>(0)
    private let wake = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)

    // Under `lock`.
    private var unit: AudioUnit?
    private var playing = 0
    /// Seconds of audio the device holds once handed over (its periods).
    private var drainSeconds = 0.1

    /// Set while `startingTogether` runs: a device opened meanwhile starts when it ends.
    private var holdingStart = false

    /// Runs `plays` so that the sounds it starts on a closed device begin on the same frame (an
    /// unpaced device could otherwise finish the first before the second is queued).
    ///
    /// Thread: setup.
    func startingTogether(_ plays: () -> Void) {
        lock.withLock { holdingStart = true }
        plays()
        lock.withLock {
            holdingStart = false
            startDevice()
        }
    }

    /// Whether the device is open (a play started and the device has not yet closed after it).
    ///
    /// Thread: setup.
    var deviceOpen: Bool { lock.withLock { unit != nil } }

    private init() {
        sem_init(wake, 0, 0)
        active.initialize(repeating: nil, count: Self.maximumVoices)
        Thread.detachNewThread { [self] in runCompletions() }
    }

    /// Starts a play of `samples`; false when kAUHostSystemSoundMaximumVoices already play or the
    /// device cannot open (the message says why).
    ///
    /// Thread: setup.
    func play(_ samples: SoundSamples, record: PlayRecord) -> Bool {
        lock.withLock {
            guard playing < Self.maximumVoices else {
                LastErrorMessage.set("System sounds: \(Self.maximumVoices) already play; this play is dropped.")
                return false
            }
            let opening = unit == nil
            if opening {
                do { try openDevice() } catch {
                    LastErrorMessage.set("System sounds: \((error as? AudioError)?.message ?? "\(error)")")
                    return false
                }
            }
            // A new device starts once the voice is queued, so its first frame is the sound's.
            defer { if opening && !holdingStart { startDevice() } }
            let voice = UnsafeMutablePointer<Voice>.allocate(capacity: 1)
            voice.initialize(
                to: Voice(
                    samples: UnsafePointer(samples.interleaved), frames: samples.frames,
                    record: Unmanaged.passRetained(record).toOpaque()))
            playing += 1
            _ = starting.push(UnsafeMutableRawPointer(voice))  // room: fewer than maximumVoices are in flight
            return true
        }
    }

    /// Mixes every active voice into the two Float32 channels of `ioData`.
    ///
    /// Thread: render (no allocation, no lock: ring operations and sem_post only).
    fileprivate func render(frames: Int, into ioData: UnsafeMutablePointer<AudioBufferList>) {
        let buffers = UnsafeMutableAudioBufferListPointer(ioData)
        guard buffers.count >= 2, let left = buffers[0].mData?.assumingMemoryBound(to: Float.self),
            let right = buffers[1].mData?.assumingMemoryBound(to: Float.self)
        else { return }
        left.update(repeating: 0, count: frames)
        right.update(repeating: 0, count: frames)
        var count = activeCount.load(ordering: .relaxed)
        while count < Self.maximumVoices, let started = starting.pop() {
            active[count] = started.assumingMemoryBound(to: Voice.self)
            count += 1
        }
        var index = 0
        var ended = false
        while index < count {
            let voice = active[index]!
            let position = voice.pointee.position
            let take = min(frames, voice.pointee.frames - position)
            let source = voice.pointee.samples + 2 * position
            for frame in 0..<take {
                left[frame] += source[2 * frame]
                right[frame] += source[2 * frame + 1]
            }
            voice.pointee.position = position + take
            if voice.pointee.position >= voice.pointee.frames {
                _ = finished.push(UnsafeMutableRawPointer(voice))  // the ring holds every voice in flight
                count -= 1
                active[index] = active[count]
                active[count] = nil
                ended = true
            } else {
                index += 1
            }
        }
        activeCount.store(count, ordering: .relaxed)
        if ended { sem_post(wake) }
    }

    /// Completes finished plays and closes the idle device.
    ///
    /// Thread: the system-sound thread.
    private func runCompletions() {
        while true {
            while sem_wait(wake) != 0 {}
            while let pointer = finished.pop() {
                let voice = pointer.assumingMemoryBound(to: Voice.self)
                let record = Unmanaged<PlayRecord>.fromOpaque(voice.pointee.record).takeRetainedValue()
                voice.deinitialize(count: 1)
                voice.deallocate()
                lock.withLock { playing -= 1 }
                record.complete()
            }
            closeWhenIdle()
        }
    }

    /// Waits until what was handed to the device has played, then closes it unless a play began.
    ///
    /// Thread: the system-sound thread.
    private func closeWhenIdle() {
        guard let seconds = lock.withLock({ playing == 0 && unit != nil ? drainSeconds : nil }) else { return }
        Thread.sleep(forTimeInterval: seconds)
        lock.withLock {
            guard playing == 0, let unit else { return }
            _ = AudioOutputUnitStop(unit)
            _ = AudioUnitUninitialize(unit)
            AudioComponentInstanceDispose(unit)
            self.unit = nil
            activeCount.store(0, ordering: .relaxed)
        }
    }

    /// Whether `unit` runs (kAudioOutputUnitProperty_IsRunning). Thread: setup.
    private func isRunning(_ unit: AudioUnit) -> Bool {
        var running: UInt32 = 0
        var size = UInt32(4)
        return AudioUnitGetProperty(unit, kAudioOutputUnitProperty_IsRunning, kAudioUnitScope_Global, 0, &running, &size) == noErr
            && running != 0
    }

    /// Opens the ALSA I/O unit on "default" (Float32 stereo at 48 kHz from here), not yet started.
    ///
    /// Thread: setup, under `lock`.
    private func openDevice() throws {
        var description = AudioComponentDescription(
            componentType: kAudioUnitType_Output, componentSubType: kAudioUnitSubType_AUHostALSAIO,
            componentManufacturer: 0, componentFlags: 0, componentFlagsMask: 0)
        guard let component = AudioComponentFindNext(nil, &description) else {
            throw AudioError(kAudioServicesSystemSoundUnspecifiedError, "the ALSA I/O unit is not installed.")
        }
        var created: AudioUnit?
        guard AudioComponentInstanceNew(component, &created) == noErr, let unit = created else {
            throw AudioError(kAudioServicesSystemSoundUnspecifiedError, "the ALSA I/O unit could not be created.")
        }
        var keep = false
        defer { if !keep { AudioComponentInstanceDispose(unit) } }
        var format = AudioStreamBasicDescription(
            mSampleRate: SoundSamples.sampleRate, mFormatID: kAudioFormatLinearPCM,
            mFormatFlags: kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked | kAudioFormatFlagIsNonInterleaved,
            mBytesPerPacket: 4, mFramesPerPacket: 1, mBytesPerFrame: 4, mChannelsPerFrame: 2, mBitsPerChannel: 32, mReserved: 0)
        var callback = AURenderCallbackStruct(inputProc: systemSoundRender, inputProcRefCon: Unmanaged.passUnretained(self).toOpaque())
        let statuses = [
            AudioUnitSetProperty(
                unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &format, UInt32(MemoryLayout.size(ofValue: format))),
            AudioUnitSetProperty(
                unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &callback,
                UInt32(MemoryLayout.size(ofValue: callback))),
            AudioUnitInitialize(unit),
        ]
        if let failed = statuses.first(where: { $0 != noErr }) {
            let reason = AUHostCopyLastErrorMessage().map { String(cfString: $0.takeRetainedValue()) ?? "" } ?? ""
            throw AudioError(kAudioServicesSystemSoundUnspecifiedError, "the default ALSA device did not open (\(failed)): \(reason)")
        }
        var periodFrames: UInt32 = 0, periods: UInt32 = 0, rate: Float64 = 0
        var size = UInt32(4)
        _ = AudioUnitGetProperty(unit, kAUHostALSAProperty_GrantedPeriodFrames, kAudioUnitScope_Global, 0, &periodFrames, &size)
        size = 4
        _ = AudioUnitGetProperty(unit, kAUHostALSAProperty_GrantedPeriodCount, kAudioUnitScope_Global, 0, &periods, &size)
        size = 8
        _ = AudioUnitGetProperty(unit, kAUHostALSAProperty_GrantedSampleRate, kAudioUnitScope_Global, 0, &rate, &size)
        drainSeconds = rate > 0 ? Double(periodFrames) * Double(max(periods, 1)) / rate + 0.02 : 0.1
        activeCount.store(0, ordering: .relaxed)
        keep = true
        self.unit = unit
    }

    /// Starts the opened device; one that does not start is closed (its voices then never end,
    /// so they are completed here).
    ///
    /// Thread: setup, under `lock`.
    private func startDevice() {
        guard let unit, !isRunning(unit) else { return }
        let started = AudioOutputUnitStart(unit)
        guard started != noErr else { return }
        LastErrorMessage.set("System sounds: the default ALSA device did not start (\(started)).")
        _ = AudioUnitUninitialize(unit)
        AudioComponentInstanceDispose(unit)
        self.unit = nil
        while let pointer = starting.pop() { _ = finished.push(pointer) }
        sem_post(wake)
    }
}

/// The shared output's render callback.
private let systemSoundRender: AURenderCallback = { refCon, _, _, _, frames, ioData in
    guard let ioData else { return kAudio_ParamError }
    Unmanaged<SystemSoundMixer>.fromOpaque(refCon).takeUnretainedValue().render(frames: Int(frames), into: ioData)
    return noErr
}
