import AudioToolbox
import Foundation
import Synchronization

/// Called when a scheduled buffer, segment or file has been played.
public typealias AVAudioNodeCompletionHandler = () -> Void
/// Called with the stage the scheduled data reached.
public typealias AVAudioPlayerNodeCompletionHandler = (AVAudioPlayerNodeCompletionCallbackType) -> Void

/// Which stage a completion handler waits for (here all three are the moment the render thread
/// has consumed the data: docs/PORTING.md).
public enum AVAudioPlayerNodeCompletionCallbackType: Int, Sendable {
    case dataConsumed = 0
    case dataRendered = 1
    case dataPlayedBack = 2
}

/// How a scheduled buffer plays.
public struct AVAudioPlayerNodeBufferOptions: OptionSet, Sendable {
    public let rawValue: UInt
    /// Thread: any.
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// The buffer repeats until stopped or interrupted.
    public static let loops = AVAudioPlayerNodeBufferOptions(rawValue: 1)
    /// The buffer replaces whatever is scheduled (which completes) and plays at once.
    public static let interrupts = AVAudioPlayerNodeBufferOptions(rawValue: 2)
    /// Here the same as `.interrupts` (docs/PORTING.md).
    public static let interruptsAtLoop = AVAudioPlayerNodeBufferOptions(rawValue: 4)
}

/// A node that plays scheduled buffers and file segments (Apple's AVAudioPlayerNode). Its unit is
/// a format converter ('aufc' 'conv') whose input is the player's render callback, so it is a
/// node of the graph like any other. Times given with `at:` are player sample times (frames
/// since play); play(at:) takes a node sample time (the engine's render timeline).
///
/// Thread: setup for every member unless it says otherwise.
public final class AVAudioPlayerNode: AVAudioNode, AVAudioMixing, DeliverySource {
    static let converter = AudioComponentDescription(
        componentType: kAudioUnitType_FormatConverter, componentSubType: kAudioUnitSubType_AUConverter,
        componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)

    private static let wakeNobody: UnsafeMutablePointer<sem_t> = {
        let s = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
        sem_init(s, 0, 0)
        return s
    }()

    private var engineState: PlayerEngine
    private let scheduleLock = NSRecursiveLock()
    private var nextID: UInt64 = 1
    /// The player time after the last buffer scheduled without a time.
    private var scheduledEnd: Int64 = 0
    private var pending: [UInt64: (buffer: AVAudioPCMBuffer, handler: (() -> Void)?)] = [:]

    /// Thread: setup.
    public init() {
        engineState = PlayerEngine(wake: AVAudioPlayerNode.wakeNobody)
        super.init(unit: try! makeUnit(AVAudioPlayerNode.converter))  // built in: always there
        installCallback()
    }

    deinit {
        var none = AURenderCallbackStruct(inputProc: nil, inputProcRefCon: nil)
        AudioUnitSetProperty(
            unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &none, UInt32(MemoryLayout<AURenderCallbackStruct>.size))
    }

    private func installCallback() {
        var callback = AURenderCallbackStruct(
            inputProc: playerRenderCallback, inputProcRefCon: Unmanaged.passUnretained(engineState).toOpaque())
        AudioUnitSetProperty(
            unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &callback,
            UInt32(MemoryLayout<AURenderCallbackStruct>.size))
    }

    /// The render state takes the engine's delivery semaphore once attached (the callback is
    /// swapped under the unit's configuration swap, so a running render never sees half of it).
    func adoptWake(_ wake: UnsafeMutablePointer<sem_t>) {
        scheduleLock.lock()
        defer { scheduleLock.unlock() }
        guard engineState.wake != wake else { return }
        let old = engineState
        let new = PlayerEngine(wake: wake)
        engineState = new
        installCallback()
        // Whatever was scheduled before attaching moves over.
        for i in old.head.load(ordering: .relaxed)..<old.tail.load(ordering: .relaxed) {
            _ = new.push(old.items[i % PlayerEngine.capacity])
        }
    }

    /// The player's output is what it is scheduled with: input and output of the converter match.
    override func setOutputFormat(_ format: AVAudioFormat, bus: AVAudioNodeBus) throws {
        guard format.isStandard else {
            throw osStatusError(
                kAudioUnitErr_FormatNotSupported, "A player node plays the standard (Float32, deinterleaved) format, not \(format)")
        }
        try setStreamFormat(unit, kAudioUnitScope_Input, 0, format, "The player node")
        try setStreamFormat(unit, kAudioUnitScope_Output, bus, format, "The player node")
    }

    // MARK: Scheduling

    /// Thread: setup.
    public func scheduleBuffer(_ buffer: AVAudioPCMBuffer, completionHandler: AVAudioNodeCompletionHandler? = nil) {
        schedule(buffer, at: nil, options: [], completionHandler)
    }

