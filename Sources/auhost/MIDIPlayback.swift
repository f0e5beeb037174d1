import AudioFiles
import AUHost
import ExtAudioFile
import Foundation

/// `auhost render --midi FILE.mid INSTRUMENT -o OUT` and `auhost play --midi FILE.mid INSTRUMENT`:
/// a Standard MIDI File played by MusicPlayer into one instrument ('aumu') in an AUGraph built
/// through the C API, with a generic output head (rendered as fast as it goes, written to a file)
/// or the ALSA I/O unit (real time). The run lasts until the longest track ends, plus the tail.
final class MIDIPlayback {
    let graph: AUGraph
    let head: AUNode
    let instrumentName: String
    let sampleRate: Double
    /// Stereo, or the instrument's own count when it refuses two (a mono sampler).
    let channels: Int
    var sequence: MusicSequence?
    var player: MusicPlayer?

    /// Thread: setup.
    init(
        midi: String, instrument: String, device: String?, sampleRate: Double, block: UInt32,
        preset: String?, parameters: [String]
    ) throws {
        let component = try UnitLookup.component(instrument)
        guard component.description.componentType == kAudioUnitType_MusicDevice else {
            throw AudioError(
                kAudioToolboxErr_IllegalTrackDestination,
                "\(component.name) is not an instrument ('\(FourCC.string(component.description.componentType))'); a MIDI file plays into an 'aumu' unit."
            )
        }
        instrumentName = component.name
        self.sampleRate = sampleRate
        var g: AUGraph?
        try AudioError.check(NewAUGraph(&g), "NewAUGraph")
        graph = g!
        var instrumentDescription = component.description
        var headDescription = AudioComponentDescription(
            componentType: kAudioUnitType_Output,
            componentSubType: device == nil ? kAudioUnitSubType_GenericOutput : OSType(kAudioUnitSubType_AUHostALSAIO),
            componentManufacturer: kAudioUnitManufacturer_AUHost, componentFlags: 0, componentFlagsMask: 0)
        var instrumentNode: AUNode = 0, headNode: AUNode = 0
        try AudioError.check(AUGraphAddNode(graph, &instrumentDescription, &instrumentNode), LastErrorMessage.current ?? "add instrument")
        try AudioError.check(AUGraphAddNode(graph, &headDescription, &headNode), LastErrorMessage.current ?? "add output")
        head = headNode
        try AudioError.check(AUGraphOpen(graph), LastErrorMessage.current ?? "\(component.name) could not be instantiated.")
        let instrumentUnit = try Self.unit(graph, instrumentNode), headUnit = try Self.unit(graph, headNode)
        try UnitSettings.apply(preset: preset, parameters: parameters, to: instrumentUnit, named: component.name)
        var format = AudioStreamBasicDescription.canonical(sampleRate: sampleRate, channels: 2)
        let size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        var frames = block
        if AudioUnitSetProperty(instrumentUnit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &format, size) != noErr {
            var own = AudioStreamBasicDescription()
            var ownSize = size
            AudioUnitGetProperty(instrumentUnit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &own, &ownSize)
            format = .canonical(sampleRate: sampleRate, channels: max(own.mChannelsPerFrame, 1))
            try AudioError.check(
                AudioUnitSetProperty(instrumentUnit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &format, size),
                "\(component.name) refused \(format.mChannelsPerFrame) channels at \(Int(sampleRate)) Hz: \(LastErrorMessage.current ?? "")"
            )
        }
        channels = Int(format.mChannelsPerFrame)
        for u in [instrumentUnit, headUnit] {
            AudioUnitSetProperty(u, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &frames, 4)
        }
        try AudioError.check(
            AudioUnitSetProperty(headUnit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &format, size),
            LastErrorMessage.current ?? "the output unit refused the format")
        if let device {
            var rate = sampleRate
            AudioUnitSetProperty(headUnit, kAUHostALSAProperty_PreferredSampleRate, kAudioUnitScope_Global, 0, &rate, 8)
            try AudioError.check(
                setCurrentDevice(headUnit, device),
                "device \"\(device)\": \(LastErrorMessage.current ?? "refused")")
        } else {
            try AudioError.check(
                AudioUnitSetProperty(headUnit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &format, size),
                LastErrorMessage.current ?? "the output unit refused the format")
        }
        try AudioError.check(AUGraphConnectNodeInput(graph, instrumentNode, 0, headNode, 0), LastErrorMessage.current ?? "connect")
        try AudioError.check(AUGraphInitialize(graph), "The graph did not initialize: \(LastErrorMessage.current ?? "")")

        // Checked before the read: a FIFO would block MusicSequenceFileLoad.
        if let problem = GraphMIDI.unreadable(midi) { throw AudioError(problem.status, problem.message) }
        try AudioError.check(NewMusicSequence(&sequence), "NewMusicSequence")
        guard let url = CFURLCreateFromFileSystemRepresentation(nil, midi, midi.utf8.count, false) else {
            throw AudioError(kAudio_BadFilePathError, "\(midi) is not a file path.")
        }
        try AudioError.check(MusicSequenceFileLoad(sequence!, url, .anyType, []), LastErrorMessage.current ?? "Cannot load \(midi).")
        try AudioError.check(MusicSequenceSetAUGraph(sequence!, graph), LastErrorMessage.current ?? "")
        try AudioError.check(NewMusicPlayer(&player), "NewMusicPlayer")
        try AudioError.check(MusicPlayerSetSequence(player!, sequence!), LastErrorMessage.current ?? "")
        try AudioError.check(MusicPlayerPreroll(player!), LastErrorMessage.current ?? "MusicPlayerPreroll failed.")
    }

