// The blog "iOS Audio Unit (一)" (seed 004), its two ways of setting up RemoteIO, in Swift as one
// would write its Objective-C on Apple's platforms. Usage: remoteio-blog unit|graph PCM FRAMES
import AudioToolbox
import AUHost
import Foundation

let arguments = CommandLine.arguments
guard arguments.count == 4, let frames = Int(arguments[3]), ["unit", "graph"].contains(arguments[1]) else {
    print("usage: remoteio-blog unit|graph PCM FRAMES")
    exit(2)
}
let canonicalStereo = AudioStreamBasicDescription(
    mSampleRate: 48_000, mFormatID: kAudioFormatLinearPCM,
    mFormatFlags: kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked | kAudioFormatFlagIsNonInterleaved,
    mBytesPerPacket: 4, mFramesPerPacket: 1, mBytesPerFrame: 4, mChannelsPerFrame: 2, mBitsPerChannel: 32, mReserved: 0)
let engine = AudioEngine(format: canonicalStereo)
let graphMode = arguments[1] == "graph"
guard graphMode ? engine.setUpGraph(device: arguments[2]) : engine.setUpRemoteIO(device: arguments[2]) else { exit(1) }

var latency: UInt32 = 0
var size = UInt32(4)
_ = AudioUnitGetProperty(engine.mVoipUnit!, kAUHostALSAProperty_DuplexLatencyFrames, kAudioUnitScope_Global, 0, &latency, &size)
guard CheckOSStatus(graphMode ? AUGraphStart(engine.processingGraph!) : AudioOutputUnitStart(engine.mVoipUnit!), "couldn't start") else {
    exit(1)
}
let deadline = Date().addingTimeInterval(30)
while engine.framesPlayed.pointee < frames + Int(latency) && Date() < deadline { usleep(1000) }
guard CheckOSStatus(graphMode ? AUGraphStop(engine.processingGraph!) : AudioOutputUnitStop(engine.mVoipUnit!), "couldn't stop"),
    CheckOSStatus(engine.lastRecordError, "the record callback's AudioUnitRender")
else { exit(1) }
guard engine.framesPlayed.pointee >= frames + Int(latency) else {
    print("error: played only \(engine.framesPlayed.pointee) frames"); exit(1)
}
print("latency \(latency)")
