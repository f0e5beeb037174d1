// Issue 15's paced bar: an 8-branch graph rendered on THREADS threads (AUGraphSetRenderThreadCount,
// an AUHost extension) plays through an ALSA PCM at 64-frame periods, 48 kHz, then prints the I/O
// unit's xrun count and worst render time. A sine callback feeds a mixer; eight branches (delay →
// iPod EQ → N-band EQ → delay, each with its own settings) take its output and meet in an
// 8-input multichannel mixer before the ALSA I/O unit: 35 units, of which the 32 branch units
// render on any of the threads. scripts/parallel-paced-check.sh runs it over the `jack` PCM and
// jackd's dummy backend.  Usage: parallel-paced-device PCM SECONDS [PERIOD] [THREADS]
import AudioToolbox
import AUHost
import Foundation

func check(_ status: OSStatus, _ what: String) {
    guard status != noErr else { return }
    var message = ""
    if let text = AUHostCopyLastErrorMessage()?.takeRetainedValue() {
        var buffer = [CChar](repeating: 0, count: 512)
        if CFStringGetCString(text, &buffer, 512, CFStringBuiltInEncodings.UTF8.rawValue) != 0 { message = String(cString: buffer) }
    }
    FileHandle.standardError.write("error: \(what) failed with status \(status). \(message)\n".data(using: .utf8)!)
    exit(1)
}

func setProperty<T>(
    _ unit: AudioUnit, _ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
    _ value: T, _ what: String
) {
    var value = value
    check(AudioUnitSetProperty(unit, id, scope, element, &value, UInt32(MemoryLayout<T>.size)), what)
}

func getProperty<T>(_ unit: AudioUnit, _ id: AudioUnitPropertyID, _ initial: T) -> T {
    var value = initial
    var size = UInt32(MemoryLayout<T>.size)
    check(AudioUnitGetProperty(unit, id, kAudioUnitScope_Global, 0, &value, &size), "get property \(id)")
    return value
}

/// The source's phase, allocated once (a refCon must outlive the call, see docs/PORTING.md).
struct Sine { var phase: Float = 0; var step: Float = 2 * .pi * 440 / 48_000 }

/// Thread: render. Writes a quiet sine into every channel buffer.
let renderSine: AURenderCallback = { refCon, _, _, _, frames, ioData in
    let sine = refCon.assumingMemoryBound(to: Sine.self)
    let buffers = UnsafeMutableAudioBufferListPointer(ioData!)
    for i in 0..<Int(frames) {
        let value = 0.25 * sinf(sine.pointee.phase)
        for buffer in buffers { buffer.mData!.assumingMemoryBound(to: Float.self)[i] = value }
        sine.pointee.phase += sine.pointee.step
        if sine.pointee.phase > 2 * .pi { sine.pointee.phase -= 2 * .pi }
    }
    return noErr
}

let arguments = CommandLine.arguments
guard arguments.count >= 3, let seconds = Double(arguments[2]) else {
    FileHandle.standardError.write("usage: parallel-paced-device PCM SECONDS [PERIOD] [THREADS]\n".data(using: .utf8)!)
    exit(2)
}
let period = arguments.count > 3 ? UInt32(arguments[3]) ?? 64 : 64
let threads = arguments.count > 4 ? UInt32(arguments[4]) ?? 2 : 2
let sampleRate: Float64 = 48_000
let branchCount = 8

func description(_ type: OSType, _ subType: OSType) -> AudioComponentDescription {
    AudioComponentDescription(
        componentType: type, componentSubType: subType, componentManufacturer: kAudioUnitManufacturer_Apple,
        componentFlags: 0, componentFlagsMask: 0)
}
let branch: [AudioComponentDescription] = [
    description(kAudioUnitType_Effect, kAudioUnitSubType_Delay),
    description(kAudioUnitType_Effect, kAudioUnitSubType_AUiPodEQ),
    description(kAudioUnitType_Effect, kAudioUnitSubType_NBandEQ),
    description(kAudioUnitType_Effect, kAudioUnitSubType_Delay),
]

var graph: AUGraph?
check(NewAUGraph(&graph), "NewAUGraph")
check(AUGraphSetRenderThreadCount(graph!, threads), "AUGraphSetRenderThreadCount")
func add(_ d: AudioComponentDescription) -> (AUNode, AudioUnit) {
    var d = d
    var node = AUNode()
    check(AUGraphAddNode(graph!, &d, &node), "AUGraphAddNode")
    check(AUGraphOpen(graph!), "AUGraphOpen")
    var unit: AudioUnit?
    check(AUGraphNodeInfo(graph!, node, nil, &unit), "AUGraphNodeInfo")
    return (node, unit!)
}
var stereo = AudioStreamBasicDescription(
    mSampleRate: sampleRate, mFormatID: kAudioFormatLinearPCM,
    mFormatFlags: kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked | kAudioFormatFlagIsNonInterleaved,
    mBytesPerPacket: 4, mFramesPerPacket: 1, mBytesPerFrame: 4, mChannelsPerFrame: 2,
    mBitsPerChannel: 32, mReserved: 0)
func stereoFormats(_ unit: AudioUnit) {
    setProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, stereo, "set input format")
    setProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, stereo, "set output format")
}

