// Ported from: the AVCaptureToAudioUnit sample (ReadMe and CaptureSessionController): captured
// buffers are pushed through a delay effect unit ('aufx' 'dely') — a render callback hands the
// unit the stored input AudioBufferList whenever AudioUnitRender pulls it, the output list has
// NULL mData ("Passing in NULL mData's for rendering output from an audio unit will avoid an
// extra memory copy") and each rendered buffer is written with ExtAudioFileWriteAsync.
// AVCaptureSession has no counterpart here: `captureOutput(didOutput:)` is called by the caller
// with each "captured" buffer instead.
import AudioToolbox
import Foundation

final class CaptureSessionController {
    var effectUnit: AudioUnit?
    var extAudioFile: ExtAudioFileRef?
    var currentInputASBD = AudioStreamBasicDescription()
    /// The buffer list of the captured buffer being processed (what the render callback hands over).
    var currentInputAudioBufferList: UnsafeMutablePointer<AudioBufferList>?
    var currentSampleTime: Float64 = 0
    var outputBufferList: UnsafeMutableAudioBufferListPointer

    init(sampleRate: Float64, delayTime: Float32, outputPath: String) {
        // The canonical AU format (Listing 2 of the ReadMe: filling in the structure by hand).
        currentInputASBD.mSampleRate = sampleRate
        currentInputASBD.mFormatID = kAudioFormatLinearPCM
        currentInputASBD.mFormatFlags = kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked | kAudioFormatFlagIsNonInterleaved
        currentInputASBD.mChannelsPerFrame = 1
        currentInputASBD.mFramesPerPacket = 1
        currentInputASBD.mBytesPerFrame = UInt32(MemoryLayout<Float32>.size)
        currentInputASBD.mBytesPerPacket = UInt32(MemoryLayout<Float32>.size)
        currentInputASBD.mBitsPerChannel = 8 * UInt32(MemoryLayout<Float32>.size)

        // Listing 4: an AudioBufferList for render output (here with the overlay's allocate).
        outputBufferList = AudioBufferList.allocate(maximumBuffers: Int(currentInputASBD.mChannelsPerFrame))

        var delayDescription = AudioComponentDescription(
            componentType: kAudioUnitType_Effect,
            componentSubType: kAudioUnitSubType_Delay,
            componentManufacturer: kAudioUnitManufacturer_Apple,
            componentFlags: 0, componentFlagsMask: 0)
        let component = AudioComponentFindNext(nil, &delayDescription)!
        var status = AudioComponentInstanceNew(component, &effectUnit)
        precondition(status == noErr, "AudioComponentInstanceNew \(status)")

        var callbackStruct = AURenderCallbackStruct(
            inputProc: PushCurrentInputBufferIntoAudioUnit,
            inputProcRefCon: Unmanaged.passUnretained(self).toOpaque())
        status = AudioUnitSetProperty(
            effectUnit!, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Global, 0,
            &callbackStruct, UInt32(MemoryLayout<AURenderCallbackStruct>.size))
        if status != noErr {
            // The sample sets it on the global scope; the documented address is the input scope.
            status = AudioUnitSetProperty(
                effectUnit!, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0,
                &callbackStruct, UInt32(MemoryLayout<AURenderCallbackStruct>.size))
        }
        precondition(status == noErr, "SetRenderCallback \(status)")
        for scope in [kAudioUnitScope_Input, kAudioUnitScope_Output] {
            status = AudioUnitSetProperty(
                effectUnit!, kAudioUnitProperty_StreamFormat, scope, 0,
                &currentInputASBD, UInt32(MemoryLayout<AudioStreamBasicDescription>.size))
            precondition(status == noErr, "StreamFormat \(status)")
        }
        status = AudioUnitInitialize(effectUnit!)
        precondition(status == noErr, "AudioUnitInitialize \(status)")

        // The sample's delay settings come from its UI; these make every repeat a clean impulse.
        AudioUnitSetParameter(effectUnit!, kDelayParam_WetDryMix, kAudioUnitScope_Global, 0, 100, 0)
        AudioUnitSetParameter(effectUnit!, kDelayParam_Feedback, kAudioUnitScope_Global, 0, 0, 0)
        AudioUnitSetParameter(effectUnit!, kDelayParam_DelayTime, kAudioUnitScope_Global, 0, delayTime, 0)

        // startRecording: the file takes the client format as its data format (a float WAVE file).
        // On Apple `URL(fileURLWithPath: outputPath) as CFURL` (see ExtAudioFileClientFormat.swift).
        status = ExtAudioFileCreateWithURL(
            AudioFileURL.make(outputPath), kAudioFileWAVEType, &currentInputASBD, nil,
            AudioFileFlags.eraseFile.rawValue, &extAudioFile)
        precondition(status == noErr, "ExtAudioFileCreateWithURL \(status)")
        status = ExtAudioFileSetProperty(
            extAudioFile!, kExtAudioFileProperty_ClientDataFormat,
            UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &currentInputASBD)
        precondition(status == noErr, "ClientDataFormat \(status)")
        // Initialize the async writer: the first call with 0 frames and NULL data.
        status = ExtAudioFileWriteAsync(extAudioFile!, 0, nil)
        precondition(status == noErr, "ExtAudioFileWriteAsync prime \(status)")
    }

