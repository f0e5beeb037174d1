import AUHost
import CAUHostAtomics
import ExtAudioFile
import AudioFiles
import Foundation
import GraphFileFormat

// A graph file's voice-processing head (docs/GRAPH-FILES.md): the voice-processing I/O unit plays
// the graph (the echo reference) and its processed microphone is recorded, as `auhost capture`
// records (CaptureState, captureInputCallback), into the file "voiceProcessing" names.

extension BuiltGraph {
    /// Input on, the microphone's format (the graph's rate, its output's channel count, at most 2)
    /// and gain control. Thread: setup (before the graph initializes).
    func configureVoiceProcessing(_ headUnit: AudioUnit, _ voice: GraphFile.VoiceProcessingHead) throws {
        var on: UInt32 = 1
        var agc: UInt32 = voice.gainControl ? 1 : 0
        var microphone = AudioStreamBasicDescription.canonical(sampleRate: file.sampleRate, channels: UInt32(min(outputChannels, 2)))
        for (status, what) in [
            (AudioUnitSetProperty(headUnit, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Input, 1, &on, 4), "enabling input"),
            (
                AudioUnitSetProperty(headUnit, kAUVoiceIOProperty_VoiceProcessingEnableAGC, kAudioUnitScope_Global, 0, &agc, 4),
                "setting gain control"
            ),
            (
                AudioUnitSetProperty(
                    headUnit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 1, &microphone,
                    UInt32(MemoryLayout<AudioStreamBasicDescription>.size)), "setting the microphone's format"
            ),
        ] where status != noErr {
            throw file.error(
                file.headLine, "the voice-processing unit refused \(what): \(LastErrorMessage.current ?? "status \(status)").",
                status: status)
        }
    }
}

/// Records the voice-processing head's microphone while the graph plays.
final class GraphVoiceRecorder {
    let output: String
    let staged: StagedOutput
    let file: ExtAudioFileRef
    let state: UnsafeMutablePointer<CaptureState>
    let capture: AudioBufferStorage
    let processed: AudioBufferStorage
    let rate: Double

    /// Creates the file and installs the input callback on `headUnit`, which records the first
    /// `frames` captured frames (as many as the graph plays). Thread: setup.
    init(headUnit: AudioUnit, record output: String, rate: Double, frames: Int) throws {
        var format = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        try AudioError.check(
            AudioUnitGetProperty(headUnit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 1, &format, &size),
            "Reading the microphone's format failed.")
        self.output = output
        self.rate = rate
        let type = RenderCommand.fileType(output)!
        var fileFormat = AudioFileDataFormat(
            sampleRate: format.mSampleRate, channelCount: Int(format.mChannelsPerFrame),
            encoding: RenderCommand.encoding(for: type, input: nil)
        )
        .streamDescription(type: type)
        staged = try StagedOutput(output, keepOnSignal: true)
        var created: ExtAudioFileRef?
        try AudioError.check(
            ExtAudioFileCreateWithPath(staged.temporary, type.fileTypeID, &fileFormat, nil, AudioFileFlags.eraseFile.rawValue, &created),
            "Cannot create \(output): \(LastErrorMessage.current ?? "no reason given")")
        file = created!
        var client = format
        try AudioError.check(
            ExtAudioFileSetProperty(
                file, kExtAudioFileProperty_ClientDataFormat, UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &client),
            "The file refused the client format.")
        try AudioError.check(ExtAudioFileWriteAsync(file, 0, nil), "Priming the asynchronous writer failed.")
        capture = AudioBufferStorage(format: format, capacity: 8192)
        processed = AudioBufferStorage(format: format, capacity: 8192)
        state = .allocate(capacity: 1)
        state.initialize(
            to: CaptureState(
                io: headUnit, last: nil, capture: capture.list, processed: processed.list, file: file, target: UInt64(frames), written: 0,
                status: noErr))
        var callback = AURenderCallbackStruct(inputProc: captureInputCallback, inputProcRefCon: UnsafeMutableRawPointer(state))
        try AudioError.check(
            AudioUnitSetProperty(
                headUnit, kAudioOutputUnitProperty_SetInputCallback, kAudioUnitScope_Global, 0, &callback,
                UInt32(MemoryLayout<AURenderCallbackStruct>.size)), "Setting the input callback failed.")
    }

    /// Frames written so far. Thread: any.
    var recordedFrames: Int { Int(auhost_atomic_load_u64(&state.pointee.written)) }

    /// Finishes the file (the graph has stopped) and says what was recorded. Thread: setup.
    func finish() throws -> String {
        let written = auhost_atomic_load_u64(&state.pointee.written)
        let status = auhost_atomic_load_i32(&state.pointee.status)
        defer { state.deallocate() }
        try AudioError.check(ExtAudioFileDispose(file), "Finishing \(output) failed.")
        try staged.commit()
        if status != noErr {
            throw AudioError(
                status, "Recording the microphone stopped after \(written) frames (status \(status)); \(output) holds what was written.")
        }
        return "recorded \(written) frames of the processed microphone into \(output)"
    }
}
