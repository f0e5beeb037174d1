import AUHostCore
import DSPKernels
import Foundation

/// The multichannel mixer ('aumx' 'mcmx'): any number of input buses (ElementCount on the input
/// scope, default 8), each mono or stereo (1…8 channels) in its own canonical format at the
/// output's rate, summed into one output (1…8 channels). Input scope, per bus:
/// kMultiChannelMixerParam_Volume 0 (0…1 linear), Enable 1 (0/1), Pan 2 (−1…1, equal-power law
/// of DSPKernels.MixerKernel); output scope: Volume 0. With kAudioUnitProperty_MeteringMode on,
/// the read-only meters PreAveragePower 1000, PrePeakHoldLevel 2000, PostAveragePower 3000 and
/// PostPeakHoldLevel 4000 (dB, of the last render call) are kept per input bus and, for "post",
/// on the output (meters cover the last slice when events split a call). Parameter changes
/// (immediate, sample-offset, scheduled and ramped) apply at their frame. A bus with nothing connected (or whose pull answers kAudioUnitErr_NoConnection)
/// is silence.
public final class MultiChannelMixerUnit: AUBase {
    public static let identity = AudioComponentDescription(
        type: kAudioUnitType_Mixer, subType: kAudioUnitSubType_MultiChannelMixer,
        manufacturer: kAudioUnitManufacturer_AUHost)
    var kernel: UnsafeMutablePointer<MixerKernel>?
    /// Per input channel (bus after bus): the pointer handed to the kernel (nil = silent).
    var inputPointers: UnsafeMutablePointer<UnsafePointer<Float>?>?
    /// The same, advanced to the slice being mixed.
    var slicedInputs: UnsafeMutablePointer<UnsafePointer<Float>?>?
    let outputPointers = UnsafeMutablePointer<UnsafeMutablePointer<Float>>.allocate(capacity: 8)
    /// Per bus: volume, enable, pan, four meter slots; then output volume and its two meters.
    var busSlots: UnsafeMutablePointer<UnsafeMutablePointer<Float>>?
    var appliedPans: UnsafeMutablePointer<Float>?
    var busCount = 0
    /// First input channel of each bus, and the total after the last.
    var firstChannels: UnsafeMutablePointer<Int>?
    var metering = false

    /// Thread: setup.
    public init(_ description: AudioComponentDescription = MultiChannelMixerUnit.identity) {
        let meter: AudioUnitParameterOptions = [.flag_MeterReadOnly, .flag_DisplayLogarithmic]
        func meters(_ scope: AudioUnitScope, _ ids: [(AudioUnitParameterID, String)]) -> [ParameterDefinition] {
            ids.map {
                ParameterDefinition(
                    id: $0.0, name: $0.1, unit: kAudioUnitParameterUnit_Decibels, min: -120, max: 20,
                    default: -120, flags: meter, scope: scope)
            }
        }
        super.init(
            description: description, inputs: 8, outputs: 1,
            parameters: [
                ParameterDefinition(
                    id: kMultiChannelMixerParam_Volume, name: "Input Volume", unit: kAudioUnitParameterUnit_LinearGain,
                    min: 0, max: 1, default: 1, scope: kAudioUnitScope_Input),
                ParameterDefinition(
                    id: kMultiChannelMixerParam_Enable, name: "Enable", unit: kAudioUnitParameterUnit_Boolean,
                    min: 0, max: 1, default: 1, flags: [], scope: kAudioUnitScope_Input),
                ParameterDefinition(
                    id: kMultiChannelMixerParam_Pan, name: "Pan", unit: kAudioUnitParameterUnit_Pan,
                    min: -1, max: 1, default: 0, scope: kAudioUnitScope_Input),
                ParameterDefinition(
                    id: kMultiChannelMixerParam_Volume, name: "Output Volume", unit: kAudioUnitParameterUnit_LinearGain,
                    min: 0, max: 1, default: 1, scope: kAudioUnitScope_Output),
            ]
                + meters(
                    kAudioUnitScope_Input,
                    [
                        (kMultiChannelMixerParam_PreAveragePower, "Pre Average Power"),
                        (kMultiChannelMixerParam_PrePeakHoldLevel, "Pre Peak Hold Level"),
                        (kMultiChannelMixerParam_PostAveragePower, "Post Average Power"),
                        (kMultiChannelMixerParam_PostPeakHoldLevel, "Post Peak Hold Level"),
                    ])
                + meters(
                    kAudioUnitScope_Output,
                    [
                        (kMultiChannelMixerParam_PostAveragePower, "Output Average Power"),
                        (kMultiChannelMixerParam_PostPeakHoldLevel, "Output Peak Hold Level"),
                    ]))
    }

