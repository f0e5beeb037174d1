import AudioToolbox
import AudioTypes
import Foundation

/// Offline render mode (AudioQueueSetOfflineRenderFormat): a generic output unit pulls the
/// queue's engine, converting its Float32 to the offline format, on the thread that calls
/// AudioQueueOfflineRender.
final class OfflineRenderer {
    let unit: AudioUnit
    let outputFormat: AudioStreamBasicDescription
    let maximumSlice: UInt32 = 4096
    /// Allocated once the unit is set up: an init that throws (a refused format) had leaked it.
    private let list: UnsafeMutableAudioBufferListPointer

    /// Creates the generic output for `format` (interleaved linear PCM at the queue's rate).
    ///
    /// Thread: setup.
    init(queue: AudioQueueObject, format: AudioStreamBasicDescription) throws {
        let checked = try QueueSampleFormat(format)
        guard checked.sampleRate == queue.format.sampleRate else {
            throw AudioError(
                kAudioQueueErr_InvalidPropertyValue,
                "The offline render format runs at \(checked.sampleRate) Hz but the queue at \(queue.format.sampleRate) Hz; offline render keeps the queue's rate."
            )
        }
        var description = AudioComponentDescription(
            componentType: kAudioUnitType_Output, componentSubType: kAudioUnitSubType_GenericOutput,
            componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
        var created: AudioUnit?
        guard let component = AudioComponentFindNext(nil, &description), AudioComponentInstanceNew(component, &created) == noErr,
            let unit = created
        else { throw AudioError(kAudioQueueErr_CannotStart, "The generic output unit is not available for offline render.") }
        var keep = false
        defer { if !keep { AudioComponentInstanceDispose(unit) } }
        func set<T>(_ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ value: T) throws {
            let status = withUnsafeBytes(of: value) { AudioUnitSetProperty(unit, id, scope, 0, $0.baseAddress, UInt32($0.count)) }
            guard status == noErr else {
                throw AudioError(
                    kAudioQueueErr_InvalidPropertyValue, "Offline render format refused (\(status)): \(AudioQueueObject.lastUnitMessage)")
            }
        }
        try set(kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, queue.processingFormat)
        try set(kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, format)
        try set(kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, maximumSlice)
        try set(
            kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input,
            AURenderCallbackStruct(inputProc: queuePlaybackRender, inputProcRefCon: Unmanaged.passUnretained(queue.playback!).toOpaque()))
        guard AudioUnitInitialize(unit) == noErr else {
            throw AudioError(kAudioQueueErr_InvalidPropertyValue, "Offline render could not start: \(AudioQueueObject.lastUnitMessage)")
        }
        keep = true
        list = AudioBufferList.allocate(maximumBuffers: 1)
        self.unit = unit
        outputFormat = format
    }

    /// Thread: setup.
    func dispose() {
        _ = AudioUnitUninitialize(unit)
        AudioComponentInstanceDispose(unit)
        free(list.unsafeMutablePointer)
    }

    /// Renders up to `frames` frames into `data`; returns the frames produced (fewer only when
    /// the queue is stopping after its queued buffers and they end here).
    ///
    /// Thread: the OfflineRender caller.
    func render(engine: PlaybackEngine, time: AudioTimeStamp, frames: Int, into data: UnsafeMutableRawPointer) throws -> Int {
        let bytesPerFrame = Int(outputFormat.mBytesPerFrame)
        var done = 0
        while done < frames {
            let n = min(frames - done, Int(maximumSlice))
            list[0] = AudioBuffer(
                mNumberChannels: outputFormat.mChannelsPerFrame, mDataByteSize: UInt32(n * bytesPerFrame),
                mData: data + done * bytesPerFrame)
            var flags = AudioUnitRenderActionFlags()
            var stamp = AudioTimeStamp()
            stamp.mSampleTime = (time.mFlags.contains(.sampleTimeValid) ? time.mSampleTime : 0) + Double(done)
            stamp.mFlags = .sampleTimeValid
            let before = engine.framesFromBuffers
            let status = AudioUnitRender(unit, &flags, &stamp, 0, UInt32(n), list.unsafeMutablePointer)
            guard status == noErr else {
                throw AudioError(status, "Offline render failed: \(AudioQueueObject.lastUnitMessage)")
            }
            let fromBuffers = engine.framesFromBuffers - before
            if engine.stopAfterQueued.load(ordering: .acquiring) == 1, engine.isExhausted {
                return done + fromBuffers
            }
            done += n
        }
        return done
    }
}
