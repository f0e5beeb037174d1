import ArgumentParser
import AudioFiles
import ExtAudioFile
import AUHost
import JACKIOUnit
import CAUHostAtomics
import Foundation

/// `auhost capture -o FILE [UNIT …]`: the AVCaptureToAudioUnit flow on Linux — the ALSA I/O
/// unit's input element, through the units in order, into ExtAudioFileWriteAsync. Stops after
/// `--duration` seconds of captured audio or at Ctrl-C; either way the file is finished (the async
/// writer drains on dispose). `--voice-processing` records through the voice-processing I/O unit
/// instead (CaptureCommand+VoiceProcessing.swift).
struct CaptureCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "capture", abstract: "Record from an ALSA device or JACK, optionally through units, into a file.")

    @Option(name: .shortAndLong, help: "Output file; its extension picks the type: wav, aif(f), caf, flac, ogg.")
    var output: String

    @Argument(help: "Units to process the input with, in order (triple, LV2 URI or unique name).")
    var units: [String] = []

    @Option(help: "ALSA PCM name.")
    var device = "default"

    @Option(help: "Seconds of audio to record (default: until Ctrl-C).")
    var duration: Double?

    @Option(help: "Sample rate asked of the device.")
    var rate: Double = 48_000

    @Flag(help: "Record from JACK: the JACK I/O unit's ports in_1…, connected to the system's capture ports, at the server's rate.")
    var jack = false

    @Option(help: "Channels to record.")
    var channels: UInt32 = 2

    @OptionGroup(title: "Voice processing")
    var voice: VoiceCaptureOptions

    func validate() throws {
        guard RenderCommand.fileType(output) != nil else {
            throw ValidationError("Cannot tell the output type from \"\(output)\"; end it in .wav, .aiff, .caf, .flac or .ogg.")
        }
        if let duration, !(duration > 0 && duration <= 86_400) {
            throw ValidationError("--duration must be more than 0 and at most a day, not \(duration).")
        }
        guard (8_000...384_000).contains(rate) else { throw ValidationError("--rate must be 8000…384000 Hz, not \(rate).") }
        guard (1...32).contains(channels) else { throw ValidationError("--channels must be 1…32, not \(channels).") }
        try voice.validate(rate: rate, channels: channels)
        if jack && voice.enabled { throw ValidationError("--voice-processing runs on the ALSA I/O unit; JACK records plain input.") }
    }

    func run() throws {
        // A JACK client runs at its server's rate.
        let rate = jack ? try JACKIOUnit.serverSampleRate() : self.rate
        let device = jack ? "jack" : self.device
        let format = AudioStreamBasicDescription.canonical(sampleRate: rate, channels: channels)
        let maxFrames: UInt32 = 4096
        let io = try AudioUnitInstance(jack ? JACKIOUnit.identity : voice.ioDescription)
        if !jack { try voice.configure(io) }
        var on: UInt32 = 1, off: UInt32 = 0
        try AudioError.check(
            AudioUnitSetProperty(io.handle, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Input, 1, &on, 4), "Enabling input failed.")
        try AudioError.check(
            AudioUnitSetProperty(io.handle, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Output, 0, &off, 4),
            "Disabling output failed.")
        if !jack {
            try AudioError.check(setCurrentDevice(io.handle, device), LastErrorMessage.current ?? "Device \"\(device)\" refused.")
            var preferred = rate
            AudioUnitSetProperty(io.handle, kAUHostALSAProperty_PreferredSampleRate, kAudioUnitScope_Global, 0, &preferred, 8)
        }
        try io.setStreamFormat(format, scope: kAudioUnitScope_Output, element: 1)

        // The chain: the first unit pulls the captured period, each next one pulls the one before.
        let capture = AudioBufferStorage(format: format, capacity: maxFrames)
        let processed = AudioBufferStorage(format: format, capacity: maxFrames)
        var chain: [AudioUnitInstance] = []
        for text in units {
            let unit = try AudioUnitInstance(try UnitLookup.component(text))
            try unit.setMaximumFramesPerSlice(maxFrames)
            for scope in [kAudioUnitScope_Input, kAudioUnitScope_Output] {
                do { try unit.setStreamFormat(format, scope: scope) } catch let e as AudioError {
                    throw AudioError(e.status, "\(unit.component.name) does not take \(channels) channels at \(Int(rate)) Hz: \(e.message)")
                }
            }
            if let previous = chain.last {
                try unit.connectInput(0, from: previous)
            } else {
                try unit.setRenderCallback(bus: 0, capturedInputCallback, refCon: UnsafeMutableRawPointer(capture.list))
            }
            try unit.initialize()
            chain.append(unit)
        }

        let type = RenderCommand.fileType(output)!
        var fileFormat = AudioFileDataFormat(
            sampleRate: rate, channelCount: Int(channels), encoding: RenderCommand.encoding(for: type, input: nil)
        )
        .streamDescription(type: type)
        var created: ExtAudioFileRef?
        // Recorded beside the target and renamed when the recording ends, so a capture that
        // cannot start leaves a file that stood there as it was. The header is kept current, so
        // a recording stopped by SIGTERM or SIGHUP is put in place as it stands.
        let staged = try StagedOutput(output, keepOnSignal: true)
        try AudioError.check(
            ExtAudioFileCreateWithPath(staged.temporary, type.fileTypeID, &fileFormat, nil, AudioFileFlags.eraseFile.rawValue, &created),
            "Cannot create \(output): \(LastErrorMessage.current ?? "no reason given")")
        let file = created!
        var client = format
        try AudioError.check(
            ExtAudioFileSetProperty(
                file, kExtAudioFileProperty_ClientDataFormat, UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &client),
            "The file refused the client format.")
        try AudioError.check(ExtAudioFileWriteAsync(file, 0, nil), "Priming the asynchronous writer failed.")

        let state = UnsafeMutablePointer<CaptureState>.allocate(capacity: 1)
        state.initialize(
            to: CaptureState(
                io: io.handle, last: chain.last?.handle, capture: capture.list, processed: processed.list, file: file,
                target: duration.map { UInt64(($0 * rate).rounded()) } ?? .max, written: 0, status: noErr))
        defer { state.deallocate() }
        var callback = AURenderCallbackStruct(inputProc: captureInputCallback, inputProcRefCon: UnsafeMutableRawPointer(state))
        try AudioError.check(
            AudioUnitSetProperty(
                io.handle, kAudioOutputUnitProperty_SetInputCallback, kAudioUnitScope_Global, 0, &callback,
                UInt32(MemoryLayout<AURenderCallbackStruct>.size)), "Setting the input callback failed.")
        try io.initialize()
        let interrupt = Interrupt()
        try AudioError.check(AudioOutputUnitStart(io.handle), LastErrorMessage.current ?? "Starting capture on \(device) failed.")
        print("Recording from \(device) into \(output)\(duration == nil ? " (Ctrl-C stops)" : "")…")
        fflush(stdout)  // say so at once, also into a pipe
        var running: UInt32 = 1
        while auhost_atomic_load_u64(&state.pointee.written) < state.pointee.target && !interrupt.happened && running != 0
            && auhost_atomic_load_i32(&state.pointee.status) == noErr
        {
            usleep(2_000)
            var size: UInt32 = 4
            AudioUnitGetProperty(io.handle, kAudioOutputUnitProperty_IsRunning, kAudioUnitScope_Global, 0, &running, &size)
        }
        AudioOutputUnitStop(io.handle)
        let written = auhost_atomic_load_u64(&state.pointee.written)
        try AudioError.check(ExtAudioFileDispose(file), "Finishing \(output) failed.")
        try staged.commit()
        withExtendedLifetime((chain, capture, processed)) {}
        if state.pointee.status != noErr {
            throw AudioError(
                state.pointee.status,
                state.pointee.status == kExtAudioFileError_AsyncWriteBufferOverflow
                    ? "Capture stopped after \(written) frames: the file writer fell behind the device (its ring overflowed); \(output) holds what was written."
                    : "Capture stopped after \(written) frames: a unit refused a period; \(output) holds what was written.")
        }
        if running == 0 && !interrupt.happened && written < state.pointee.target {
            throw AudioError(
                kAudioUnitErr_NoConnection, "The device \(device) stopped after \(written) frames; \(output) holds what was captured.")
        }
        voice.report(io)
        print(
            "Recorded \(written) frames (\(channels) ch, \(Int(rate)) Hz) into \(output)\(interrupt.happened ? " (stopped by Ctrl-C)" : "")."
        )
    }
}