    deinit { outputPointers.deallocate() }

    public override var canChangeElementCount: (input: Bool, output: Bool) { (true, false) }

    public override func accepts(format: AudioStreamBasicDescription, scope: AudioUnitScope, element: AudioUnitElement) -> Bool {
        super.accepts(format: format, scope: scope, element: element) && (1...8).contains(format.mChannelsPerFrame)
    }

    public override func customPropertyInfo(
        _ id: AudioUnitPropertyID, _ scope: AudioUnitScope,
        _ element: AudioUnitElement
    ) throws -> (size: UInt32, writable: Bool)? {
        id == kAudioUnitProperty_MeteringMode ? (4, true) : nil
    }

    public override func getCustomProperty(
        _ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
        _ data: UnsafeMutableRawPointer
    ) throws {
        data.storeBytes(of: UInt32(metering ? 1 : 0), as: UInt32.self)
    }

    public override func setCustomProperty(
        _ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
        _ data: UnsafeRawPointer, _ size: UInt32
    ) throws {
        metering = data.loadUnaligned(as: UInt32.self) != 0
        kernel?.pointee.isMeteringEnabled = metering
    }

    public override func allocateRenderResources() throws {
        let rate = outputFormats[0].mSampleRate
        for (i, f) in inputFormats.enumerated() where f.mSampleRate != rate {
            throw AudioError(
                kAudioUnitErr_FormatNotSupported,
                "Input bus \(i) runs at \(f.mSampleRate) Hz but the output at \(rate) Hz; set every bus to the output rate (or put a converter unit in front)."
            )
        }
        guard !inputFormats.isEmpty else {
            throw AudioError(
                kAudioUnitErr_FailedInitialization, "The mixer needs at least one input bus (ElementCount on the input scope).")
        }
        let counts = inputFormats.map { Int($0.mChannelsPerFrame) }
        let k = UnsafeMutablePointer<MixerKernel>.allocate(capacity: 1)
        do {
            k.initialize(to: try MixerKernel(busChannelCounts: counts, outputChannelCount: Int(outputFormats[0].mChannelsPerFrame)))
        } catch {
            k.deallocate()
            throw AudioError(kAudioUnitErr_FormatNotSupported, "\(error)")
        }
        k.pointee.isMeteringEnabled = metering
        kernel = k
        busCount = counts.count
        inputPointers = .allocate(capacity: counts.reduce(0, +))
        slicedInputs = .allocate(capacity: counts.reduce(0, +))
        firstChannels = .allocate(capacity: busCount + 1)
        var first = 0
        for (b, n) in counts.enumerated() { firstChannels![b] = first; first += n }
        firstChannels![busCount] = first
        let perBus = 7
        busSlots = .allocate(capacity: busCount * perBus + 3)
        let ids = [
            kMultiChannelMixerParam_Volume, kMultiChannelMixerParam_Enable, kMultiChannelMixerParam_Pan,
            kMultiChannelMixerParam_PreAveragePower, kMultiChannelMixerParam_PrePeakHoldLevel,
            kMultiChannelMixerParam_PostAveragePower, kMultiChannelMixerParam_PostPeakHoldLevel,
        ]
        for b in 0..<busCount {
            for (k, id) in ids.enumerated() { busSlots![b * perBus + k] = parameters.slot(id, kAudioUnitScope_Input, UInt32(b))! }
        }
        busSlots![busCount * perBus] = parameters.slot(kMultiChannelMixerParam_Volume, kAudioUnitScope_Output, 0)!
        busSlots![busCount * perBus + 1] = parameters.slot(kMultiChannelMixerParam_PostAveragePower, kAudioUnitScope_Output, 0)!
        busSlots![busCount * perBus + 2] = parameters.slot(kMultiChannelMixerParam_PostPeakHoldLevel, kAudioUnitScope_Output, 0)!
        appliedPans = .allocate(capacity: busCount)
        appliedPans!.initialize(repeating: 0, count: busCount)
    }

