import AUHost
import Foundation

/// One line of a validation report.
struct CheckResult: Codable {
    enum Outcome: String, Codable { case pass = "PASS", warn = "WARN", fail = "FAIL" }
    var check: String
    var outcome: Outcome
    var reason: String
}

/// The auval-style checks of one unit, run in the child process `auhost validate` starts, so a unit
/// that crashes takes only that process down. Each check reports PASS / WARN / FAIL with a reason.
struct ValidationBattery {
    let component: Component
    private(set) var results: [CheckResult] = []
    /// Called after each check, so the parent sees every result that finished before a crash.
    var onResult: (CheckResult) -> Void = { _ in }

    static let sweepRates: [Double] = [22_050, 44_100, 48_000, 96_000, 192_000]
    static let sliceFrames: UInt32 = 512

    init(component: Component) { self.component = component }

    private mutating func record(_ check: String, _ outcome: CheckResult.Outcome, _ reason: String) {
        let r = CheckResult(check: check, outcome: outcome, reason: reason)
        results.append(r)
        onResult(r)
    }

    /// Runs a check; a thrown error is a FAIL with its message.
    private mutating func check(_ name: String, _ body: () throws -> (CheckResult.Outcome, String)) {
        do {
            let (outcome, reason) = try body()
            record(name, outcome, reason)
        } catch {
            record(name, .fail, "\(error)")
        }
    }

    /// Whether the unit renders offline: a device I/O unit needs its device, not a pull.
    var rendersOffline: Bool {
        !(component.description.componentType == kAudioUnitType_Output
            && component.description.componentSubType != kAudioUnitSubType_GenericOutput)
    }