let (ioNode, io) = add(description(kAudioUnitType_Output, kAudioUnitSubType_RemoteIO))
let (sourceNode, source) = add(description(kAudioUnitType_Mixer, kAudioUnitSubType_MultiChannelMixer))
let (mixNode, mix) = add(description(kAudioUnitType_Mixer, kAudioUnitSubType_MultiChannelMixer))
setProperty(source, kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0, UInt32(1), "set source bus count")
setProperty(mix, kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0, UInt32(branchCount), "set mixer bus count")
stereoFormats(source)
for bus in 0..<UInt32(branchCount) {
    setProperty(mix, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, bus, stereo, "set mixer input format")
    check(AudioUnitSetParameter(mix, kMultiChannelMixerParam_Volume, kAudioUnitScope_Input, bus, 1 / Float(branchCount), 0), "mixer volume")
}
setProperty(mix, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, stereo, "set mixer output format")
for b in 0..<branchCount {
    var previous = sourceNode
    for (i, d) in branch.enumerated() {
        let (node, unit) = add(d)
        stereoFormats(unit)
        if d.componentSubType == kAudioUnitSubType_Delay {
            // Each branch its own echo: delay time 10…80 ms, partly wet.
            check(
                AudioUnitSetParameter(unit, kDelayParam_DelayTime, kAudioUnitScope_Global, 0, Float(b + 1) * 0.01 + Float(i) * 0.001, 0),
                "delay time")
            check(AudioUnitSetParameter(unit, kDelayParam_WetDryMix, kAudioUnitScope_Global, 0, 30, 0), "delay mix")
        }
        check(AUGraphConnectNodeInput(graph!, previous, 0, node, 0), "AUGraphConnectNodeInput")
        previous = node
    }
    check(AUGraphConnectNodeInput(graph!, previous, 0, mixNode, UInt32(b)), "AUGraphConnectNodeInput (mixer)")
}
check(AUGraphConnectNodeInput(graph!, mixNode, 0, ioNode, 0), "AUGraphConnectNodeInput (head)")

// The Linux stand-in for the audio session: device, rate and I/O buffer duration.
let name = CFStringCreateWithCString(nil, arguments[1], CFStringBuiltInEncodings.UTF8.rawValue)!
setProperty(io, kAudioOutputUnitProperty_CurrentDevice, kAudioUnitScope_Global, 0, Optional(name), "set CurrentDevice")
setProperty(io, kAUHostALSAProperty_PreferredSampleRate, kAudioUnitScope_Global, 0, sampleRate, "set PreferredSampleRate")
setProperty(io, kAUHostALSAProperty_PreferredPeriodFrames, kAudioUnitScope_Global, 0, period, "set PreferredPeriodFrames")
setProperty(io, kAUHostALSAProperty_PreferredPeriodCount, kAudioUnitScope_Global, 0, UInt32(2), "set PreferredPeriodCount")
setProperty(io, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, stereo, "set I/O format")

let sine = UnsafeMutablePointer<Sine>.allocate(capacity: 1)
sine.initialize(to: Sine())
var callback = AURenderCallbackStruct(inputProc: renderSine, inputProcRefCon: UnsafeMutableRawPointer(sine))
check(AUGraphSetNodeInputCallback(graph!, sourceNode, 0, &callback), "attach the sine")
check(AUGraphInitialize(graph!), "AUGraphInitialize")
var granted: UInt32 = 0
check(AUGraphGetRenderThreadCount(graph!, &granted), "AUGraphGetRenderThreadCount")
let grantedPeriod: UInt32 = getProperty(io, kAUHostALSAProperty_GrantedPeriodFrames, 0)
let grantedRate: Float64 = getProperty(io, kAUHostALSAProperty_GrantedSampleRate, 0)
let started = Date()
check(AUGraphStart(graph!), "AUGraphStart")
Thread.sleep(forTimeInterval: seconds)
let running: UInt32 = getProperty(io, kAudioOutputUnitProperty_IsRunning, 0)
check(AUGraphStop(graph!), "AUGraphStop")
let elapsed = Date().timeIntervalSince(started)
let xruns: UInt32 = getProperty(io, kAUHostALSAProperty_XrunCount, 0)
let worst: Float64 = getProperty(io, kAUHostALSAProperty_WorstRenderFraction, 0)
let realTime: UInt32 = getProperty(io, kAUHostALSAProperty_RealTimeScheduling, 0)
var maxLoad: Float32 = 0
check(AUGraphGetMaxCPULoad(graph!, &maxLoad), "AUGraphGetMaxCPULoad")
let periodMicroseconds = Double(grantedPeriod) / grantedRate * 1e6
print(
    "device \(arguments[1]), granted \(Int(grantedRate)) Hz, period \(grantedPeriod) frames (\(String(format: "%.0f", periodMicroseconds)) µs) × 2"
)
print("units \(branchCount * branch.count + 3) (\(branchCount) branches of delay, iPod EQ, N-band EQ, delay; 2 mixers; ALSA I/O)")
print("render threads \(granted) (the device thread and \(max(Int(granted) - 1, 0)) worker\(granted == 2 ? "" : "s"))")
print(String(format: "played %.1f s, still running at the end: %@", elapsed, running != 0 ? "yes" : "no"))
print("scheduling \(realTime != 0 ? "SCHED_FIFO" : "normal priority (SCHED_FIFO refused)")")
print("xruns \(xruns)")
print(String(format: "worst-render %.1f %% of the period (%.1f µs)", worst * 100, worst * periodMicroseconds))
AUGraphUninitialize(graph!)
DisposeAUGraph(graph!)
exit(running != 0 && xruns == 0 ? 0 : 1)
