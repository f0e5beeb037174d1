import AUHost
import GraphFileFormat
import Foundation

/// One unit set up for offline rendering in the canonical format: its input bus 0 fed by a render
/// callback from `input` (which the caller fills before each render), its output bus 0 rendered
/// into `output`. `render`, `bench` and `validate` drive units through it.
final class OfflineUnitRig {
    let unit: AudioUnitInstance
    let sampleRate: Double
    let maxFrames: UInt32
    /// 0 for a unit without input buses (instruments, generators).
    let inputChannels: Int
    let outputChannels: Int
    /// Input for the next render call; the callback copies from it.
    let input: AudioBufferStorage?
    let output: AudioBufferStorage
    private var timeStamp = AudioTimeStamp()
    /// `--tempo`: the transport the unit's host callbacks answer from (nil: none).
    private let transport: UnsafeMutablePointer<HostTransportState>?

    /// Makes and configures an instance of `component` at `sampleRate` with up to `maxFrames` a
    /// call, `channels` channels where the unit accepts them (else its own default counts).
    /// `configure` runs before initialization (parameters, presets, state).
    ///
    /// Thread: setup.
    init(
        component: Component, sampleRate: Double, channels: Int, maxFrames: UInt32, outOfProcess: Bool = false,
        tempo: (beatsPerMinute: Double, meter: GraphFile.Meter)? = nil, configure: (AudioUnitInstance) throws -> Void = { _ in }
    ) throws {
        unit = try AudioUnitInstance(component, outOfProcess: outOfProcess)
        if outOfProcess {
            // Offline, a slow cycle is no fault: only a child stuck for 10 s is declared hung.
            try unit.setProperty(kAUHostIsolatedUnitProperty_RenderDeadline, 10.0 as Float64)
        }
        self.sampleRate = sampleRate
        self.maxFrames = maxFrames
        try unit.setMaximumFramesPerSlice(maxFrames)
        let inputBuses: UInt32 = (try? unit.property(kAudioUnitProperty_ElementCount, scope: kAudioUnitScope_Input)) ?? 0
        inputChannels =
            inputBuses == 0 ? 0 : try Self.negotiate(unit, scope: kAudioUnitScope_Input, sampleRate: sampleRate, channels: channels)
        outputChannels = try Self.negotiate(
            unit, scope: kAudioUnitScope_Output, sampleRate: sampleRate,
            channels: inputChannels > 0 ? inputChannels : channels)
        try Self.setRateOfOtherElements(unit, sampleRate: sampleRate)
        input =
            inputChannels > 0
            ? AudioBufferStorage(
                format: .canonical(sampleRate: sampleRate, channels: UInt32(inputChannels)),
                capacity: maxFrames) : nil
        output = AudioBufferStorage(format: .canonical(sampleRate: sampleRate, channels: UInt32(outputChannels)), capacity: maxFrames)
        if let input {
            input.clear(frames: maxFrames)
            try unit.setRenderCallback(bus: 0, rigInputCallback, refCon: Unmanaged.passUnretained(input).toOpaque())
        }
        transport = tempo.map {
            HostTransportState.make(
                beatsPerMinute: $0.beatsPerMinute, beatsPerBar: $0.meter.beatsPerBar, beatUnit: $0.meter.beatUnit, sampleRate: sampleRate)
        }
        if var callbacks = transport?.hostCallbacks {
            try AudioError.check(
                AudioUnitSetProperty(
                    unit.handle, kAudioUnitProperty_HostCallbacks, kAudioUnitScope_Global, 0, &callbacks,
                    UInt32(MemoryLayout<HostCallbackInfo>.size)),
                LastErrorMessage.current ?? "The unit refused the host callbacks.")
        }
        try configure(unit)
        try unit.initialize()
        timeStamp.mFlags = .sampleTimeValid
    }

    /// Sets `channels` canonical channels at `sampleRate` on bus 0 of `scope`, or when the unit
    /// refuses, its own channel count at that rate; returns the count in use.
    private static func negotiate(_ unit: AudioUnitInstance, scope: AudioUnitScope, sampleRate: Double, channels: Int) throws -> Int {
        if (try? unit.setStreamFormat(.canonical(sampleRate: sampleRate, channels: UInt32(channels)), scope: scope)) != nil {
            return channels
        }
        let own = try unit.streamFormat(scope: scope)
        try unit.setStreamFormat(.canonical(sampleRate: sampleRate, channels: own.mChannelsPerFrame), scope: scope)
        return Int(own.mChannelsPerFrame)
    }

    /// Sets `sampleRate` on every element but the first of both scopes, keeping their channel
    /// counts: a unit with a side-chain input or a second output (a plug-in runs at one rate)
    /// refuses to initialize while they keep their default rate.
    private static func setRateOfOtherElements(_ unit: AudioUnitInstance, sampleRate: Double) throws {
        for scope in [kAudioUnitScope_Input, kAudioUnitScope_Output] {
            let count = (try? unit.property(kAudioUnitProperty_ElementCount, scope: scope, as: UInt32.self)) ?? 0
            for element in UInt32(1)..<max(count, 1) {
                let own = try unit.streamFormat(scope: scope, element: element)
                try unit.setStreamFormat(
                    .canonical(sampleRate: sampleRate, channels: own.mChannelsPerFrame), scope: scope, element: element)
            }
        }
    }

    /// Renders `frames` frames (at most `maxFrames`) from the current input into `output`;
    /// returns the unit's status.
    ///
    /// Thread: render (the caller's thread drives the unit offline).
    func render(frames: UInt32) -> OSStatus {
        transport?.pointee.beginCycle(frames: frames)
        output.prepare(frames: frames)
        var flags: AudioUnitRenderActionFlags = []
        let status = unit.render(&flags, &timeStamp, bus: 0, frames: frames, output.list)
        timeStamp.mSampleTime += Double(frames)
        return status
    }

    deinit {
        guard let transport else { return }
        // The unit may outlive the rig: it must not keep callbacks into freed memory.
        AudioUnitSetProperty(unit.handle, kAudioUnitProperty_HostCallbacks, kAudioUnitScope_Global, 0, nil, 0)
        transport.deallocate()
    }

    /// Restarts the time line at 0 (after a reset).
    ///
    /// Thread: setup.
    func rewind() { timeStamp.mSampleTime = 0 }
}

/// Copies the rig's input storage into the buffers the unit asks for (or lends it when mData is nil).
let rigInputCallback: AURenderCallback = { refCon, _, _, _, frames, ioData in
    let input = Unmanaged<AudioBufferStorage>.fromOpaque(refCon).takeUnretainedValue()
    let buffers = UnsafeMutableAudioBufferListPointer(ioData!)
    let bytes = Int(frames) * MemoryLayout<Float>.size
    for i in 0..<min(buffers.count, input.bufferCount) {
        if let data = buffers[i].mData {
            data.copyMemory(from: input.channel(i), byteCount: bytes)
        } else {
            buffers[i].mData = UnsafeMutableRawPointer(input.channel(i))
        }
        buffers[i].mDataByteSize = UInt32(bytes)
    }
    return noErr
}
