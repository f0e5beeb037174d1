import AUHost
import Foundation
import PlugInLoader
import XCTest

/// The checkout's root (from this file's location).
let checkoutRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// A fixture of Tests/MusicPlayerServicesTests/Fixtures (written by scripts/make-midi-fixtures.py).
func fixture(_ name: String) throws -> URL {
    try XCTUnwrap(Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: nil), "fixture \(name)")
}

/// A CFURL for a path (the C API takes CFURLRef).
func cfURL(_ path: String) -> CFURL {
    CFURLCreateFromFileSystemRepresentation(nil, path, path.utf8.count, false)
}

/// The last message the C API recorded on this thread.
func lastMessage() -> String { String(cfString: AUHostCopyLastErrorMessage()?.takeRetainedValue()) ?? "" }

/// Runs a command, returning its status and what it printed.
@discardableResult
func runCommand(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

/// AUHost's plug-ins (Plugins/build.sh, release, incremental), listed once per test process.
enum BuiltPlugIns {
    static let folder: Result<String, Error> = Result(catching: { () throws -> String in
        let result = try runCommand("/bin/sh", [checkoutRoot.appendingPathComponent("Plugins/build.sh").path, "release"])
        guard result.status == 0 else { throw AudioError(kAudio_ParamError, "Plugins/build.sh failed:\n\(result.output)") }
        return result.output.split(separator: "\n").last.map(String.init) ?? ""
    })

    /// The SDK SineSynth's description, after making sure the registry lists it.
    static func sineSynth() throws -> AudioComponentDescription {
        var desc = AudioComponentDescription("aumu", "sins", "AUSd")!
        if AudioComponentFindNext(nil, &desc) == nil {
            ComponentRegistry.shared.install(PlugInProvider(folders: [try folder.get()]))
        }
        XCTAssertNotNil(AudioComponentFindNext(nil, &desc), "aumu sins AUSd is not listed")
        return desc
    }
}

/// The first component of `type` (0: any) whose name ends with `suffix`.
func findComponent(type: OSType, nameSuffix suffix: String) -> AudioComponent? {
    var description = AudioComponentDescription(type: type)
    var component = AudioComponentFindNext(nil, &description)
    while let found = component {
        var name: Unmanaged<CFString>?
        if AudioComponentCopyName(found, &name) == noErr, let s = String(cfString: name?.takeRetainedValue()), s.hasSuffix(suffix) {
            return found
        }
        component = AudioComponentFindNext(found, &description)
    }
    return nil
}

/// A sequence of tempo events only, (beat, BPM), played into `graph` by a new player.
func tempoSequence(_ tempos: [(beat: Double, bpm: Double)], graph: AUGraph) throws -> (MusicSequence, MusicPlayer) {
    var sequence: MusicSequence?
    try AudioError.check(NewMusicSequence(&sequence), "NewMusicSequence")
    var tempoTrack: MusicTrack?
    try AudioError.check(MusicSequenceGetTempoTrack(sequence!, &tempoTrack), lastMessage())
    for (beat, bpm) in tempos { try AudioError.check(MusicTrackNewExtendedTempoEvent(tempoTrack!, beat, bpm), lastMessage()) }
    try AudioError.check(MusicSequenceSetAUGraph(sequence!, graph), lastMessage())
    var player: MusicPlayer?
    try AudioError.check(NewMusicPlayer(&player), "NewMusicPlayer")
    try AudioError.check(MusicPlayerSetSequence(player!, sequence!), lastMessage())
    return (sequence!, player!)
}

/// An offline graph: one instrument into a generic output head at `sampleRate`, stereo float,
/// pulled by the test in blocks, as `auhost render --midi` pulls it (`channels` 1 for a mono one).
final class InstrumentGraph {
    var graph: AUGraph?
    var head: AUNode = 0
    var instrument: AUNode = 0
    let sampleRate: Double
    let maxFrames: UInt32 = 4096
    let output: AudioBufferStorage
    var timeStamp = AudioTimeStamp()

    init(_ description: AudioComponentDescription, sampleRate: Double = 48_000, channels: UInt32 = 2) throws {
        self.sampleRate = sampleRate
        output = AudioBufferStorage(format: .canonical(sampleRate: sampleRate, channels: channels), capacity: maxFrames)
        try AudioError.check(NewAUGraph(&graph), "NewAUGraph")
        var headDesc = AudioComponentDescription(type: kAudioUnitType_Output, subType: kAudioUnitSubType_GenericOutput)
        var instrumentDesc = description
        try AudioError.check(AUGraphAddNode(graph!, &headDesc, &head), lastMessage())
        try AudioError.check(AUGraphAddNode(graph!, &instrumentDesc, &instrument), lastMessage())
        try AudioError.check(AUGraphOpen(graph!), lastMessage())
        var format = AudioStreamBasicDescription.canonical(sampleRate: sampleRate, channels: channels)
        var frames = maxFrames
        let size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        for (node, scope) in [(instrument, kAudioUnitScope_Output), (head, kAudioUnitScope_Input), (head, kAudioUnitScope_Output)] {
            try AudioError.check(AudioUnitSetProperty(unit(node), kAudioUnitProperty_StreamFormat, scope, 0, &format, size), lastMessage())
        }
        for node in [instrument, head] {
            try AudioError.check(
                AudioUnitSetProperty(unit(node), kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &frames, 4),
                lastMessage())
        }
        try AudioError.check(AUGraphConnectNodeInput(graph!, instrument, 0, head, 0), lastMessage())
        try AudioError.check(AUGraphInitialize(graph!), lastMessage())
        timeStamp.mFlags = .sampleTimeValid
    }

    deinit { DisposeAUGraph(graph!) }

    func unit(_ node: AUNode) -> AudioUnit {
        var unit: AudioUnit?
        AUGraphNodeInfo(graph!, node, nil, &unit)
        return unit!
    }

    /// Renders `total` frames in blocks of `block`; returns the left channel.
    func render(_ total: Int, block: Int) throws -> [Float] {
        var left: [Float] = []
        left.reserveCapacity(total)
        while left.count < total {
            let n = UInt32(min(block, total - left.count))
            output.prepare(frames: n)
            var flags: AudioUnitRenderActionFlags = []
            try AudioError.check(AudioUnitRender(unit(head), &flags, &timeStamp, 0, n, output.list), lastMessage())
            left += output.samples(channel: 0, frames: Int(n))
            timeStamp.mSampleTime += Double(n)
        }
        return left
    }
}

/// mido's timing of the fixture's notes (scripts/make-midi-fixtures.py).
struct MidoNotes: Decodable {
    struct Note: Decodable {
        var channel: Int
        var note: Int
        var velocity: Int
        var on: Double
        var off: Double
    }
    var notes: [Note]

    static func load(_ name: String) throws -> MidoNotes {
        try JSONDecoder().decode(MidoNotes.self, from: Data(contentsOf: try fixture(name)))
    }
}

/// Every event of a sequence, per track (tempo track first), as comparable values.
func events(of sequence: MusicSequence) throws -> [[String]] {
    var tracks: [MusicTrack] = []
    var tempo: MusicTrack?
    try AudioError.check(MusicSequenceGetTempoTrack(sequence, &tempo), lastMessage())
    tracks.append(tempo!)
    var count: UInt32 = 0
    try AudioError.check(MusicSequenceGetTrackCount(sequence, &count), lastMessage())
    for i in 0..<count {
        var t: MusicTrack?
        try AudioError.check(MusicSequenceGetIndTrack(sequence, i, &t), lastMessage())
        tracks.append(t!)
    }
    return try tracks.map { track in
        var iterator: MusicEventIterator?
        try AudioError.check(NewMusicEventIterator(track, &iterator), lastMessage())
        defer { DisposeMusicEventIterator(iterator!) }
        var out: [String] = []
        var has: DarwinBoolean = false
        MusicEventIteratorHasCurrentEvent(iterator!, &has)
        while has.boolValue {
            var time: MusicTimeStamp = 0
            var type: MusicEventType = 0
            var data: UnsafeRawPointer?
            var size: UInt32 = 0
            try AudioError.check(MusicEventIteratorGetEventInfo(iterator!, &time, &type, &data, &size), lastMessage())
            let bytes = UnsafeRawBufferPointer(start: data, count: Int(size)).map { String($0, radix: 16) }.joined(separator: " ")
            out.append("\(time) type \(type): \(bytes)")
            MusicEventIteratorNextEvent(iterator!)
            MusicEventIteratorHasCurrentEvent(iterator!, &has)
        }
        return out
    }
}