    public override func deallocateRenderResources() {
        kernel?.deinitialize(count: 1)
        kernel?.deallocate()
        inputPointers?.deallocate()
        slicedInputs?.deallocate()
        firstChannels?.deallocate()
        busSlots?.deallocate()
        appliedPans?.deallocate()
        kernel = nil; inputPointers = nil; slicedInputs = nil; firstChannels = nil; busSlots = nil; appliedPans = nil
    }

    /// Thread: render.
    @_noAllocation @_noLocks
    public override func renderBus(
        _ bus: UInt32, flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>,
        timeStamp: UnsafePointer<AudioTimeStamp>, frames: UInt32,
        output: UnsafeMutablePointer<AudioBufferList>
    ) -> OSStatus {
        guard let kernel, let inputPointers, let slicedInputs, let busSlots, let appliedPans, let firstChannels else {
            return kAudioUnitErr_Uninitialized
        }
        let perBus = 7, count = busCount
        for b in 0..<count {
            let status = pullInput(b, flags, timeStamp, frames)
            let first = firstChannels[b], channels = firstChannels[b + 1] - first
            if status == kAudioUnitErr_NoConnection {
                for c in 0..<channels { inputPointers[first + c] = nil }
                continue
            }
            guard status == noErr, let list = inputList(b) else { return status }
            let buffers = audioBuffers(list)
            for c in 0..<channels {
                inputPointers[first + c] = buffers[c].mData.map { UnsafePointer($0.assumingMemoryBound(to: Float.self)) }
            }
        }
        let outs = audioBuffers(output)
        let outCount = kernel.pointee.outputChannelCount
        guard Int(output.pointee.mNumberBuffers) == outCount else { return kAudio_ParamError }
        for c in 0..<outCount {
            guard outs[c].mData != nil else { return kAudio_ParamError }
        }
        // Scheduled and sample-offset parameter events apply at their frame: the call is mixed in
        // slices between them (one slice when there are none).
        let n = Int(frames), totalChannels = firstChannels[count]
        var position = 0
        while position < n {
            let length = nextParameterSlice(at: position, frames: n)
            for b in 0..<count {
                kernel.pointee.setVolume(busSlots[b * perBus].pointee, bus: b)
                kernel.pointee.setEnabled(busSlots[b * perBus + 1].pointee >= 0.5, bus: b)
                let pan = busSlots[b * perBus + 2].pointee
                if pan != appliedPans[b] {
                    appliedPans[b] = pan
                    // setPan evaluates libm's sin (no allocation, no lock).
                    _unsafePerformance { kernel.pointee.setPan(pan, bus: b) }
                }
            }
            kernel.pointee.outputVolume = busSlots[count * perBus].pointee
            for c in 0..<totalChannels { slicedInputs[c] = inputPointers[c].map { $0 + position } }
            for c in 0..<outCount { outputPointers[c] = outs[c].mData!.assumingMemoryBound(to: Float.self) + position }
            kernel.pointee.process(inputs: slicedInputs, outputs: outputPointers, frameCount: length)
            position += length
        }
        finishParameterSlices(frames: n)
        if kernel.pointee.isMeteringEnabled {
            // The readings convert to dB with libm's log10 (no allocation, no lock).
            _unsafePerformance { publishMeters(kernel, busSlots, count) }
        }
        return noErr
    }
}

/// Copies the kernel's last readings into the meter parameters. Thread: render.
func publishMeters(_ kernel: UnsafeMutablePointer<MixerKernel>, _ slots: UnsafeMutablePointer<UnsafeMutablePointer<Float>>, _ count: Int) {
    for b in 0..<count {
        let pre = kernel.pointee.meter(ofBus: b, postFader: false), post = kernel.pointee.meter(ofBus: b, postFader: true)
        slots[b * 7 + 3].pointee = Float(pre.averagePowerDecibels)
        slots[b * 7 + 4].pointee = Float(pre.peakDecibels)
        slots[b * 7 + 5].pointee = Float(post.averagePowerDecibels)
        slots[b * 7 + 6].pointee = Float(post.peakDecibels)
    }
    let out = kernel.pointee.outputMeter()
    slots[count * 7 + 1].pointee = Float(out.averagePowerDecibels)
    slots[count * 7 + 2].pointee = Float(out.peakDecibels)
}
