import AudioToolbox
import AudioTypes
import Foundation

/// The ALSA I/O unit's render callback for a playback queue: the engine copies from buffers.
let queuePlaybackRender: AURenderCallback = { refCon, _, _, _, frames, ioData in
    guard let ioData else { return kAudio_ParamError }
    _ = Unmanaged<PlaybackEngine>.fromOpaque(refCon).takeUnretainedValue().render(frames: Int(frames), into: ioData)
    return noErr
}

/// What a recording queue's input callback needs: the unit to render from, and Float32 buffers
/// allocated at setup for the largest slice the unit may offer.
final class CaptureContext: @unchecked Sendable {
    let engine: RecordingEngine
    let unit: AudioUnit
    let list: UnsafeMutableAudioBufferListPointer
    let capacityFrames: Int

    /// Thread: setup.
    init(engine: RecordingEngine, unit: AudioUnit, capacityFrames: Int) {
        self.engine = engine
        self.unit = unit
        self.capacityFrames = capacityFrames
        list = AudioBufferList.allocate(maximumBuffers: engine.format.channels)
        for c in 0..<engine.format.channels {
            list[c] = AudioBuffer(
                mNumberChannels: 1, mDataByteSize: UInt32(capacityFrames * 4),
                mData: calloc(capacityFrames, 4))
        }
    }

    deinit {
        for c in 0..<list.count { free(list[c].mData) }
        free(list.unsafeMutablePointer)
    }
}

/// The ALSA I/O unit's input callback for a recording queue: render element 1, then store.
let queueCaptureInput: AURenderCallback = { refCon, flags, timeStamp, _, frames, _ in
    let context = Unmanaged<CaptureContext>.fromOpaque(refCon).takeUnretainedValue()
    guard Int(frames) <= context.capacityFrames else { return kAudioUnitErr_TooManyFramesToProcess }
    for c in 0..<context.list.count { context.list[c].mDataByteSize = frames * 4 }
    let status = AudioUnitRender(context.unit, flags, timeStamp, 1, frames, context.list.unsafeMutablePointer)
    guard status == noErr else { return status }
    context.engine.capture(
        frames: Int(frames), from: context.list.unsafeMutablePointer,
        sampleTime: context.engine.framesCaptured.load(ordering: .relaxed))
    return noErr
}

/// The I/O unit's IsRunning listener: while the queue expects the unit to run, any change is
/// handed to the callback thread, which reads IsRunning and treats 0 as a device failure. The
/// listener itself calls nothing on the unit and takes no lock (the unit may call it from Start or
/// Stop, with its own lock or the queue's held).
let queueUnitRunningListener: AudioUnitPropertyListenerProc = { refCon, _, _, _, _ in
    let queue = Unmanaged<AudioQueueObject>.fromOpaque(refCon).takeUnretainedValue()
    guard queue.unitShouldRun.load(ordering: .acquiring) else { return }
    queue.deviceFailed.store(true, ordering: .releasing)
    sem_post(queue.wake)
}

extension AudioQueueObject {
    /// Starts the unit, marking it as expected to run.
    ///
    /// Thread: setup, under `lock`.
    func startUnit(_ unit: AudioUnit) -> OSStatus {
        unitShouldRun.store(true, ordering: .releasing)
        let status = AudioOutputUnitStart(unit)
        if status != noErr { unitShouldRun.store(false, ordering: .releasing) }
        return status
    }

    /// Stops the unit (a stop the queue asked for: not a failure).
    ///
    /// Thread: setup, under `lock`.
    func stopUnit(_ unit: AudioUnit) {
        unitShouldRun.store(false, ordering: .releasing)
        _ = AudioOutputUnitStop(unit)
    }

    /// Canonical Float32, one buffer per channel, at the queue's rate: what the queue hands the unit.
    var processingFormat: AudioStreamBasicDescription {
        AudioStreamBasicDescription(
            mSampleRate: format.sampleRate, mFormatID: kAudioFormatLinearPCM,
            mFormatFlags: kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked | kAudioFormatFlagIsNonInterleaved,
            mBytesPerPacket: 4, mFramesPerPacket: 1, mBytesPerFrame: 4, mChannelsPerFrame: UInt32(format.channels),
            mBitsPerChannel: 32, mReserved: 0)
    }

    /// The sentence the unit left for its last error.
    static var lastUnitMessage: String {
        AUHostCopyLastErrorMessage().map { String(cfString: $0.takeRetainedValue()) ?? "" } ?? ""
    }