    /// Every check, in auval's order.
    ///
    /// Thread: setup.
    mutating func run() {
        let component = component, rendersOffline = rendersOffline
        var opened: OfflineUnitRig?
        check("open time") {
            let start = DispatchTime.now().uptimeNanoseconds
            let unit = try AudioUnitInstance(component)
            let made = DispatchTime.now().uptimeNanoseconds
            // A device I/O unit opens its device on initialize; that is the device's check, not the unit's.
            if rendersOffline { try unit.initialize() }
            let ready = DispatchTime.now().uptimeNanoseconds
            let text = String(
                format: "instantiated in %.2f ms, initialized in %.2f ms", Double(made - start) / 1e6, Double(ready - made) / 1e6)
            return Double(ready - start) / 1e9 > 2 ? (.warn, text + " (slow: over 2 s)") : (.pass, text)
        }
        // A unit that cannot be opened fails every other check for the same reason: stop here.
        guard results.last?.outcome != .fail else { return }
        check("default formats") {
            let unit = try AudioUnitInstance(component)
            let facts = UnitFacts(unit)
            let all = facts.inputFormats + facts.outputFormats
            guard !facts.outputFormats.isEmpty || component.description.componentType == kAudioUnitType_Output else {
                return (.fail, "no output bus")
            }
            if let bad = all.first(where: { !$0.isValidLinearPCM }) { return (.fail, "a default format is not valid linear PCM: \(bad)") }
            return (
                .pass,
                "\(facts.inputFormats.count) in, \(facts.outputFormats.count) out: " + (facts.outputFormats.first.map { "\($0)" } ?? "-")
            )
        }
        check("required properties") {
            let unit = try AudioUnitInstance(component)
            let required: [(AudioUnitPropertyID, AudioUnitScope, String)] = [
                (kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, "StreamFormat"),
                (kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, "MaximumFramesPerSlice"),
                (kAudioUnitProperty_ParameterList, kAudioUnitScope_Global, "ParameterList"),
                (kAudioUnitProperty_Latency, kAudioUnitScope_Global, "Latency"),
                (kAudioUnitProperty_TailTime, kAudioUnitScope_Global, "TailTime"),
                (kAudioUnitProperty_ElementCount, kAudioUnitScope_Output, "ElementCount"),
                (kAudioUnitProperty_SampleRate, kAudioUnitScope_Output, "SampleRate"),
                (kAudioUnitProperty_ClassInfo, kAudioUnitScope_Global, "ClassInfo"),
            ]
            var missing: [String] = []
            for (id, scope, name) in required {
                var size: UInt32 = 0
                if AudioUnitGetPropertyInfo(unit.handle, id, scope, 0, &size, nil) != noErr { missing.append(name) }
            }
            return missing.isEmpty ? (.pass, "\(required.count) properties answer") : (.fail, "missing: " + missing.joined(separator: ", "))
        }
        check("parameters") { try Self.checkParameters(component) }
        check("channel configurations") { try Self.checkChannels(component) }
        guard rendersOffline else {
            record("render", .pass, "skipped: a device I/O unit renders through its device (see ALSAIOUnitTests)")
            return
        }
        var first: [[Float]] = []
        check("render 512") {
            let rig = try OfflineUnitRig(component: component, sampleRate: 44_100, channels: 2, maxFrames: 512)
            opened = rig
            first = try Self.renderNoise(rig, frames: 512, slice: 512)
            return (.pass, "\(rig.inputChannels) in → \(rig.outputChannels) out, 512 frames")
        }
        check("render sliced at 64") {
            let rig = try OfflineUnitRig(component: component, sampleRate: 44_100, channels: 2, maxFrames: 512)
            let sliced = try Self.renderNoise(rig, frames: 512, slice: 64)
            guard !first.isEmpty else { return (.warn, "rendered in slices of 64, nothing to compare with") }
            let diff = zip(first, sliced).map { zip($0, $1).map { abs($0 - $1) }.max() ?? 0 }.max() ?? 0
            return diff == 0 ? (.pass, "8 × 64 frames equal 1 × 512") : (.warn, "8 × 64 frames differ from 1 × 512 by up to \(diff)")
        }
        check("sample rate sweep") {
            var refused: [String] = []
            for rate in Self.sweepRates {
                do {
                    let rig = try OfflineUnitRig(component: component, sampleRate: rate, channels: 2, maxFrames: 512)
                    _ = try Self.renderNoise(rig, frames: 512, slice: 512)
                } catch { refused.append("\(Int(rate)) Hz (\(error))") }
            }
            return refused.isEmpty
                ? (.pass, Self.sweepRates.map { "\(Int($0))" }.joined(separator: ", ") + " Hz render")
                : (.warn, "refused " + refused.joined(separator: "; "))
        }
        check("too many frames") {
            guard let rig = opened else { return (.fail, "no unit rendered") }
            let big = AudioBufferStorage(format: .canonical(sampleRate: 44_100, channels: UInt32(rig.outputChannels)), capacity: 1024)
            var flags: AudioUnitRenderActionFlags = []
            var ts = AudioTimeStamp()
            ts.mFlags = .sampleTimeValid
            let status = rig.unit.render(&flags, &ts, bus: 0, frames: 1024, big.list)
            return status == kAudioUnitErr_TooManyFramesToProcess
                ? (.pass, "1024 frames over a maximum of 512 refused with TooManyFramesToProcess")
                : (.fail, "1024 frames over a maximum of 512 returned \(status), not kAudioUnitErr_TooManyFramesToProcess (-10874)")
        }
        check("scheduled and ramped parameters") { try Self.checkScheduled(component) }
        check("state round trip") { try Self.checkClassInfo(component) }
        check("NaN and denormal output") {
            guard let rig = opened else { return (.fail, "no unit rendered") }
            let out = try Self.renderNoise(rig, frames: 4096, slice: 512)
            let samples = out.joined()
            if let bad = samples.first(where: { !$0.isFinite }) { return (.fail, "output holds \(bad) in 4096 frames of noise") }
            let denormals = samples.filter { $0 != 0 && $0.isSubnormal }.count
            return denormals > 0 ? (.warn, "\(denormals) denormal samples in 4096 frames") : (.pass, "4096 frames finite, no denormals")
        }
        check("tail") {
            let unit = opened?.unit
            let tail = try unit?.property(kAudioUnitProperty_TailTime, as: Float64.self) ?? 0
            guard tail.isFinite, tail >= 0 else { return (.fail, "TailTime is \(tail)") }
            guard let rig = opened, rig.inputChannels > 0 else { return (.pass, "TailTime \(tail) s (no input to stop)") }
            // After the input stops, the output must fall silent within the tail (capped at 10 s) plus a second.
            for c in 0..<rig.inputChannels { rig.input!.channel(c).update(repeating: 0, count: Int(rig.maxFrames)) }
            let frames = Int((min(tail, 10) + 1) * rig.sampleRate)
            var last: Float = 0
            var done = 0
            while done < frames {
                try AudioError.check(rig.render(frames: 512), "render during the tail failed")
                last = (0..<rig.outputChannels).map { rig.output.samples(channel: $0, frames: 512).map(abs).max() ?? 0 }.max() ?? 0
                done += 512
            }
            return last < 1e-3
                ? (.pass, "TailTime \(tail) s; silent (peak \(last)) after it")
                : (
                    .warn,
                    "TailTime \(tail) s, but the output still peaks at \(last) \(String(format: "%.1f", Double(frames) / rig.sampleRate)) s after the input stopped"
                )
        }
    }

