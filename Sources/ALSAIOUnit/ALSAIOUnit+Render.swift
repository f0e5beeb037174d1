import ALSADevice
import AUHostCore
import DSPKernels
import Glibc

// Everything the device thread runs for the unit, in one file so that the compiler's real-time
// checks (@_noAllocation @_noLocks) see every body. Per period the stream calls `ioCaptured`
// (full duplex or input only) and then `ioRenderPlayback` (output enabled). The app's callbacks,
// AudioUnitRender of upstream units and the render notifications are render-thread code by
// contract; the calls into them are wrapped in _unsafePerformance for that reason.

/// The device thread's view of the unit, allocated with the unit and reconfigured at initialize.
struct IOContext {
    let state: UnsafeMutablePointer<RenderState>
    /// The app's input callback, copied at start.
    var inputProc: AURenderCallback?
    var inputRefCon: UnsafeMutableRawPointer?
    /// The time stamp and flags handed to callbacks this period.
    let timeStamp: UnsafeMutablePointer<AudioTimeStamp>
    let flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>
    /// The period just captured (canonical floats, one buffer per device channel), valid while
    /// the device thread runs.
    var captured: UnsafeMutablePointer<AudioBufferList>?
    var capturedFrames: UInt32 = 0
    /// App-side formats: input scope element 0 (decoded into the device's floats) and output
    /// scope element 1 (encoded from the captured floats).
    var playbackConverter: SampleFormatConverter
    var captureConverter: SampleFormatConverter
    var appPlaybackChannels = 0
    var appCaptureChannels = 0
    /// Per-channel pointers for the converters (capacity `pointerCapacity`).
    var writePointers: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    var readPointers: UnsafeMutablePointer<UnsafePointer<Float>>
    var pointerCapacity = 0
    /// A sink for app channels the device lacks, and zeros for device channels the app lacks.
    var scratch: UnsafeMutablePointer<Float>
    var zeros: UnsafeMutablePointer<Float>
    /// Playback when the app's rate differs from the device's: app format → device floats at the
    /// device rate (nil when the rates agree), and the app side's own clock (app-rate frames).
    var playbackKernel: UnsafeMutablePointer<ConverterKernel>?
    let appPlaybackTime: UnsafeMutablePointer<AudioTimeStamp>
    /// Capture when the device's rate differs from the output scope of element 1's: device floats
    /// → the app's format (input only; nil when the rates agree), and the app side's clock.
    var captureKernel: UnsafeMutablePointer<ConverterKernel>?
    let appCaptureTime: UnsafeMutablePointer<AudioTimeStamp>
    /// MaximumFramesPerSlice: the most frames one input callback is offered.
    var maxFrames = 1
    /// The voice-processing unit's state (nil for the plain I/O unit): the captured period is
    /// processed before anyone reads it, each rendered period is its echo reference.
    var voice: UnsafeMutablePointer<VoiceIOContext>?

    /// Thread: setup.
    init(state: UnsafeMutablePointer<RenderState>) {
        self.state = state
        timeStamp = .allocate(capacity: 1)
        timeStamp.initialize(to: AudioTimeStamp())
        flags = .allocate(capacity: 1)
        flags.initialize(to: AudioUnitRenderActionFlags(rawValue: 0))
        let canonical = SampleFormatConverter(format: SampleFormat(encoding: .float32, channelCount: 2, isInterleaved: false))
        playbackConverter = canonical
        captureConverter = canonical
        writePointers = .allocate(capacity: 1)
        readPointers = .allocate(capacity: 1)
        scratch = .allocate(capacity: 1)
        zeros = .allocate(capacity: 1)
        appPlaybackTime = .allocate(capacity: 1)
        appPlaybackTime.initialize(to: AudioTimeStamp())
        appCaptureTime = .allocate(capacity: 1)
        appCaptureTime.initialize(to: AudioTimeStamp())
    }