    /// Plays `buffer` at player time `when` (nil: after what is scheduled, or at once).
    ///
    /// Thread: setup.
    public func scheduleBuffer(
        _ buffer: AVAudioPCMBuffer, at when: AVAudioTime?, options: AVAudioPlayerNodeBufferOptions = [],
        completionHandler: AVAudioNodeCompletionHandler? = nil
    ) {
        schedule(buffer, at: when, options: options, completionHandler)
    }

    /// Thread: setup.
    public func scheduleBuffer(
        _ buffer: AVAudioPCMBuffer, completionCallbackType callbackType: AVAudioPlayerNodeCompletionCallbackType,
        completionHandler: AVAudioPlayerNodeCompletionHandler? = nil
    ) {
        schedule(buffer, at: nil, options: [], completionHandler.map { h in { h(callbackType) } })
    }

    /// Thread: setup.
    public func scheduleBuffer(
        _ buffer: AVAudioPCMBuffer, at when: AVAudioTime?, options: AVAudioPlayerNodeBufferOptions = [],
        completionCallbackType callbackType: AVAudioPlayerNodeCompletionCallbackType,
        completionHandler: AVAudioPlayerNodeCompletionHandler? = nil
    ) {
        schedule(buffer, at: when, options: options, completionHandler.map { h in { h(callbackType) } })
    }

    /// Plays a whole file at player time `when` (read into memory now, in its processing format).
    ///
    /// Thread: setup.
    public func scheduleFile(_ file: AVAudioFile, at when: AVAudioTime?, completionHandler: AVAudioNodeCompletionHandler? = nil) {
        scheduleSegment(
            file, startingFrame: 0, frameCount: AVAudioFrameCount(clamping: file.length), at: when, completionHandler: completionHandler)
    }

    /// Thread: setup.
    public func scheduleFile(
        _ file: AVAudioFile, at when: AVAudioTime?, completionCallbackType callbackType: AVAudioPlayerNodeCompletionCallbackType,
        completionHandler: AVAudioPlayerNodeCompletionHandler? = nil
    ) {
        scheduleFile(file, at: when, completionHandler: completionHandler.map { h in { h(callbackType) } })
    }