    /// Renders `frames` frames of seeded noise through `rig` in slices; the output per channel.
    /// The noise is made whole before slicing, so every slicing feeds the unit the same signal.
    static func renderNoise(_ rig: OfflineUnitRig, frames: Int, slice: UInt32) throws -> [[Float]] {
        var seed: UInt32 = 12_345
        let noise = (0..<rig.inputChannels).map { _ in
            (0..<frames).map { _ -> Float in
                seed = seed &* 1_664_525 &+ 1_013_904_223
                return Float(Int32(bitPattern: seed)) / Float(Int32.max) * 0.5
            }
        }
        var out = [[Float]](repeating: [], count: rig.outputChannels)
        var done = 0
        while done < frames {
            let n = min(Int(slice), frames - done)
            if let input = rig.input {
                for c in 0..<rig.inputChannels {
                    noise[c].withUnsafeBufferPointer { input.channel(c).update(from: $0.baseAddress! + done, count: n) }
                }
            }
            try AudioError.check(rig.render(frames: UInt32(n)), LastErrorMessage.current ?? "render of \(n) frames at frame \(done) failed")
            for c in 0..<rig.outputChannels { out[c] += rig.output.samples(channel: c, frames: n) }
            done += n
        }
        return out
    }

    /// A value inside a parameter's range, away from its default. Worked out in Double: in Float a
    /// range as wide as ±FLT_MAX (an LV2 meter that declares none) overflows to infinity.
    static func probe(_ p: UnitFacts.Parameter) -> Float {
        if p.maxValue <= p.minValue { return p.minValue }
        if p.unit == "indexed" || p.unit == "boolean" { return p.defaultValue == p.maxValue ? p.minValue : p.maxValue }
        func at(_ fraction: Double) -> Float { Float(Double(p.minValue) + (Double(p.maxValue) - Double(p.minValue)) * fraction) }
        return at(0.3) == p.defaultValue ? at(0.7) : at(0.3)
    }

    /// Every default lies in its range; every writable parameter keeps a value set across Reset and
    /// re-initialize. Meters (read-only) are not set: what they read is the unit's output.
    static func checkParameters(_ component: Component) throws -> (CheckResult.Outcome, String) {
        let unit = try AudioUnitInstance(component)
        let all = UnitFacts(unit).parameters
        guard !all.isEmpty else { return (.pass, "no parameters") }
        for p in all {
            guard p.minValue <= p.defaultValue && p.defaultValue <= p.maxValue else {
                return (.fail, "\(p.name) (\(p.id)): default \(p.defaultValue) outside \(p.minValue) … \(p.maxValue)")
            }
        }
        let params = all.filter(\.isWritable)
        func same(_ a: Float, _ b: Float) -> Bool { abs(a - b) <= 1e-5 * max(1, abs(a)) }
        for p in params { try unit.setParameter(p.id, probe(p)) }
        for p in params where !same(try unit.parameter(p.id), probe(p)) {
            return (.fail, "\(p.name) (\(p.id)) set to \(probe(p)) reads back \(try unit.parameter(p.id))")
        }
        try unit.initialize()
        try unit.reset()
        for p in params where !same(try unit.parameter(p.id), probe(p)) {
            return (.fail, "\(p.name) (\(p.id)) became \(try unit.parameter(p.id)) after Reset (was \(probe(p)))")
        }
        try unit.uninitialize()
        try unit.initialize()
        for p in params where !same(try unit.parameter(p.id), probe(p)) {
            return (.fail, "\(p.name) (\(p.id)) became \(try unit.parameter(p.id)) after re-initialize (was \(probe(p)))")
        }
        let meters = all.count - params.count
        return (.pass, "\(params.count) set, read back, kept across Reset and re-initialize" + (meters > 0 ? "; \(meters) read-only" : ""))
    }

