// Ported from: Audio Unit Properties Reference / AudioUnitProperties.h, the AUAudioFilePlayer
// ('augn' 'afpl') properties and their documented order — kAudioUnitProperty_ScheduledFileIDs,
// kAudioUnitProperty_ScheduledFileRegion (a ScheduledAudioFileRegion), kAudioUnitProperty_
// ScheduledFilePrime and kAudioUnitProperty_ScheduleStartTimeStamp (mSampleTime −1: "start at the
// next render cycle") — in a graph whose file player feeds a generic output that the host pulls
// offline (Audio Unit Hosting Guide, "Constructing Audio Unit Apps", Listings 2-2, 2-5, 2-7).
// The file is opened with AudioFileOpenURL; URL: see ExtAudioFileClientFormat.swift.
import AudioToolbox
import Foundation

final class AudioFilePlayerGraph {
    var graph: AUGraph?
    var playerNode = AUNode()
    var outputNode = AUNode()
    var playerUnit: AudioUnit?
    var outputUnit: AudioUnit?
    var audioFile: AudioFileID?

    /// Plays `framesToPlay` frames of the file at `path` from `startFrame`, and renders `totalFrames` frames.
    func play(path: String, startFrame: Int64, framesToPlay: UInt32, totalFrames: Int, framesPerSlice: UInt32) -> [[Float32]] {
        var status = AudioFileOpenURL(AudioFileURL.make(path), .readPermission, 0, &audioFile)
        precondition(status == noErr, "AudioFileOpenURL \(status)")
        var fileFormat = AudioStreamBasicDescription()
        var propertySize = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        status = AudioFileGetProperty(audioFile!, kAudioFilePropertyDataFormat, &propertySize, &fileFormat)
        precondition(status == noErr, "kAudioFilePropertyDataFormat \(status)")

        var playerDescription = AudioComponentDescription(
            componentType: kAudioUnitType_Generator,
            componentSubType: kAudioUnitSubType_AudioFilePlayer,
            componentManufacturer: kAudioUnitManufacturer_Apple,
            componentFlags: 0, componentFlagsMask: 0)
        var outputDescription = AudioComponentDescription(
            componentType: kAudioUnitType_Output,
            componentSubType: kAudioUnitSubType_GenericOutput,
            componentManufacturer: kAudioUnitManufacturer_Apple,
            componentFlags: 0, componentFlagsMask: 0)
        NewAUGraph(&graph)
        AUGraphAddNode(graph!, &playerDescription, &playerNode)
        AUGraphAddNode(graph!, &outputDescription, &outputNode)
        AUGraphOpen(graph!)
        AUGraphNodeInfo(graph!, playerNode, nil, &playerUnit)
        AUGraphNodeInfo(graph!, outputNode, nil, &outputUnit)

        // The player's output: canonical float at the file's rate and channel count.
        var streamFormat = AudioStreamBasicDescription(
            mSampleRate: fileFormat.mSampleRate, mFormatID: kAudioFormatLinearPCM,
            mFormatFlags: kAudioFormatFlagsNativeFloatPacked | kAudioFormatFlagIsNonInterleaved,
            mBytesPerPacket: 4, mFramesPerPacket: 1, mBytesPerFrame: 4,
            mChannelsPerFrame: fileFormat.mChannelsPerFrame, mBitsPerChannel: 32, mReserved: 0)
        propertySize = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        status = AudioUnitSetProperty(playerUnit!, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &streamFormat, propertySize)
        precondition(status == noErr, "player format \(status)")
        status = AudioUnitSetProperty(outputUnit!, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &streamFormat, propertySize)
        precondition(status == noErr, "output input format \(status)")
        status = AudioUnitSetProperty(outputUnit!, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &streamFormat, propertySize)
        precondition(status == noErr, "output format \(status)")
        AUGraphConnectNodeInput(graph!, playerNode, 0, outputNode, 0)
        status = AUGraphInitialize(graph!)
        precondition(status == noErr, "AUGraphInitialize \(status)")

        // Tell the file player unit to load the file we want to play.
        status = AudioUnitSetProperty(
            playerUnit!, kAudioUnitProperty_ScheduledFileIDs, kAudioUnitScope_Global, 0,
            &audioFile, UInt32(MemoryLayout<AudioFileID>.size))
        precondition(status == noErr, "ScheduledFileIDs \(status)")

        // Apple's mAudioFile is a non-optional AudioFileID, so the region is built with every field.
        var regionStart = AudioTimeStamp()
        regionStart.mFlags = .sampleTimeValid
        regionStart.mSampleTime = 0
        var region = ScheduledAudioFileRegion(
            mTimeStamp: regionStart, mCompletionProc: nil, mCompletionProcUserData: nil,
            mAudioFile: audioFile!, mLoopCount: 0, mStartFrame: startFrame,
            mFramesToPlay: framesToPlay)
        status = AudioUnitSetProperty(
            playerUnit!, kAudioUnitProperty_ScheduledFileRegion, kAudioUnitScope_Global, 0,
            &region, UInt32(MemoryLayout<ScheduledAudioFileRegion>.size))
        precondition(status == noErr, "ScheduledFileRegion \(status)")

        // Prime the player by reading some frames from disk (0 = the default amount).
        var defaultValue: UInt32 = 0
        status = AudioUnitSetProperty(
            playerUnit!, kAudioUnitProperty_ScheduledFilePrime, kAudioUnitScope_Global, 0,
            &defaultValue, UInt32(MemoryLayout<UInt32>.size))
        precondition(status == noErr, "ScheduledFilePrime \(status)")

        // Tell the player when to start playing (−1 sample time means next render cycle).
        var startTime = AudioTimeStamp()
        startTime.mFlags = .sampleTimeValid
        startTime.mSampleTime = -1
        status = AudioUnitSetProperty(
            playerUnit!, kAudioUnitProperty_ScheduleStartTimeStamp, kAudioUnitScope_Global, 0,
            &startTime, UInt32(MemoryLayout<AudioTimeStamp>.size))
        precondition(status == noErr, "ScheduleStartTimeStamp \(status)")

        let channelCount = Int(fileFormat.mChannelsPerFrame)
        var channels = [[Float32]](repeating: [], count: channelCount)
        let bufferList = AudioBufferList.allocate(maximumBuffers: channelCount)
        let storage = UnsafeMutablePointer<Float32>.allocate(capacity: Int(framesPerSlice) * channelCount)
        defer {
            storage.deallocate()
            free(bufferList.unsafeMutablePointer)
        }
        var timeStamp = AudioTimeStamp()
        timeStamp.mFlags = .sampleTimeValid
        while channels[0].count < totalFrames {
            for channel in 0..<channelCount {
                bufferList[channel] = AudioBuffer(
                    mNumberChannels: 1, mDataByteSize: framesPerSlice * 4,
                    mData: storage + channel * Int(framesPerSlice))
            }
            var flags = AudioUnitRenderActionFlags()
            status = AudioUnitRender(outputUnit!, &flags, &timeStamp, 0, framesPerSlice, bufferList.unsafeMutablePointer)
            precondition(status == noErr, "AudioUnitRender \(status)")
            for (channel, buffer) in bufferList.enumerated() {
                channels[channel] += UnsafeBufferPointer<Float32>(buffer)
            }
            timeStamp.mSampleTime += Float64(framesPerSlice)
        }
        return channels.map { Array($0.prefix(totalFrames)) }
    }

    func dispose() {
        AUGraphUninitialize(graph!)
        AUGraphClose(graph!)
        DisposeAUGraph(graph!)
        AudioFileClose(audioFile!)
    }
}