    deinit {
        if let player { DisposeMusicPlayer(player) }
        if let sequence { DisposeMusicSequence(sequence) }
        DisposeAUGraph(graph)
    }

    private static func unit(_ graph: AUGraph, _ node: AUNode) throws -> AudioUnit {
        var u: AudioUnit?
        try AudioError.check(AUGraphNodeInfo(graph, node, nil, &u), "AUGraphNodeInfo")
        return u!
    }

    /// The seconds until the longest track (tempo track included) ends.
    var seconds: Double { GraphMIDI.length(of: sequence!) }

    /// Renders `frames` frames through the generic output head into `output`. Thread: setup.
    func render(frames total: Int, block: UInt32, to output: String) throws {
        let type = RenderCommand.fileType(output)!
        let staged = try StagedOutput(output)
        let file = try ExtendedAudioFile.create(
            path: staged.temporary, type: type,
            fileFormat: AudioFileDataFormat(
                sampleRate: sampleRate, channelCount: channels, encoding: RenderCommand.encoding(for: type, input: nil)))
        try file.setClientFormat(.canonical(sampleRate: sampleRate, channels: UInt32(channels)))
        let buffers = AudioBufferStorage(format: .canonical(sampleRate: sampleRate, channels: UInt32(channels)), capacity: block)
        let headUnit = try Self.unit(graph, head)
        var time = AudioTimeStamp()
        time.mFlags = .sampleTimeValid
        try AudioError.check(MusicPlayerStart(player!), LastErrorMessage.current ?? "MusicPlayerStart failed.")
        let progress = ProgressBar(total: total)
        var done = 0
        while done < total {
            let n = UInt32(min(Int(block), total - done))
            buffers.prepare(frames: n)
            var flags: AudioUnitRenderActionFlags = []
            try AudioError.check(
                AudioUnitRender(headUnit, &flags, &time, 0, n, buffers.list),
                LastErrorMessage.current ?? "\(instrumentName) failed to render at frame \(done).")
            try file.write(from: buffers.list, frames: Int(n))
            time.mSampleTime += Double(n)
            done += Int(n)
            progress.update(done)
        }
        MusicPlayerStop(player!)
        try file.dispose()
        try staged.commit()
        reportClipping(of: file, writtenTo: staged.target)
        progress.finish()
    }

    /// Plays on the device until `seconds` have passed on the sequence's timeline, or Ctrl-C.
    /// Thread: setup.
    func play(seconds: Double) throws {
        let interrupt = Interrupt()
        try AudioError.check(MusicPlayerStart(player!), LastErrorMessage.current ?? "MusicPlayerStart failed.")
        var elapsed = 0.0
        while elapsed < seconds && !interrupt.happened {
            usleep(10_000)
            var beat: MusicTimeStamp = 0
            MusicPlayerGetTime(player!, &beat)
            MusicSequenceGetSecondsForBeats(sequence!, beat, &elapsed)
            var running: DarwinBoolean = false
            AUGraphIsRunning(graph, &running)
            guard running.boolValue else { throw AudioError(kAudioUnitErr_NoConnection, "The device stopped; check that it still exists.") }
        }
        MusicPlayerStop(player!)
        usleep(50_000)  // the note-offs go out in the next cycle
        AUGraphStop(graph)
    }
}