    /// Sets the converters and sizes the scratch memory for an initialized unit; the kernels are
    /// the rate converters of each direction when the device runs at another rate than the app
    /// side (taken over; nil when the rates agree).
    /// Thread: setup (the device thread is not running).
    mutating func configure(
        playbackFormat: AudioStreamBasicDescription, captureFormat: AudioStreamBasicDescription,
        devicePlaybackChannels: Int, deviceCaptureChannels: Int, maxFrames: Int,
        playbackKernel: UnsafeMutablePointer<ConverterKernel>?,
        captureKernel: UnsafeMutablePointer<ConverterKernel>?
    ) {
        releaseScratch()
        self.playbackKernel = playbackKernel
        self.captureKernel = captureKernel
        self.maxFrames = max(maxFrames, 1)
        appPlaybackTime.pointee = AudioTimeStamp()
        appPlaybackTime.pointee.mFlags = .sampleTimeValid
        appCaptureTime.pointee = AudioTimeStamp()
        appCaptureTime.pointee.mFlags = .sampleTimeValid
        // Both formats passed accepts(), so they convert.
        playbackConverter = (try? SampleFormatConverter(streamDescription: playbackFormat)) ?? playbackConverter
        captureConverter = (try? SampleFormatConverter(streamDescription: captureFormat)) ?? captureConverter
        appPlaybackChannels = Int(playbackFormat.mChannelsPerFrame)
        appCaptureChannels = Int(captureFormat.mChannelsPerFrame)
        pointerCapacity = max(appPlaybackChannels, appCaptureChannels, devicePlaybackChannels, deviceCaptureChannels, 1)
        writePointers = .allocate(capacity: pointerCapacity)
        readPointers = .allocate(capacity: pointerCapacity)
        scratch = .allocate(capacity: max(maxFrames, 1))
        zeros = .allocate(capacity: max(maxFrames, 1))
        zeros.initialize(repeating: 0, count: max(maxFrames, 1))
        captured = nil
    }

    /// Frees the rate converters. Thread: setup (the device thread is not running).
    mutating func releaseKernel() {
        playbackKernel?.deinitialize(count: 1)
        playbackKernel?.deallocate()
        playbackKernel = nil
        captureKernel?.deinitialize(count: 1)
        captureKernel?.deallocate()
        captureKernel = nil
    }

    private func releaseScratch() {
        writePointers.deallocate()
        readPointers.deallocate()
        scratch.deallocate()
        zeros.deallocate()
    }

    /// Frees everything. Thread: setup (the unit is going away).
    mutating func release() {
        releaseKernel()
        releaseScratch()
        appPlaybackTime.deallocate()
        appCaptureTime.deallocate()
        timeStamp.deallocate()
        flags.deallocate()
    }
}

/// Fills the period's time stamp: sample time from the stream, host time in nanoseconds.
@_noAllocation @_noLocks
func stamp(_ io: UnsafeMutablePointer<IOContext>, _ sampleTime: Int64) {
    var now = timespec()
    // clock_gettime(CLOCK_MONOTONIC) is a vDSO read: no allocation, no lock.
    _unsafePerformance { _ = clock_gettime(CLOCK_MONOTONIC, &now) }
    let ts = io.pointee.timeStamp
    ts.pointee.mSampleTime = Double(sampleTime)
    ts.pointee.mHostTime = UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec)
    ts.pointee.mFlags = AudioTimeStampFlags(
        rawValue: AudioTimeStampFlags.sampleTimeValid.rawValue | AudioTimeStampFlags.hostTimeValid.rawValue)
}

/// The stream's input function: keeps the captured period for AudioUnitRender on element 1 and
/// tells the app (ioData NULL, as the hosting guide documents).
let ioCaptured: PCMRenderFunction = { context, sampleTime, frames, buffers in
    guard let context else { return kAudio_ParamError }
    let io = context.assumingMemoryBound(to: IOContext.self)
    if let voice = io.pointee.voice { voiceCaptured(voice, buffers, frames) }
    return capturedPeriod(io, sampleTime, frames, buffers)
}

@_noAllocation @_noLocks
func capturedPeriod(
    _ io: UnsafeMutablePointer<IOContext>, _ sampleTime: Int64, _ frames: UInt32,
    _ buffers: UnsafeMutablePointer<AudioBufferList>
) -> OSStatus {
    io.pointee.captured = buffers
    io.pointee.capturedFrames = frames
    stamp(io, sampleTime)
    if let kernel = io.pointee.captureKernel { return resampleCapture(io, kernel, frames, buffers) }
    guard let proc = io.pointee.inputProc else { return noErr }
    let flags = io.pointee.flags
    flags.pointee = AudioUnitRenderActionFlags(rawValue: 0)
    let refCon = io.pointee.inputRefCon
    let timeStamp = io.pointee.timeStamp
    var status: OSStatus = noErr
    // The app's input callback is render-thread code by contract.
    _unsafePerformance { status = renderCallbackCall(proc)(refCon, flags, timeStamp, 1, frames, nil) }
    if status != noErr { io.pointee.state.pointee.lastRenderError = status }
    return status
}

