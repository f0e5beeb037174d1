import AUHostCore
import DSPKernels

/// What a unit that converts between its input element 0 and output element 0 owns while
/// initialized: the converter pipeline (ConverterKernel) and the input side's own clock. Shared
/// by the format converter and the output units (generic output), which convert the same way.
///
/// Pull model: the unit is pulled for output-rate frames; the stage pulls its input in input-rate
/// frames, never more than MaximumFramesPerSlice per pull (the kernel's `maximumInputFrames`), as
/// often as its FIFO of converted frames needs. When the rates differ the input pulls carry the
/// stage's own time stamps, which count input frames, so every pull has a new sample time.
struct ConversionStage {
    let kernel: UnsafeMutablePointer<ConverterKernel>
    let inputTime: UnsafeMutablePointer<AudioTimeStamp>
    /// The resampler's constant delay in seconds (its prerolled filter delay); 0 without one.
    let latency: Double

    /// Builds the pipeline for fixed formats. Throws an AudioError naming the cause (DSP kernel
    /// refusals keep their status: -10868 for a format the sample-format converter cannot take or
    /// rates more than ConverterKernel.maximumRateRatio apart, -50 for out-of-range sizes).
    ///
    /// Thread: setup.
    init(
        input: AudioStreamBasicDescription, output: AudioStreamBasicDescription, map: [Int],
        maximumFrames: Int, quality: SampleRateConverter.Quality
    ) throws {
        let k = UnsafeMutablePointer<ConverterKernel>.allocate(capacity: 1)
        do {
            k.initialize(
                to: try ConverterKernel(
                    input: input, output: output, map: map,
                    maximumFrames: maximumFrames, quality: quality))
        } catch let error as DSPKernelError {
            k.deallocate()
            throw AudioError(error.status, error.message)
        } catch {
            k.deallocate()
            throw error
        }
        kernel = k
        latency = Double(k.pointee.prerollFrames) / output.mSampleRate
        inputTime = .allocate(capacity: 1)
        inputTime.initialize(to: AudioTimeStamp())
        inputTime.pointee.mFlags = .sampleTimeValid
    }

    /// Frees the pipeline. Thread: setup (no render call is running).
    func release() {
        kernel.deinitialize(count: 1)
        kernel.deallocate()
        inputTime.deallocate()
    }

    /// The default channel map of Apple's converter for `inputs` → `outputs` channels: output i
    /// takes input i and outputs past the last input are silent (AudioConverter.h,
    /// kAudioConverterChannelMap), except that a mono input feeds every output (mono → stereo
    /// duplicates, as Apple's converters do when the output is stereo). So stereo → mono keeps
    /// the first (left) channel; nothing is mixed down.
    ///
    /// Thread: any.
    static func defaultMap(inputs: Int, outputs: Int) -> [Int] {
        (0..<outputs).map { inputs == 1 ? 0 : ($0 < inputs ? $0 : -1) }
    }
}

extension AUBase {
    /// Renders `frames` converted frames of input element 0 into `output` through `stage`.
    /// Without rate conversion the input is pulled with the caller's time stamp (so an upstream
    /// unit feeding several consumers serves them all from its per-time-stamp cache); with it,
    /// with the stage's input clock. Frames the input could not supply (a resampler that stopped
    /// taking input) come out as silence.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    func renderConverted(
        _ stage: ConversionStage, _ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>,
        _ timeStamp: UnsafePointer<AudioTimeStamp>, _ frames: UInt32,
        _ output: UnsafeMutablePointer<AudioBufferList>
    ) -> OSStatus {
        let kernel = stage.kernel
        let resampling = kernel.pointee.resampler != nil
        var attempts = 0
        while kernel.pointee.fifoCount < Int(frames) && attempts < 64 {
            attempts += 1
            if kernel.pointee.pendingFrames > 0 && kernel.pointee.drainPending() { continue }
            let need = kernel.pointee.inputFramesNeeded(outputFrames: Int(frames))
            if need == 0 { break }
            let stamp = resampling ? UnsafePointer(stage.inputTime) : timeStamp
            let status = pullInput(0, flags, stamp, UInt32(need))
            guard status == noErr, let list = inputList(0) else { return status == noErr ? kAudioUnitErr_NoConnection : status }
            if resampling { stage.inputTime.pointee.mSampleTime += Double(need) }
            kernel.pointee.consume(list, frames: need)
        }
        kernel.pointee.emit(into: output, frames: Int(frames))
        return noErr
    }
}
