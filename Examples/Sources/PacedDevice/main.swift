// Issue 7's paced-device bar: a graph of 8 built-in units (sine callback -> delay -> iPod EQ ->
// N-band EQ -> delay -> iPod EQ -> N-band EQ -> multichannel mixer -> ALSA I/O unit) plays
// through an ALSA PCM at 64-frame periods, 48 kHz, then prints the I/O unit's xrun count and
// worst render time. scripts/paced-device-check.sh runs it over the `jack` PCM and jackd's dummy
// backend with the other core busy.  Usage: paced-device PCM SECONDS [PERIOD]
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
    FileHandle.standardError.write("usage: paced-device PCM SECONDS [PERIOD]\n".data(using: .utf8)!)
    exit(2)
}
let period = arguments.count > 3 ? UInt32(arguments[3]) ?? 64 : 64
let sampleRate: Float64 = 48_000

func description(_ type: OSType, _ subType: OSType) -> AudioComponentDescription {
    AudioComponentDescription(
        componentType: type, componentSubType: subType, componentManufacturer: kAudioUnitManufacturer_Apple,
        componentFlags: 0, componentFlagsMask: 0)
}
let chain: [AudioComponentDescription] = [
    description(kAudioUnitType_Effect, kAudioUnitSubType_Delay),
    description(kAudioUnitType_Effect, kAudioUnitSubType_AUiPodEQ),
    description(kAudioUnitType_Effect, kAudioUnitSubType_NBandEQ),
    description(kAudioUnitType_Effect, kAudioUnitSubType_Delay),
    description(kAudioUnitType_Effect, kAudioUnitSubType_AUiPodEQ),
    description(kAudioUnitType_Effect, kAudioUnitSubType_NBandEQ),
    description(kAudioUnitType_Mixer, kAudioUnitSubType_MultiChannelMixer),
    description(kAudioUnitType_Output, kAudioUnitSubType_RemoteIO),
]

var graph: AUGraph?
check(NewAUGraph(&graph), "NewAUGraph")
var nodes: [AUNode] = []
for var unitDescription in chain {
    var node = AUNode()
    check(AUGraphAddNode(graph!, &unitDescription, &node), "AUGraphAddNode")
    nodes.append(node)
}
check(AUGraphOpen(graph!), "AUGraphOpen")
let units: [AudioUnit] = nodes.map { node in
    var unit: AudioUnit?
    check(AUGraphNodeInfo(graph!, node, nil, &unit), "AUGraphNodeInfo")
    return unit!
}
let io = units.last!

// The Linux stand-in for the audio session: device, rate and I/O buffer duration.
let name = CFStringCreateWithCString(nil, arguments[1], CFStringBuiltInEncodings.UTF8.rawValue)!
setProperty(io, kAudioOutputUnitProperty_CurrentDevice, kAudioUnitScope_Global, 0, Optional(name), "set CurrentDevice")
setProperty(io, kAUHostALSAProperty_PreferredSampleRate, kAudioUnitScope_Global, 0, sampleRate, "set PreferredSampleRate")
setProperty(io, kAUHostALSAProperty_PreferredPeriodFrames, kAudioUnitScope_Global, 0, period, "set PreferredPeriodFrames")
setProperty(io, kAUHostALSAProperty_PreferredPeriodCount, kAudioUnitScope_Global, 0, UInt32(2), "set PreferredPeriodCount")

var stereo = AudioStreamBasicDescription(
    mSampleRate: sampleRate, mFormatID: kAudioFormatLinearPCM,
    mFormatFlags: kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked | kAudioFormatFlagIsNonInterleaved,
    mBytesPerPacket: 4, mFramesPerPacket: 1, mBytesPerFrame: 4, mChannelsPerFrame: 2,
    mBitsPerChannel: 32, mReserved: 0)
setProperty(units[6], kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0, UInt32(1), "set mixer bus count")
for unit in units.dropLast() {
    setProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, stereo, "set input format")
    setProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, stereo, "set output format")
}
setProperty(io, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, stereo, "set I/O format")

let sine = UnsafeMutablePointer<Sine>.allocate(capacity: 1)
sine.initialize(to: Sine())
var source = AURenderCallbackStruct(inputProc: renderSine, inputProcRefCon: UnsafeMutableRawPointer(sine))
check(AUGraphSetNodeInputCallback(graph!, nodes[0], 0, &source), "attach the sine")
for (from, to) in zip(nodes, nodes.dropFirst()) {
    check(AUGraphConnectNodeInput(graph!, from, 0, to, 0), "AUGraphConnectNodeInput")
}
check(AUGraphInitialize(graph!), "AUGraphInitialize")
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
let periodMicroseconds = Double(grantedPeriod) / grantedRate * 1e6
print(
    "device \(arguments[1]), granted \(Int(grantedRate)) Hz, period \(grantedPeriod) frames (\(String(format: "%.0f", periodMicroseconds)) µs) × 2"
)
print("units 8 (delay, iPod EQ, N-band EQ, delay, iPod EQ, N-band EQ, multichannel mixer, ALSA I/O)")
print(String(format: "played %.1f s, still running at the end: %@", elapsed, running != 0 ? "yes" : "no"))
print("scheduling \(realTime != 0 ? "SCHED_FIFO" : "normal priority (SCHED_FIFO refused)")")
print("xruns \(xruns)")
print(String(format: "worst-render %.1f %% of the period (%.1f µs)", worst * 100, worst * periodMicroseconds))
AUGraphUninitialize(graph!)
DisposeAUGraph(graph!)
exit(running != 0 && xruns == 0 ? 0 : 1)