/// The stream's render function: pulls input element 0 (render callback or connection) in the
/// app's format, with render notifications, and converts it into the device's float channels.
let ioRenderPlayback: PCMRenderFunction = { context, sampleTime, frames, buffers in
    guard let context else { return kAudio_ParamError }
    let io = context.assumingMemoryBound(to: IOContext.self)
    let status = renderPlayback(io, sampleTime, frames, buffers)
    if let voice = io.pointee.voice { voicePlayed(voice, buffers, frames) }
    return status
}

@_noAllocation @_noLocks
func renderPlayback(
    _ io: UnsafeMutablePointer<IOContext>, _ sampleTime: Int64, _ frames: UInt32,
    _ buffers: UnsafeMutablePointer<AudioBufferList>
) -> OSStatus {
    // One section for the whole period: the source, notifications and bypass stay as they were
    // when it began, whatever setup threads publish meanwhile.
    let s = io.pointee.state
    let section = s.pointee.enterRender()
    let status = renderPlaybackPeriod(io, sampleTime, frames, buffers)
    s.pointee.leaveRender(section)
    return status
}

@_noAllocation @_noLocks
private func renderPlaybackPeriod(
    _ io: UnsafeMutablePointer<IOContext>, _ sampleTime: Int64, _ frames: UInt32,
    _ buffers: UnsafeMutablePointer<AudioBufferList>
) -> OSStatus {
    let s = io.pointee.state
    let deviceBuffers = audioBuffers(buffers)
    let deviceChannels = min(Int(buffers.pointee.mNumberBuffers), io.pointee.pointerCapacity)
    if io.pointee.captured == nil { stamp(io, sampleTime) }
    guard s.pointee.inputHasSource(0), let list = s.pointee.inputs[0].buffers.list else {
        // Nothing to pull: the device plays silence, as an output unit without a source does.
        for c in 0..<deviceChannels {
            if let data = deviceBuffers[c].mData { data.initializeMemory(as: UInt8.self, repeating: 0, count: Int(frames) * 4) }
        }
        return noErr
    }
    let flags = io.pointee.flags
    let timeStamp = UnsafePointer(io.pointee.timeStamp)
    flags.pointee = AudioUnitRenderActionFlags(rawValue: 0)
    s.pointee.notify(.unitRenderAction_PreRender, flags, timeStamp, 0, frames, list)
    if let kernel = io.pointee.playbackKernel {
        let status = resamplePlayback(io, kernel, frames, buffers)
        let post =
            status == noErr
            ? AudioUnitRenderActionFlags.unitRenderAction_PostRender
            : AudioUnitRenderActionFlags.unitRenderAction_PostRender.union(.unitRenderAction_PostRenderError)
        s.pointee.notify(post, flags, timeStamp, 0, frames, list)
        return status
    }
    let status = s.pointee.pullInput(0, flags, timeStamp, frames)
    if status == noErr {
        let app = io.pointee.appPlaybackChannels
        let pointers = io.pointee.writePointers
        for c in 0..<app {
            let data = c < deviceChannels ? deviceBuffers[c].mData : nil
            pointers[c] = data?.assumingMemoryBound(to: Float.self) ?? io.pointee.scratch
        }
        io.pointee.playbackConverter.decode(from: list, to: pointers, frameCount: Int(frames))
        var c = app
        while c < deviceChannels {
            deviceBuffers[c].mData?.initializeMemory(as: UInt8.self, repeating: 0, count: Int(frames) * 4)
            c += 1
        }
    } else {
        s.pointee.lastRenderError = status
    }
    let post =
        status == noErr
        ? AudioUnitRenderActionFlags.unitRenderAction_PostRender
        : AudioUnitRenderActionFlags.unitRenderAction_PostRender.union(.unitRenderAction_PostRenderError)
    s.pointee.notify(post, flags, timeStamp, 0, frames, list)
    return status
}

