// Issue 7's paced-device bar: a graph of 8 built-in units (sine callback -> delay -> iPod EQ ->
// N-band EQ -> delay -> iPod EQ -> N-band EQ -> multichannel mixer -> ALSA I/O unit) plays
// through an ALSA PCM at 64-frame periods, 48 kHz, then prints the I/O unit's xrun count and
// worst render time. scripts/paced-device-check.sh runs it over the `jack` PCM and jackd's dummy
// backend with the other core busy.  Usage: paced-device PCM SECONDS [PERIOD]
import AudioToolbox
import AUHost
import Foundation
import PacedSupport

let arguments = CommandLine.arguments
guard arguments.count >= 3, let seconds = Double(arguments[2]) else {
    FileHandle.standardError.write("usage: paced-device PCM SECONDS [PERIOD]\n".data(using: .utf8)!)
    exit(2)
}
let period = arguments.count > 3 ? UInt32(arguments[3]) ?? 64 : 64
let sampleRate: Float64 = 48_000

let chain: [AudioComponentDescription] = [
    appleUnit(kAudioUnitType_Effect, kAudioUnitSubType_Delay),
    appleUnit(kAudioUnitType_Effect, kAudioUnitSubType_AUiPodEQ),
    appleUnit(kAudioUnitType_Effect, kAudioUnitSubType_NBandEQ),
    appleUnit(kAudioUnitType_Effect, kAudioUnitSubType_Delay),
    appleUnit(kAudioUnitType_Effect, kAudioUnitSubType_AUiPodEQ),
    appleUnit(kAudioUnitType_Effect, kAudioUnitSubType_NBandEQ),
    appleUnit(kAudioUnitType_Mixer, kAudioUnitSubType_MultiChannelMixer),
    appleUnit(kAudioUnitType_Output, kAudioUnitSubType_RemoteIO),
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
useDevice(io, pcm: arguments[1], sampleRate: sampleRate, period: period)

let stereo = stereoFormat(sampleRate)
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
playAndReport(
    graph!, io: io, pcm: arguments[1], seconds: seconds,
    describing: ["units 8 (delay, iPod EQ, N-band EQ, delay, iPod EQ, N-band EQ, multichannel mixer, ALSA I/O)"])
