// Issue 18's paced bar: the voice-processing I/O unit ('auou' 'vpio' 'appl') in full duplex on an
// ALSA PCM at 48 kHz — the render callback plays bursts of noise (the far end, the echo
// reference), the input callback renders the processed microphone — then prints the unit's xrun
// count, worst device-thread cycle and the canceller's figures. scripts/vpio-paced-check.sh runs
// it over the `jack` PCM and jackd's dummy backend at 10 ms periods.
// Usage: voice-paced-device PCM SECONDS [PERIOD] [plain]   ("plain": the same duplex run through the
// plain ALSA I/O unit, RemoteIO, as the control)
import AudioToolbox
import AUHost
import Foundation
import PacedSupport

/// Everything the callbacks touch, allocated once.
struct CallState {
    var unit: AudioUnit?
    var noise: UInt64 = 0x9E37_79B9_7F4A_7C15
    var frame: Int = 0
    var inputErrors: Int = 0
    let microphone: UnsafeMutablePointer<AudioBufferList>
    let samples: UnsafeMutablePointer<Float>
}

/// Thread: render. Noise bursts (0.25 s on, 0.25 s off) as the far end, every channel.
let renderFarEnd: AURenderCallback = { refCon, _, _, _, frames, ioData in
    let state = refCon.assumingMemoryBound(to: CallState.self)
    let buffers = UnsafeMutableAudioBufferListPointer(ioData!)
    for i in 0..<Int(frames) {
        var x = state.pointee.noise
        x ^= x << 13
        x ^= x >> 7
        x ^= x << 17
        state.pointee.noise = x
        let on = (state.pointee.frame + i) / 12_000 % 2 == 0
        let value: Float = on ? Float(Int64(bitPattern: x) >> 40) / Float(1 << 24) * 0.2 : 0
        for buffer in buffers { buffer.mData!.assumingMemoryBound(to: Float.self)[i] = value }
    }
    state.pointee.frame += Int(frames)
    return noErr
}

/// Thread: render. Renders the processed microphone into the app's buffer.
let captureMicrophone: AURenderCallback = { refCon, flags, timeStamp, _, frames, _ in
    let state = refCon.assumingMemoryBound(to: CallState.self)
    let list = UnsafeMutableAudioBufferListPointer(state.pointee.microphone)
    list[0].mDataByteSize = frames * 4
    let status = AudioUnitRender(state.pointee.unit!, flags, timeStamp, 1, frames, state.pointee.microphone)
    if status != noErr { state.pointee.inputErrors += 1 }
    return status
}

/// One line on the canceller's figures.
func cancellerSummary(_ m: AUHostVoiceIOMetrics) -> String {
    "canceller: reported delay \(String(format: "%.1f", m.mReportedDelay * 1000)) ms, its estimate \(Int(m.mEchoDelay * 1000)) ms,"
        + " ERLE \(Int(m.mAverageEchoReturnLossEnhancement)) dB (webrtc's average; -100 = no echo heard), figures valid: \(m.mValid != 0)"
}

let arguments = CommandLine.arguments
guard arguments.count >= 3, let seconds = Double(arguments[2]) else {
    FileHandle.standardError.write("usage: voice-paced-device PCM SECONDS [PERIOD]\n".data(using: .utf8)!)
    exit(2)
}
let period = arguments.count > 3 ? UInt32(arguments[3]) ?? 480 : 480
let plain = arguments.count > 4 && arguments[4] == "plain"
let sampleRate: Float64 = 48_000