/// Playback at another rate than the app's: pulls input element 0 in app-rate frames (at most
/// MaximumFramesPerSlice per pull, stamped with the app side's own clock) as the converter's FIFO
/// needs, and emits one device period of device-rate floats. A failed pull plays silence for the
/// period and is reported as the render error.
@_noAllocation @_noLocks
func resamplePlayback(
    _ io: UnsafeMutablePointer<IOContext>, _ kernel: UnsafeMutablePointer<ConverterKernel>,
    _ frames: UInt32, _ buffers: UnsafeMutablePointer<AudioBufferList>
) -> OSStatus {
    let s = io.pointee.state
    let appTime = io.pointee.appPlaybackTime
    appTime.pointee.mHostTime = io.pointee.timeStamp.pointee.mHostTime
    appTime.pointee.mFlags = AudioTimeStampFlags(
        rawValue: AudioTimeStampFlags.sampleTimeValid.rawValue | AudioTimeStampFlags.hostTimeValid.rawValue)
    var status: OSStatus = noErr
    var attempts = 0
    while kernel.pointee.fifoCount < Int(frames) && attempts < 64 {
        attempts += 1
        if kernel.pointee.pendingFrames > 0 && kernel.pointee.drainPending() { continue }
        let need = kernel.pointee.inputFramesNeeded(outputFrames: Int(frames))
        if need == 0 { break }
        status = s.pointee.pullInput(0, io.pointee.flags, UnsafePointer(appTime), UInt32(need))
        guard status == noErr, let list = s.pointee.inputs[0].buffers.list else { break }
        appTime.pointee.mSampleTime += Double(need)
        kernel.pointee.consume(list, frames: need)
    }
    if status != noErr { s.pointee.lastRenderError = status }
    kernel.pointee.emit(into: buffers, frames: Int(frames))
    return status
}

/// Capture at another rate than the app's: converts the period into the converter's FIFO, then
/// offers what it holds to the input callback in chunks of at most MaximumFramesPerSlice frames
/// (inNumberFrames varies per call, as with a converting RemoteIO; the time stamp counts app-rate
/// frames). Converted frames the app did not render in their callback are dropped, as an unread
/// period is.
@_noAllocation @_noLocks
func resampleCapture(
    _ io: UnsafeMutablePointer<IOContext>, _ kernel: UnsafeMutablePointer<ConverterKernel>,
    _ frames: UInt32, _ buffers: UnsafeMutablePointer<AudioBufferList>
) -> OSStatus {
    kernel.pointee.consume(UnsafePointer(buffers), frames: Int(frames))
    guard let proc = io.pointee.inputProc else {
        kernel.pointee.discard(kernel.pointee.fifoCount)
        return noErr
    }
    let appTime = io.pointee.appCaptureTime
    appTime.pointee.mHostTime = io.pointee.timeStamp.pointee.mHostTime
    appTime.pointee.mFlags = AudioTimeStampFlags(
        rawValue: AudioTimeStampFlags.sampleTimeValid.rawValue | AudioTimeStampFlags.hostTimeValid.rawValue)
    let flags = io.pointee.flags
    let refCon = io.pointee.inputRefCon
    var status: OSStatus = noErr
    var calls = 0
    while kernel.pointee.fifoCount > 0 && calls < 64 {
        calls += 1
        let chunk = min(kernel.pointee.fifoCount, io.pointee.maxFrames)
        io.pointee.capturedFrames = UInt32(chunk)
        let before = kernel.pointee.fifoCount
        flags.pointee = AudioUnitRenderActionFlags(rawValue: 0)
        // The app's input callback is render-thread code by contract.
        _unsafePerformance { status = renderCallbackCall(proc)(refCon, flags, UnsafePointer(appTime), 1, UInt32(chunk), nil) }
        let taken = before - kernel.pointee.fifoCount
        if taken < chunk { kernel.pointee.discard(chunk - taken) }
        appTime.pointee.mSampleTime += Double(chunk)
        if status != noErr {
            io.pointee.state.pointee.lastRenderError = status
            break
        }
    }
    // Whatever is left (a failing callback, or more than 64 chunks) is dropped.
    kernel.pointee.discard(kernel.pointee.fifoCount)
    return status
}

/// Converts the captured period into `output` (the app's format of output element 1): app
/// channel c gets device channel c, or silence where the device has fewer channels.
/// Thread: render.
@_noAllocation @_noLocks
func renderCaptured(
    _ io: UnsafeMutablePointer<IOContext>, _ frames: UInt32,
    _ output: UnsafeMutablePointer<AudioBufferList>
) -> OSStatus {
    guard let captured = io.pointee.captured else { return kAudioUnitErr_CannotDoInCurrentContext }
    guard frames <= io.pointee.capturedFrames else { return kAudio_ParamError }
    if let kernel = io.pointee.captureKernel {
        kernel.pointee.emit(into: output, frames: Int(frames))
        return noErr
    }
    let deviceBuffers = audioBuffers(captured)
    let deviceChannels = Int(captured.pointee.mNumberBuffers)
    let pointers = io.pointee.readPointers
    for c in 0..<io.pointee.appCaptureChannels {
        let data = c < deviceChannels ? deviceBuffers[c].mData : nil
        pointers[c] = UnsafePointer(data?.assumingMemoryBound(to: Float.self) ?? io.pointee.zeros)
    }
    io.pointee.captureConverter.encode(from: pointers, to: output, frameCount: Int(frames))
    return noErr
}
