// Ported from: the AudioToolbox Swift overlay's documented AudioBufferList helpers —
// `AudioBufferList.allocate(maximumBuffers:)`, `AudioBufferList.sizeInBytes(maximumBuffers:)`,
// `UnsafeMutableAudioBufferListPointer` (a MutableCollection of AudioBuffer) and
// `UnsafeMutableBufferPointer<Float>(audioBuffer)` — used as Apple's Swift hosting code uses them:
// a render callback iterates ioData's buffers, and the host allocates, fills and reads a
// four-buffer list it renders a generic output unit into.
import AudioToolbox
import Foundation

/// Channel `c` carries (c + 1) × ramp, where the ramp counts frames in 1/1024 steps from -0.5.
final class MultichannelRampSource {
    var framesRendered: Int = 0
}

let multichannelRampCallback: AURenderCallback = { inRefCon, ioActionFlags, inTimeStamp, inBusNumber, inNumberFrames, ioData in
    let source = Unmanaged<MultichannelRampSource>.fromOpaque(inRefCon).takeUnretainedValue()
    guard let abl = UnsafeMutableAudioBufferListPointer(ioData) else { return kAudio_ParamError }
    for (channel, buffer) in abl.enumerated() {
        let samples = UnsafeMutableBufferPointer<Float>(buffer)
        for frame in 0..<Int(inNumberFrames) {
            let ramp = Float((source.framesRendered + frame) % 1024) / 1024 - 0.5
            samples[frame] = Float(channel + 1) * ramp
        }
    }
    source.framesRendered += Int(inNumberFrames)
    return noErr
}

final class BufferListRenderer {
    let channelCount: Int
    let source = MultichannelRampSource()
    var unit: AudioUnit?

    init(channelCount: Int) {
        self.channelCount = channelCount
    }

    /// Bytes a list of `channelCount` buffers takes (the overlay's own arithmetic, as Apple documents it).
    var listSize: Int { AudioBufferList.sizeInBytes(maximumBuffers: channelCount) }

    /// Renders `slices` slices of `frames` frames into a list the host allocates; returns the
    /// channels read back by iterating the list.
    func render(slices: Int, frames: Int) -> [[Float]] {
        var description = AudioComponentDescription(
            componentType: kAudioUnitType_Output,
            componentSubType: kAudioUnitSubType_GenericOutput,
            componentManufacturer: kAudioUnitManufacturer_Apple,
            componentFlags: 0, componentFlagsMask: 0)
        AudioComponentInstanceNew(AudioComponentFindNext(nil, &description)!, &unit)
        var format = AudioStreamBasicDescription(
            mSampleRate: 48000, mFormatID: kAudioFormatLinearPCM,
            mFormatFlags: kAudioFormatFlagsNativeFloatPacked | kAudioFormatFlagIsNonInterleaved,
            mBytesPerPacket: 4, mFramesPerPacket: 1, mBytesPerFrame: 4,
            mChannelsPerFrame: UInt32(channelCount), mBitsPerChannel: 32, mReserved: 0)
        let formatSize = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        precondition(AudioUnitSetProperty(unit!, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &format, formatSize) == noErr)
        precondition(AudioUnitSetProperty(unit!, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &format, formatSize) == noErr)
        var callback = AURenderCallbackStruct(
            inputProc: multichannelRampCallback,
            inputProcRefCon: Unmanaged.passUnretained(source).toOpaque())
        precondition(
            AudioUnitSetProperty(
                unit!, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0,
                &callback, UInt32(MemoryLayout<AURenderCallbackStruct>.size)) == noErr)
        precondition(AudioUnitInitialize(unit!) == noErr)

        let bufferList = AudioBufferList.allocate(maximumBuffers: channelCount)
        for index in bufferList.indices {
            let bytes = frames * MemoryLayout<Float>.size
            bufferList[index] = AudioBuffer(
                mNumberChannels: 1, mDataByteSize: UInt32(bytes),
                mData: UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 16))
        }
        defer {
            for buffer in bufferList { buffer.mData?.deallocate() }
            free(bufferList.unsafeMutablePointer)
        }

        var channels = [[Float]](repeating: [], count: channelCount)
        var timeStamp = AudioTimeStamp()
        timeStamp.mFlags = .sampleTimeValid
        for _ in 0..<slices {
            var flags: AudioUnitRenderActionFlags = []
            precondition(AudioUnitRender(unit!, &flags, &timeStamp, 0, UInt32(frames), bufferList.unsafeMutablePointer) == noErr)
            for (channel, buffer) in bufferList.enumerated() {
                channels[channel].append(contentsOf: UnsafeBufferPointer<Float>(buffer))
            }
            timeStamp.mSampleTime += Double(frames)
        }
        AudioUnitUninitialize(unit!)
        AudioComponentInstanceDispose(unit!)
        return channels
    }
}