    /// Plays `frameCount` frames of a file from `startingFrame`, at player time `when`.
    ///
    /// Thread: setup.
    public func scheduleSegment(
        _ file: AVAudioFile, startingFrame: AVAudioFramePosition, frameCount: AVAudioFrameCount, at when: AVAudioTime?,
        completionHandler: AVAudioNodeCompletionHandler? = nil
    ) {
        let frames = AVAudioFrameCount(clamping: max(0, min(Int64(frameCount), file.length - startingFrame)))
        guard let buffer = AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: max(frames, 1)) else { return }
        do {
            file.framePosition = startingFrame
            if frames > 0 { try file.read(into: buffer, frameCount: frames) }
            buffer.frameLength = frames
        } catch {
            engine?.fail(asNSError(error).code32, "scheduleSegment: \(asNSError(error).localizedDescription)")
            return
        }
        schedule(buffer, at: when, options: [], completionHandler)
    }

    /// Thread: setup.
    public func scheduleSegment(
        _ file: AVAudioFile, startingFrame: AVAudioFramePosition, frameCount: AVAudioFrameCount, at when: AVAudioTime?,
        completionCallbackType callbackType: AVAudioPlayerNodeCompletionCallbackType,
        completionHandler: AVAudioPlayerNodeCompletionHandler? = nil
    ) {
        scheduleSegment(
            file, startingFrame: startingFrame, frameCount: frameCount, at: when,
            completionHandler: completionHandler.map { h in { h(callbackType) } })
    }

    private func schedule(
        _ buffer: AVAudioPCMBuffer, at when: AVAudioTime?, options: AVAudioPlayerNodeBufferOptions, _ handler: (() -> Void)?
    ) {
        scheduleLock.lock()
        defer { scheduleLock.unlock() }
        let output = outputFormat(forBus: 0)
        guard buffer.format.isStandard, buffer.format.sampleRate == output.sampleRate, buffer.format.channelCount == output.channelCount
        else {
            let message = "scheduleBuffer: the buffer's format \(buffer.format) is not the player's output format \(output)"
            if let engine {
                engine.fail(kAudioUnitErr_FormatNotSupported, message)
            } else {
                AVAudioEngine.orphanError = osStatusError(kAudioUnitErr_FormatNotSupported, message)
            }
            return
        }
        let state = engineState
        let id = nextID
        nextID += 1
        let now = state.playerSample.load(ordering: .acquiring)
        let interrupts = !options.intersection([.interrupts, .interruptsAtLoop]).isEmpty
        if interrupts {
            state.cancelBelow.store(id, ordering: .releasing)
            scheduledEnd = now
        }
        var start: Int64
        if let when, when.isSampleTimeValid {
            start = when.sampleTime
        } else {
            start = max(scheduledEnd, now)
        }
        let frames = Int64(buffer.frameLength)
        let loops = options.contains(.loops) && frames > 0
        if when == nil || !when!.isSampleTimeValid { scheduledEnd = loops ? Int64.max / 2 : start + frames }
        start = min(start, Int64.max / 4)
        pending[id] = (buffer, handler)
        let item = ScheduledItem(
            id: id, channels: UnsafePointer(buffer.floatChannelData!), channelCount: Int(buffer.format.channelCount), frames: frames,
            start: start, loops: loops, done: false)
        if !state.push(item) {
            pending[id] = nil
            engine?.fail(kAudioUnitErr_TooManyFramesToProcess, "scheduleBuffer: \(PlayerEngine.capacity) buffers are already scheduled")
        }
    }

    /// Calls the handlers of finished buffers and lets the buffers go.
    ///
    /// Thread: the delivery thread (or setup, draining).
    func deliver() {
        scheduleLock.lock()
        var ready: [(() -> Void)?] = []
        while let id = engineState.popFinished() {
            if let p = pending.removeValue(forKey: id) { ready.append(p.handler) }
        }
        scheduleLock.unlock()
        for handler in ready { handler?() }
    }

    // MARK: Transport

    /// Starts (or resumes) playing at the next render.
    ///
    /// Thread: setup.
    public func play() { play(at: nil) }

    /// Starts playing at node time `when` (nil: at the next render).
    ///
    /// Thread: setup.
    public func play(at when: AVAudioTime?) {
        if let engine { adoptWake(engine.delivery.wake) }
        let startAt = when.flatMap { $0.isSampleTimeValid ? $0.sampleTime : nil } ?? -1
        engineState.startAtNodeSample.store(startAt, ordering: .releasing)
        engineState.playing.store(1, ordering: .releasing)
    }

    /// Stops the player's time (scheduled buffers stay).
    ///
    /// Thread: setup.
    public func pause() { engineState.playing.store(0, ordering: .releasing) }

    /// Stops, drops everything scheduled (its completion handlers are called) and puts the
    /// player's time back to 0.
    ///
    /// Thread: setup.
    public func stop() {
        scheduleLock.lock()
        let state = engineState
        state.playing.store(0, ordering: .releasing)
        state.cancelBelow.store(nextID, ordering: .releasing)
        state.stopGeneration.add(1, ordering: .releasing)
        scheduledEnd = 0
        // Nothing renders the player while its engine does not run: release the buffers now.
        let rendering = engine?.isRunning == true
        var handlers: [(() -> Void)?] = []
        if !rendering {
            state.playerSample.store(0, ordering: .releasing)
            var i = state.head.load(ordering: .relaxed)
            let last = state.tail.load(ordering: .relaxed)
            while i < last {
                state.items[i % PlayerEngine.capacity].done = true
                i += 1
            }
            state.head.store(last, ordering: .releasing)
            while state.popFinished() != nil {}
            handlers = pending.values.map(\.handler)
            pending = [:]
        }
        scheduleLock.unlock()
        for h in handlers { h?() }
    }

    /// Whether the player is playing.
    ///
    /// Thread: any.
    public var isPlaying: Bool { engineState.playing.load(ordering: .acquiring) != 0 }

    /// Player time for a node time (nil while the player is not playing).
    ///
    /// Thread: any.
    public func playerTime(forNodeTime nodeTime: AVAudioTime) -> AVAudioTime? {
        let zero = engineState.nodeAtPlayerZero.load(ordering: .acquiring)
        guard zero >= 0, nodeTime.isSampleTimeValid else { return nil }
        return AVAudioTime(sampleTime: nodeTime.sampleTime - zero, atRate: outputFormat(forBus: 0).sampleRate)
    }

    /// Node time for a player time (nil while the player is not playing).
    ///
    /// Thread: any.
    public func nodeTime(forPlayerTime playerTime: AVAudioTime) -> AVAudioTime? {
        let zero = engineState.nodeAtPlayerZero.load(ordering: .acquiring)
        guard zero >= 0, playerTime.isSampleTimeValid else { return nil }
        return AVAudioTime(sampleTime: playerTime.sampleTime + zero, atRate: outputFormat(forBus: 0).sampleRate)
    }

    /// The node's own render time: frames it has rendered.
    ///
    /// Thread: any.
    public var nodeRenderTime: AVAudioTime {
        AVAudioTime(sampleTime: engineState.nodeSample.load(ordering: .acquiring), atRate: outputFormat(forBus: 0).sampleRate)
    }

    /// Nothing to prepare: buffers are in memory when scheduled.
    ///
    /// Thread: setup.
    public func prepare(withFrameCount frameCount: AVAudioFrameCount) {}

}
