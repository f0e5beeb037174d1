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
import PacedSupport

let arguments = CommandLine.arguments
guard arguments.count >= 3, let seconds = Double(arguments[2]) else {
    FileHandle.standardError.write("usage: parallel-paced-device PCM SECONDS [PERIOD] [THREADS]\n".data(using: .utf8)!)
    exit(2)
}
let period = arguments.count > 3 ? UInt32(arguments[3]) ?? 64 : 64
let threads = arguments.count > 4 ? UInt32(arguments[4]) ?? 2 : 2
let sampleRate: Float64 = 48_000
let branchCount = 8

let branch: [AudioComponentDescription] = [
    appleUnit(kAudioUnitType_Effect, kAudioUnitSubType_Delay),
    appleUnit(kAudioUnitType_Effect, kAudioUnitSubType_AUiPodEQ),
    appleUnit(kAudioUnitType_Effect, kAudioUnitSubType_NBandEQ),
    appleUnit(kAudioUnitType_Effect, kAudioUnitSubType_Delay),
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
let stereo = stereoFormat(sampleRate)
func stereoFormats(_ unit: AudioUnit) {
    setProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, stereo, "set input format")
    setProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, stereo, "set output format")
}

let (ioNode, io) = add(appleUnit(kAudioUnitType_Output, kAudioUnitSubType_RemoteIO))
let (sourceNode, source) = add(appleUnit(kAudioUnitType_Mixer, kAudioUnitSubType_MultiChannelMixer))
let (mixNode, mix) = add(appleUnit(kAudioUnitType_Mixer, kAudioUnitSubType_MultiChannelMixer))
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

useDevice(io, pcm: arguments[1], sampleRate: sampleRate, period: period)
setProperty(io, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, stereo, "set I/O format")

let sine = UnsafeMutablePointer<Sine>.allocate(capacity: 1)
sine.initialize(to: Sine())
var callback = AURenderCallbackStruct(inputProc: renderSine, inputProcRefCon: UnsafeMutableRawPointer(sine))
check(AUGraphSetNodeInputCallback(graph!, sourceNode, 0, &callback), "attach the sine")
check(AUGraphInitialize(graph!), "AUGraphInitialize")
var granted: UInt32 = 0
check(AUGraphGetRenderThreadCount(graph!, &granted), "AUGraphGetRenderThreadCount")
playAndReport(
    graph!, io: io, pcm: arguments[1], seconds: seconds,
    describing: [
        "units \(branchCount * branch.count + 3) (\(branchCount) branches of delay, iPod EQ, N-band EQ, delay; 2 mixers; ALSA I/O)",
        "render threads \(granted) (the device thread and \(max(Int(granted) - 1, 0)) worker\(granted == 2 ? "" : "s"))",
    ])
