// Ported from: Audio Unit Hosting Guide for iOS, "Using Specific Audio Units", "Format Converter
// Unit" (AUConverter converts between linear PCM formats: here canonical float, non-interleaved,
// to 16-bit signed integer, interleaved) and the ChannelMap property of Audio Unit Properties
// Reference (kAudioOutputUnitProperty_ChannelMap, which AUConverter honours: output channel i
// takes input channel map[i]).
import AudioToolbox
import Foundation

/// Left and right signals in exact 16-bit steps: left = k/32768, right = -k/32768 − 1/32768.
final class StereoStepSource {
    var frame: Int = 0
}

let stereoStepCallback: AURenderCallback = { inRefCon, ioActionFlags, inTimeStamp, inBusNumber, inNumberFrames, ioData in
    let source = Unmanaged<StereoStepSource>.fromOpaque(inRefCon).takeUnretainedValue()
    let abl = UnsafeMutableAudioBufferListPointer(ioData)!
    let left = UnsafeMutableBufferPointer<Float32>(abl[0])
    let right = UnsafeMutableBufferPointer<Float32>(abl[1])
    for i in 0..<Int(inNumberFrames) {
        let k = Float32((source.frame + i) * 37 % 65536 - 32768)
        left[i] = k / 32768
        right[i] = (-k - 1) / 32768
    }
    source.frame += Int(inNumberFrames)
    return noErr
}

final class ConverterChannelSwapper {
    var converterUnit: AudioUnit?
    let source = StereoStepSource()

    /// Converts `frames` frames and returns the interleaved Int16 samples (L R L R …) of the output.
    func convert(frames: UInt32, swapChannels: Bool) -> [Int16] {
        var converterDescription = AudioComponentDescription()
        converterDescription.componentType = kAudioUnitType_FormatConverter
        converterDescription.componentSubType = kAudioUnitSubType_AUConverter
        converterDescription.componentManufacturer = kAudioUnitManufacturer_Apple
        AudioComponentInstanceNew(AudioComponentFindNext(nil, &converterDescription)!, &converterUnit)

        var floatFormat = AudioStreamBasicDescription()
        floatFormat.mSampleRate = 44100
        floatFormat.mFormatID = kAudioFormatLinearPCM
        floatFormat.mFormatFlags = kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked | kAudioFormatFlagIsNonInterleaved
        floatFormat.mBytesPerPacket = 4
        floatFormat.mFramesPerPacket = 1
        floatFormat.mBytesPerFrame = 4
        floatFormat.mChannelsPerFrame = 2
        floatFormat.mBitsPerChannel = 32

        var int16Format = AudioStreamBasicDescription()
        int16Format.mSampleRate = 44100
        int16Format.mFormatID = kAudioFormatLinearPCM
        int16Format.mFormatFlags = kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked
        int16Format.mBytesPerPacket = 4
        int16Format.mFramesPerPacket = 1
        int16Format.mBytesPerFrame = 4
        int16Format.mChannelsPerFrame = 2
        int16Format.mBitsPerChannel = 16

        let size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        precondition(
            AudioUnitSetProperty(converterUnit!, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &floatFormat, size) == noErr)
        precondition(
            AudioUnitSetProperty(converterUnit!, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &int16Format, size) == noErr)
        if swapChannels {
            var channelMap: [Int32] = [1, 0]
            precondition(
                AudioUnitSetProperty(
                    converterUnit!, kAudioOutputUnitProperty_ChannelMap, kAudioUnitScope_Output, 0,
                    &channelMap, UInt32(channelMap.count * MemoryLayout<Int32>.size)) == noErr)
        }
        var maximumFrames = frames
        AudioUnitSetProperty(
            converterUnit!, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0,
            &maximumFrames, UInt32(MemoryLayout<UInt32>.size))
        var callback = AURenderCallbackStruct(inputProc: stereoStepCallback, inputProcRefCon: Unmanaged.passUnretained(source).toOpaque())
        precondition(
            AudioUnitSetProperty(
                converterUnit!, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0,
                &callback, UInt32(MemoryLayout<AURenderCallbackStruct>.size)) == noErr)
        precondition(AudioUnitInitialize(converterUnit!) == noErr)

        var output = [Int16](repeating: 0, count: Int(frames) * 2)
        output.withUnsafeMutableBytes { bytes in
            var bufferList = AudioBufferList(
                mNumberBuffers: 1,
                mBuffers: AudioBuffer(
                    mNumberChannels: 2, mDataByteSize: UInt32(bytes.count),
                    mData: bytes.baseAddress))
            var flags = AudioUnitRenderActionFlags()
            var timeStamp = AudioTimeStamp()
            timeStamp.mFlags = .sampleTimeValid
            let status = AudioUnitRender(converterUnit!, &flags, &timeStamp, 0, frames, &bufferList)
            precondition(status == noErr, "AudioUnitRender \(status)")
        }
        AudioUnitUninitialize(converterUnit!)
        AudioComponentInstanceDispose(converterUnit!)
        return output
    }
}