    static func checkChannels(_ component: Component) throws -> (CheckResult.Outcome, String) {
        let unit = try AudioUnitInstance(component)
        let configs = UnitFacts(unit).channelConfigurations
        let inputs: UInt32 = (try? unit.property(kAudioUnitProperty_ElementCount, scope: kAudioUnitScope_Input)) ?? 0
        var accepted: [String] = []
        for c in configs where c.inChannels > 0 && c.outChannels > 0 && inputs > 0 {
            let u = try AudioUnitInstance(component)
            try u.setStreamFormat(.canonical(sampleRate: 44_100, channels: UInt32(c.inChannels)), scope: kAudioUnitScope_Input)
            try u.setStreamFormat(.canonical(sampleRate: 44_100, channels: UInt32(c.outChannels)), scope: kAudioUnitScope_Output)
            try u.initialize()
            accepted.append(UnitFacts.describe(c))
        }
        // A format with no channels is never valid; it must be refused, not crash the unit.
        var zero = AudioStreamBasicDescription.canonical(sampleRate: 44_100, channels: 1)
        zero.mChannelsPerFrame = 0
        let status = AudioUnitSetProperty(
            unit.handle, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &zero,
            UInt32(MemoryLayout<AudioStreamBasicDescription>.size))
        guard status != noErr else { return (.fail, "a 0-channel output format was accepted") }
        let declared =
            configs.isEmpty ? "none declared" : "accepted " + (accepted.isEmpty ? "(wildcards only)" : accepted.joined(separator: "; "))
        return (.pass, "\(declared); 0 channels refused (\(status))")
    }

    static func checkScheduled(_ component: Component) throws -> (CheckResult.Outcome, String) {
        var target: UnitFacts.Parameter?
        let rig = try OfflineUnitRig(component: component, sampleRate: 44_100, channels: 2, maxFrames: 512) { unit in
            target = UnitFacts(unit).parameters.first {
                $0.isWritable && $0.maxValue > $0.minValue && $0.unit != "indexed" && $0.unit != "boolean"
            }
        }
        guard let p = target else { return (.pass, "no continuous parameter to schedule") }
        let mid = p.minValue + (p.maxValue - p.minValue) * 0.25, end = p.minValue + (p.maxValue - p.minValue) * 0.75
        var events = [AudioUnitParameterEvent(), AudioUnitParameterEvent()]
        events[0].scope = kAudioUnitScope_Global; events[0].parameter = p.id; events[0].eventType = .parameterEvent_Immediate
        events[0].eventValues.immediate = .init(bufferOffset: 100, value: mid)
        events[1].scope = kAudioUnitScope_Global; events[1].parameter = p.id; events[1].eventType = .parameterEvent_Ramped
        events[1].eventValues.ramp = .init(startBufferOffset: 200, durationInFrames: 256, startValue: mid, endValue: end)
        try AudioError.check(AudioUnitScheduleParameters(rig.unit.handle, &events, 2), "AudioUnitScheduleParameters refused the events")
        _ = try renderNoise(rig, frames: 512, slice: 512)
        let now = try rig.unit.parameter(p.id)
        return abs(now - end) <= 1e-4 * max(1, abs(end))
            ? (.pass, "\(p.name): immediate at 100, ramp 200…456 to \(end); reads \(now) after")
            : (.fail, "\(p.name): after an immediate event and a ramp to \(end) it reads \(now)")
    }

    static func checkClassInfo(_ component: Component) throws -> (CheckResult.Outcome, String) {
        let unit = try AudioUnitInstance(component)
        let params = UnitFacts(unit).parameters.filter(\.isWritable)
        for p in params { try unit.setParameter(p.id, probe(p)) }
        let saved = try unit.classInfo()
        let fresh = try AudioUnitInstance(component)
        try fresh.setClassInfo(saved)
        for p in params where abs(try fresh.parameter(p.id) - probe(p)) > 1e-5 * max(1, abs(probe(p))) {
            return (.fail, "\(p.name) is \(try fresh.parameter(p.id)) in a new instance after restoring ClassInfo that saved \(probe(p))")
        }
        return (.pass, "ClassInfo restores \(params.count) parameters into a new instance")
    }
}