/// What the device thread needs, in plain memory.
struct CaptureState {
    var io: AudioUnit
    var last: AudioUnit?
    var capture: UnsafeMutablePointer<AudioBufferList>
    var processed: UnsafeMutablePointer<AudioBufferList>
    var file: ExtAudioFileRef
    var target: UInt64
    var written: UInt64
    var status: OSStatus
}

/// Once per captured period: render element 1 into `capture`, pull the chain into `processed`,
/// hand at most the frames still wanted to the async writer.
/// Thread: render — C calls and copies into memory allocated at setup.
let captureInputCallback: AURenderCallback = { refCon, flags, timeStamp, _, frames, _ in
    let state = refCon.assumingMemoryBound(to: CaptureState.self)
    let written = auhost_atomic_load_u64(&state.pointee.written)
    guard written < state.pointee.target, auhost_atomic_load_i32(&state.pointee.status) == noErr else { return noErr }
    for list in [state.pointee.capture, state.pointee.processed] {
        let buffers = UnsafeMutableAudioBufferListPointer(list)
        for i in 0..<buffers.count { buffers[i].mDataByteSize = frames * 4 }
    }
    var status = AudioUnitRender(state.pointee.io, flags, timeStamp, 1, frames, state.pointee.capture)
    var result = state.pointee.capture
    if status == noErr, let last = state.pointee.last {
        var chainFlags = AudioUnitRenderActionFlags(rawValue: 0)
        status = AudioUnitRender(last, &chainFlags, timeStamp, 0, frames, state.pointee.processed)
        result = state.pointee.processed
    }
    let count = UInt32(min(UInt64(frames), state.pointee.target - written))
    if status == noErr { status = ExtAudioFileWriteAsync(state.pointee.file, count, result) }
    if status != noErr { auhost_atomic_store_i32(&state.pointee.status, status); return status }
    auhost_atomic_store_u64(&state.pointee.written, written + UInt64(count))
    return noErr
}

/// The first unit's input: the period just captured (lent, not copied, when the unit asks with nil mData).
/// Thread: render.
let capturedInputCallback: AURenderCallback = { refCon, _, _, _, frames, ioData in
    guard let ioData else { return kAudio_ParamError }
    let captured = UnsafeMutableAudioBufferListPointer(refCon.assumingMemoryBound(to: AudioBufferList.self))
    let buffers = UnsafeMutableAudioBufferListPointer(ioData)
    for i in 0..<min(buffers.count, captured.count) {
        if let data = buffers[i].mData {
            data.copyMemory(from: captured[i].mData!, byteCount: Int(frames) * 4)
        } else {
            buffers[i].mData = captured[i].mData
        }
        buffers[i].mDataByteSize = frames * 4
    }
    return noErr
}