    /// captureOutput:didOutputSampleBuffer:fromConnection: — one captured buffer of mono samples.
    func captureOutput(didOutput samples: UnsafeMutablePointer<Float32>, numberOfFrames: UInt32) {
        var inputBufferList = AudioBufferList(
            mNumberBuffers: 1,
            mBuffers: AudioBuffer(
                mNumberChannels: 1,
                mDataByteSize: numberOfFrames * 4,
                mData: samples))
        withUnsafeMutablePointer(to: &inputBufferList) { inputList in
            currentInputAudioBufferList = inputList

            // Prepare the output list (AUOutputBL::Prepare with NULL mData: the unit renders
            // into its own buffers and hands them back).
            for index in 0..<outputBufferList.count {
                outputBufferList[index] = AudioBuffer(mNumberChannels: 1, mDataByteSize: numberOfFrames * 4, mData: nil)
            }
            var flags = AudioUnitRenderActionFlags()
            var timeStamp = AudioTimeStamp()
            timeStamp.mFlags = .sampleTimeValid
            timeStamp.mSampleTime = currentSampleTime
            let status = AudioUnitRender(effectUnit!, &flags, &timeStamp, 0, numberOfFrames, outputBufferList.unsafeMutablePointer)
            precondition(status == noErr, "AudioUnitRender \(status)")
            currentSampleTime += Float64(numberOfFrames)

            let writeStatus = ExtAudioFileWriteAsync(extAudioFile!, numberOfFrames, outputBufferList.unsafeMutablePointer)
            precondition(writeStatus == noErr, "ExtAudioFileWriteAsync \(writeStatus)")
            currentInputAudioBufferList = nil
        }
    }

    /// stopRecording and dealloc: closing the file flushes the async writes.
    func stopRecording() {
        ExtAudioFileDispose(extAudioFile!)
        extAudioFile = nil
        AudioUnitUninitialize(effectUnit!)
        AudioComponentInstanceDispose(effectUnit!)
        effectUnit = nil
        free(outputBufferList.unsafeMutablePointer)
    }
}

/// The sample's PushCurrentInputBufferIntoAudioUnit: copies the stored captured buffer into ioData.
let PushCurrentInputBufferIntoAudioUnit: AURenderCallback = { inRefCon, ioActionFlags, inTimeStamp, inBusNumber, inNumberFrames, ioData in
    let controller = Unmanaged<CaptureSessionController>.fromOpaque(inRefCon).takeUnretainedValue()
    guard let currentInput = controller.currentInputAudioBufferList else {
        return kAudioUnitErr_NoConnection
    }
    let source = UnsafeMutableAudioBufferListPointer(currentInput)
    let destination = UnsafeMutableAudioBufferListPointer(ioData)!
    for (index, buffer) in destination.enumerated() {
        // On Apple `memcpy(buffer.mData, source[index].mData, …)`: Glibc's memcpy takes non-optional pointers.
        memcpy(buffer.mData!, source[index].mData!, Int(min(buffer.mDataByteSize, source[index].mDataByteSize)))
    }
    return noErr
}
