// Ported from: MusicPlayer.h and the "Music Sequencing Services" documentation (MusicSequence,
// MusicTrack, MusicPlayer, MusicEventIterator): a sequence built in code (a tempo event on the
// tempo track, notes on a track), played by a MusicPlayer into an AUGraph whose instrument
// node receives the notes (MusicSequenceSetAUGraph: tracks go to the graph's first music
// device), the graph's generic output pulled offline; the events listed with an iterator the
// way Apple's samples loop (MusicEventIteratorHasCurrentEvent / GetEventInfo / NextEvent); the
// sequence written as MIDI data and read back.
import AudioToolbox
import Foundation

final class MusicSequenceOfflinePlayback {
    var graph: AUGraph?
    var outputNode = AUNode()
    var synthNode = AUNode()
    var sequence: MusicSequence?
    var player: MusicPlayer?
    let sampleRate: Float64 = 44_100
    var sampleTime: Float64 = 0

    init(instrument: AudioComponent, tempo: Float64, notes: [(beat: MusicTimeStamp, note: UInt8, duration: Float32)]) {
        NewAUGraph(&graph)
        var outputDescription = AudioComponentDescription(
            componentType: kAudioUnitType_Output, componentSubType: kAudioUnitSubType_GenericOutput,
            componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
        var synthDescription = AudioComponentDescription()
        AudioComponentGetDescription(instrument, &synthDescription)
        AUGraphAddNode(graph!, &outputDescription, &outputNode)
        AUGraphAddNode(graph!, &synthDescription, &synthNode)
        AUGraphOpen(graph!)
        AUGraphConnectNodeInput(graph!, synthNode, 0, outputNode, 0)
        AUGraphInitialize(graph!)

        NewMusicSequence(&sequence)
        var tempoTrack: MusicTrack?
        MusicSequenceGetTempoTrack(sequence!, &tempoTrack)
        MusicTrackNewExtendedTempoEvent(tempoTrack!, 0, tempo)
        var track: MusicTrack?
        MusicSequenceNewTrack(sequence!, &track)
        for n in notes {
            var message = MIDINoteMessage(channel: 0, note: n.note, velocity: 100, releaseVelocity: 0, duration: n.duration)
            MusicTrackNewMIDINoteEvent(track!, n.beat, &message)
        }
        MusicSequenceSetAUGraph(sequence!, graph)

        NewMusicPlayer(&player)
        MusicPlayerSetSequence(player!, sequence)
        MusicPlayerPreroll(player!)
    }

    func start() -> OSStatus { MusicPlayerStart(player!) }

    var isPlaying: Bool {
        var playing: DarwinBoolean = false
        MusicPlayerIsPlaying(player!, &playing)
        return playing.boolValue
    }

    /// Pulls `frames` frames from the generic output; returns the first channel.
    func render(frames: UInt32) -> [Float32] {
        var output: AudioUnit?
        AUGraphNodeInfo(graph!, outputNode, nil, &output)
        let list = AudioBufferList.allocate(maximumBuffers: 2)
        defer { list.unsafeMutablePointer.deallocate() }
        let left = UnsafeMutablePointer<Float32>.allocate(capacity: Int(frames))
        let right = UnsafeMutablePointer<Float32>.allocate(capacity: Int(frames))
        defer { left.deallocate(); right.deallocate() }
        list[0] = AudioBuffer(mNumberChannels: 1, mDataByteSize: frames * 4, mData: left)
        list[1] = AudioBuffer(mNumberChannels: 1, mDataByteSize: frames * 4, mData: right)
        var timeStamp = AudioTimeStamp()
        timeStamp.mFlags = .sampleTimeValid
        timeStamp.mSampleTime = sampleTime
        var flags = AudioUnitRenderActionFlags()
        guard AudioUnitRender(output!, &flags, &timeStamp, 0, frames, list.unsafeMutablePointer) == noErr else { return [] }
        sampleTime += Float64(frames)
        return Array(UnsafeBufferPointer(start: left, count: Int(frames)))
    }

    /// (beat, note) of every note event of track 0, through an iterator.
    func listNotes() -> [(MusicTimeStamp, UInt8)] {
        var track: MusicTrack?
        MusicSequenceGetIndTrack(sequence!, 0, &track)
        var iterator: MusicEventIterator?
        NewMusicEventIterator(track!, &iterator)
        defer { DisposeMusicEventIterator(iterator!) }
        var found: [(MusicTimeStamp, UInt8)] = []
        var hasCurrentEvent: DarwinBoolean = false
        MusicEventIteratorHasCurrentEvent(iterator!, &hasCurrentEvent)
        while hasCurrentEvent.boolValue {
            var timeStamp: MusicTimeStamp = 0
            var eventType: MusicEventType = 0
            var eventData: UnsafeRawPointer?
            var eventDataSize: UInt32 = 0
            MusicEventIteratorGetEventInfo(iterator!, &timeStamp, &eventType, &eventData, &eventDataSize)
            if eventType == kMusicEventType_MIDINoteMessage {
                let message = eventData!.assumingMemoryBound(to: MIDINoteMessage.self).pointee
                found.append((timeStamp, message.note))
            }
            MusicEventIteratorNextEvent(iterator!)
            MusicEventIteratorHasCurrentEvent(iterator!, &hasCurrentEvent)
        }
        return found
    }

    /// The sequence as Standard MIDI File data, loaded into a new sequence; its track count.
    func roundTripTrackCount() -> UInt32 {
        var data: Unmanaged<CFData>?
        guard MusicSequenceFileCreateData(sequence!, .midiType, .eraseFile, 480, &data) == noErr, let midi = data?.takeRetainedValue()
        else { return 0 }
        var copy: MusicSequence?
        NewMusicSequence(&copy)
        defer { DisposeMusicSequence(copy!) }
        guard MusicSequenceFileLoadData(copy!, midi, .midiType, MusicSequenceLoadFlags()) == noErr else { return 0 }
        var count: UInt32 = 0
        MusicSequenceGetTrackCount(copy!, &count)
        return count
    }

    func dispose() {
        MusicPlayerStop(player!)
        DisposeMusicPlayer(player!)
        DisposeMusicSequence(sequence!)
        DisposeAUGraph(graph!)
    }
}