var description = AudioComponentDescription(
    componentType: kAudioUnitType_Output, componentSubType: plain ? kAudioUnitSubType_RemoteIO : kAudioUnitSubType_VoiceProcessingIO,
    componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
var found: AudioUnit?
check(AudioComponentInstanceNew(AudioComponentFindNext(nil, &description)!, &found), "AudioComponentInstanceNew")
let io = found!
setCurrentDevice(io, arguments[1])
setProperty(io, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Input, 1, UInt32(1), "enable input")
setProperty(io, kAUHostALSAProperty_PreferredSampleRate, kAudioUnitScope_Global, 0, sampleRate, "set PreferredSampleRate")
setProperty(io, kAUHostALSAProperty_PreferredPeriodFrames, kAudioUnitScope_Global, 0, period, "set PreferredPeriodFrames")
setProperty(io, kAUHostALSAProperty_PreferredPeriodCount, kAudioUnitScope_Global, 0, UInt32(2), "set PreferredPeriodCount")
var mono = AudioStreamBasicDescription(
    mSampleRate: sampleRate, mFormatID: kAudioFormatLinearPCM,
    mFormatFlags: kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked | kAudioFormatFlagIsNonInterleaved,
    mBytesPerPacket: 4, mFramesPerPacket: 1, mBytesPerFrame: 4, mChannelsPerFrame: 1, mBitsPerChannel: 32, mReserved: 0)
setProperty(io, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, mono, "set the far end's format")
setProperty(io, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 1, mono, "set the microphone's format")
// The `jack` PCM takes FLOAT_LE: ask for mono Float32 on the device sides too.
var deviceMono = mono
deviceMono.mFormatFlags = kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked
setProperty(io, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, deviceMono, "set the playback device format")
setProperty(io, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 1, deviceMono, "set the capture device format")

let samples = UnsafeMutablePointer<Float>.allocate(capacity: 8192)
let microphone = UnsafeMutablePointer<AudioBufferList>.allocate(capacity: 1)
microphone.initialize(to: AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: 1, mDataByteSize: 0, mData: samples)))
let state = UnsafeMutablePointer<CallState>.allocate(capacity: 1)
state.initialize(to: CallState(unit: io, microphone: microphone, samples: samples))
setProperty(
    io, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0,
    AURenderCallbackStruct(inputProc: renderFarEnd, inputProcRefCon: UnsafeMutableRawPointer(state)), "set the render callback")
setProperty(
    io, kAudioOutputUnitProperty_SetInputCallback, kAudioUnitScope_Global, 0,
    AURenderCallbackStruct(inputProc: captureMicrophone, inputProcRefCon: UnsafeMutableRawPointer(state)), "set the input callback")
check(AudioUnitInitialize(io), "AudioUnitInitialize")
let grantedPeriod: UInt32 = getProperty(io, kAUHostALSAProperty_GrantedPeriodFrames, 0)
let grantedRate: Float64 = getProperty(io, kAUHostALSAProperty_GrantedSampleRate, 0)
let started = Date()
check(AudioOutputUnitStart(io), "AudioOutputUnitStart")
Thread.sleep(forTimeInterval: seconds)
let running: UInt32 = getProperty(io, kAudioOutputUnitProperty_IsRunning, 0)
// The figures are formatted at once: read into a top-level global and printed later, they came out
// as zeros in a release build.
let cancellerLine =
    plain
    ? "canceller: none (plain ALSA I/O unit)"
    : cancellerSummary(getProperty(io, kAUHostVoiceIOProperty_EchoMetrics, AUHostVoiceIOMetrics()))
let duplexLatency: UInt32 = getProperty(io, kAUHostALSAProperty_DuplexLatencyFrames, 0)
check(AudioOutputUnitStop(io), "AudioOutputUnitStop")
let elapsed = Date().timeIntervalSince(started)
let xruns: UInt32 = getProperty(io, kAUHostALSAProperty_XrunCount, 0)
let worst: Float64 = getProperty(io, kAUHostALSAProperty_WorstRenderFraction, 0)
let realTime: UInt32 = getProperty(io, kAUHostALSAProperty_RealTimeScheduling, 0)
let latency: Float64 = getProperty(io, kAudioUnitProperty_Latency, 0)
let periodMicroseconds = Double(grantedPeriod) / grantedRate * 1e6
print(
    "device \(arguments[1]), granted \(Int(grantedRate)) Hz, period \(grantedPeriod) frames (\(String(format: "%.0f", periodMicroseconds)) µs) × 2, full duplex"
)
print("duplex latency \(duplexLatency) frames")
print(
    "unit \(plain ? "plain ALSA I/O (RemoteIO)" : "voice-processing I/O (AEC, NS, AGC, high-pass)"), latency \(String(format: "%.1f", latency * 1000)) ms on the capture side"
)
print(
    "ran \(String(format: "%.1f", elapsed)) s, still running at the end: \(running != 0 ? "yes" : "no"), input callback errors \(state.pointee.inputErrors)"
)
print("scheduling \(realTime != 0 ? "SCHED_FIFO" : "normal priority (SCHED_FIFO refused)")")
print("xruns \(xruns)")
print(String(format: "worst-render %.1f %% of the period (%.1f µs)", worst * 100, worst * periodMicroseconds))
print(cancellerLine)
AudioUnitUninitialize(io)
AudioComponentInstanceDispose(io)
exit(running != 0 && xruns == 0 && state.pointee.inputErrors == 0 ? 0 : 1)