    /// Creates, configures, initializes and starts the ALSA I/O unit on `deviceName`.
    ///
    /// Thread: setup, under `lock`.
    func openDevice() throws {
        var description = AudioComponentDescription(
            componentType: kAudioUnitType_Output, componentSubType: kAudioUnitSubType_AUHostALSAIO,
            componentManufacturer: 0, componentFlags: 0, componentFlagsMask: 0)
        guard let component = AudioComponentFindNext(nil, &description) else {
            throw AudioError(kAudioQueueErr_CannotStart, "The ALSA I/O unit is not installed, so the queue has no device.")
        }
        var created: AudioUnit?
        guard AudioComponentInstanceNew(component, &created) == noErr, let unit = created else {
            throw AudioError(kAudioQueueErr_CannotStart, "The ALSA I/O unit could not be created: \(Self.lastUnitMessage)")
        }
        var keep = false
        defer { if !keep { AudioComponentInstanceDispose(unit) } }
        func set<T>(_ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement, _ value: T) throws {
            let status = withUnsafeBytes(of: value) { AudioUnitSetProperty(unit, id, scope, element, $0.baseAddress, UInt32($0.count)) }
            guard status == noErr else {
                throw AudioError(
                    kAudioQueueErr_CannotStart, "The ALSA I/O unit refused property \(id) (\(status)): \(Self.lastUnitMessage)")
            }
        }
        let name = CFBridge.string(deviceName)
        defer { name.release() }
        try set(kAudioOutputUnitProperty_CurrentDevice, kAudioUnitScope_Global, 0, Optional(name))
        var capture: CaptureContext?
        switch direction {
        case .output:
            try set(kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, processingFormat)
            let refCon = Unmanaged.passUnretained(playback!).toOpaque()
            try set(
                kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0,
                AURenderCallbackStruct(inputProc: queuePlaybackRender, inputProcRefCon: refCon))
        case .input:
            try set(kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Input, 1, UInt32(1))
            try set(kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Output, 0, UInt32(0))
            try set(kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 1, processingFormat)
            var maximum: UInt32 = 4096
            var size = UInt32(4)
            _ = AudioUnitGetProperty(unit, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &maximum, &size)
            let context = CaptureContext(engine: recording!, unit: unit, capacityFrames: max(Int(maximum), 8192))
            capture = context
            try set(
                kAudioOutputUnitProperty_SetInputCallback, kAudioUnitScope_Global, 0,
                AURenderCallbackStruct(inputProc: queueCaptureInput, inputProcRefCon: Unmanaged.passUnretained(context).toOpaque()))
        }
        let initialized = AudioUnitInitialize(unit)
        guard initialized == noErr else {
            let reason = Self.lastUnitMessage
            throw AudioError(
                initialized == kAudioUnitErr_InvalidPropertyValue ? kAudioQueueErr_InvalidDevice : kAudioQueueErr_CannotStart,
                "The audio queue could not open ALSA device \(deviceName): \(reason)")
        }
        if let playback {
            // Stop(false) completes after the device's own buffer has played out too.
            var frames: UInt32 = 0, count: UInt32 = 0, rate: Float64 = 0
            var size = UInt32(4)
            _ = AudioUnitGetProperty(unit, kAUHostALSAProperty_GrantedPeriodFrames, kAudioUnitScope_Global, 0, &frames, &size)
            size = 4
            _ = AudioUnitGetProperty(unit, kAUHostALSAProperty_GrantedPeriodCount, kAudioUnitScope_Global, 0, &count, &size)
            size = 8
            _ = AudioUnitGetProperty(unit, kAUHostALSAProperty_GrantedSampleRate, kAudioUnitScope_Global, 0, &rate, &size)
            let deviceFrames = Double(frames) * Double(max(count, 1)) * (rate > 0 ? format.sampleRate / rate : 1)
            playback.drainFrames.store(Int(deviceFrames.rounded(.up)), ordering: .relaxed)
        }
        _ = AudioUnitAddPropertyListener(
            unit, kAudioOutputUnitProperty_IsRunning, queueUnitRunningListener, Unmanaged.passUnretained(self).toOpaque())
        let started = startUnit(unit)
        guard started == noErr else {
            _ = AudioUnitUninitialize(unit)
            throw AudioError(kAudioQueueErr_CannotStart, "ALSA device \(deviceName) did not start (\(started)): \(Self.lastUnitMessage)")
        }
        keep = true
        self.unit = unit
        captureContext = capture
    }

    /// Stops and closes the device (the file or card sees the stream end).
    ///
    /// Thread: setup, under `lock`.
    func closeDevice() {
        guard let unit else { return }
        stopUnit(unit)
        _ = AudioUnitUninitialize(unit)
        AudioComponentInstanceDispose(unit)
        self.unit = nil
        captureContext = nil
    }
}
