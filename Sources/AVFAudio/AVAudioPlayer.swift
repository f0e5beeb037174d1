import AudioToolbox
import Foundation
import Synchronization

/// What an AVAudioPlayer tells its delegate (Apple's AVAudioPlayerDelegate); both methods are
/// optional. They are called on a background thread (Apple: the main thread).
public protocol AVAudioPlayerDelegate: AnyObject {
    /// The sound finished (all its loops), or the device failed (`flag` false).
    func audioPlayerDidFinishPlaying(_ player: AVAudioPlayer, successfully flag: Bool)
    /// The file could not be decoded.
    func audioPlayerDecodeErrorDidOccur(_ player: AVAudioPlayer, error: Error?)
}

extension AVAudioPlayerDelegate {
    /// Thread: a background thread.
    public func audioPlayerDidFinishPlaying(_ player: AVAudioPlayer, successfully flag: Bool) {}
    /// Thread: a background thread.
    public func audioPlayerDecodeErrorDidOccur(_ player: AVAudioPlayer, error: Error?) {}
}

/// Plays a sound file on the output device (Apple's AVAudioPlayer): an AVAudioEngine with a
/// player node, the whole file in memory.
///
/// Thread: setup for every member (one thread at a time).
public final class AVAudioPlayer {
    public let url: URL?
    /// The file's format as played (the standard format at its rate and channel count).
    public let format: AVAudioFormat
    public weak var delegate: AVAudioPlayerDelegate?
    /// Extra plays after the first; −1 plays until stopped. Thread: setup.
    public var numberOfLoops = 0
    /// The ALSA PCM to play on ("default" when nil); Apple's is a device UID. Thread: setup.
    public var currentDevice: String?

    private let sound: AVAudioPCMBuffer
    private var engine: AVAudioEngine?
    private var player: AVAudioPlayerNode?
    private let lock = NSLock()
    /// Where in the sound (frames) the current play started, and whether it plays.
    private var startFrame: AVAudioFramePosition = 0
    private var pausedAt: AVAudioFramePosition = 0
    private var playing = false
    /// Bumped by every play and stop (under `lock`): a finished handler of an older play does nothing.
    private var generation = 0
    private var volume_: Float = 1
    private var pan_: Float = 0

    /// Reads the whole file (what AVAudioFile reads) into memory.
    ///
    /// Thread: setup.
    public init(contentsOf url: URL) throws {
        let file = try AVAudioFile(forReading: url)
        guard
            let buffer = AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: AVAudioFrameCount(clamping: max(file.length, 1)))
        else {
            throw osStatusError(kAudioFileUnsupportedDataFormatError, "\(url.lastPathComponent) cannot be played")
        }
        try file.read(into: buffer)
        self.url = url
        format = file.processingFormat
        sound = buffer
    }

    /// Thread: setup.
    public convenience init(contentsOf url: URL, fileTypeHint utiString: String?) throws {
        try self.init(contentsOf: url)
    }

    deinit { engine?.stop() }

    /// Seconds of sound.
    ///
    /// Thread: setup.
    public var duration: TimeInterval { Double(sound.frameLength) / format.sampleRate }
    /// Thread: setup.
    public var numberOfChannels: Int { Int(format.channelCount) }

    /// Thread: setup.
    public var isPlaying: Bool {
        lock.lock()
        defer { lock.unlock() }
        return playing
    }

    /// Linear gain, 0…1.
    ///
    /// Thread: setup.
    public var volume: Float {
        get { volume_ }
        set {
            volume_ = min(max(newValue, 0), 1)
            player?.volume = volume_
        }
    }

    /// Sets the volume (the fade is not applied: docs/PORTING.md).
    ///
    /// Thread: setup.
    public func setVolume(_ volume: Float, fadeDuration duration: TimeInterval) { self.volume = volume }

    /// −1 (left) … +1 (right).
    ///
    /// Thread: setup.
    public var pan: Float {
        get { pan_ }
        set {
            pan_ = min(max(newValue, -1), 1)
            player?.pan = pan_
        }
    }

    /// The play position in seconds within the sound; setting it moves playback there.
    ///
    /// Thread: setup.
    public var currentTime: TimeInterval {
        get { Double(currentFrame) / format.sampleRate }
        set {
            let frame = AVAudioFramePosition(max(0, min(newValue, duration)) * format.sampleRate)
            if isPlaying {
                pause()
                pausedAt = frame
                _ = play()
            } else {
                pausedAt = frame
            }
        }
    }

    private var currentFrame: AVAudioFramePosition {
        lock.lock()
        let isPlaying = playing
        lock.unlock()
        guard isPlaying, let player, let node = player.lastRenderTime, let t = player.playerTime(forNodeTime: node) else { return pausedAt }
        let length = AVAudioFramePosition(sound.frameLength)
        let position = startFrame + t.sampleTime
        return length > 0 ? (numberOfLoops == 0 ? min(position, length) : position % length) : 0
    }

    /// Seconds on the device's clock (CLOCK_MONOTONIC).
    ///
    /// Thread: any.
    public var deviceCurrentTime: TimeInterval { AVAudioTime.seconds(forHostTime: hostNanoseconds()) }

    /// Builds the engine and opens the device; false when it cannot.
    ///
    /// Thread: setup.
    public func prepareToPlay() -> Bool {
        if engine != nil { return true }
        let engine = AVAudioEngine()
        let player = AVAudioPlayerNode()
        let output = engine.outputNode
        if let currentDevice, let unit = output.audioUnit {
            let name = CFStringCreateWithCString(nil, currentDevice, CFStringBuiltInEncodings.UTF8.rawValue)!
            var reference: Unmanaged<CFString>? = Unmanaged.passUnretained(name)
            AudioUnitSetProperty(
                unit, kAudioOutputUnitProperty_CurrentDevice, kAudioUnitScope_Global, 0, &reference,
                UInt32(MemoryLayout<Unmanaged<CFString>?>.size))
        }
        engine.attach(player)
        engine.connect(player, to: engine.mainMixerNode, format: format)
        engine.connect(engine.mainMixerNode, to: output, format: format)  // the device converts
        player.volume = volume_
        player.pan = pan_
        engine.prepare()
        guard engine.configurationError == nil else { return false }
        self.engine = engine
        self.player = player
        return true
    }

    /// Plays from ``currentTime``; false when the device cannot start.
    ///
    /// Thread: setup.
    @discardableResult
    public func play() -> Bool {
        guard prepareToPlay(), let engine, let player else { return false }
        if isPlaying { return true }
        lock.lock()
        generation += 1
        let current = generation
        lock.unlock()
        let from = AVAudioFrameCount(clamping: min(pausedAt, AVAudioFramePosition(sound.frameLength)))
        startFrame = AVAudioFramePosition(from)
        let first = from == 0 ? sound : tail(from: from)
        if numberOfLoops < 0 {
            player.scheduleBuffer(first)
            player.scheduleBuffer(sound, at: nil, options: .loops)
        } else {
            let last = numberOfLoops
            player.scheduleBuffer(first, completionHandler: last == 0 ? { [weak self] in self?.finished(current) } : nil)
            for loop in 0..<last {
                player.scheduleBuffer(sound, completionHandler: loop == last - 1 ? { [weak self] in self?.finished(current) } : nil)
            }
        }
        // Playing before the device starts: the sound starts with its first period, and the end
        // (which may come at once on a fast device) finds the player playing.
        lock.lock()
        playing = true
        lock.unlock()
        player.play()
        do {
            try engine.start()
        } catch {
            halt()
            return false
        }
        return true
    }

    /// Plays at `time` on ``deviceCurrentTime``'s clock (sooner times play at once).
    ///
    /// Thread: setup.
    @discardableResult
    public func play(atTime time: TimeInterval) -> Bool {
        let wait = time - deviceCurrentTime
        if wait > 0 { usleep(useconds_t(min(wait, 60) * 1e6)) }
        return play()
    }

    /// Stops, keeping the position; play resumes there.
    ///
    /// Thread: setup.
    public func pause() {
        guard isPlaying else { return }
        pausedAt = currentFrame
        halt()
    }

    /// Stops and releases the device; the position stays (set currentTime to 0 to rewind).
    ///
    /// Thread: setup.
    public func stop() {
        if isPlaying { pausedAt = currentFrame }
        halt()
        engine = nil
        player = nil
    }

    private func halt() {
        lock.lock()
        generation += 1  // handlers of the stopped play do nothing
        playing = false
        lock.unlock()
        player?.stop()
        engine?.stop()
    }

    private func tail(from frame: AVAudioFrameCount) -> AVAudioPCMBuffer {
        let count = sound.frameLength - frame
        let buffer = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: max(count, 1))!
        for c in 0..<Int(format.channelCount) {
            (buffer.floatChannelData![c]).update(from: sound.floatChannelData![c] + Int(frame), count: Int(count))
        }
        buffer.frameLength = count
        return buffer
    }

    /// The last scheduled buffer played: stop the device and tell the delegate, off the engine's
    /// delivery thread (stopping joins it).
    private func finished(_ current: Int) {
        DispatchQueue.global().async { [weak self] in
            guard let self else { return }
            self.lock.lock()
            let stale = current != self.generation
            self.lock.unlock()
            if stale { return }
            // The handler runs once the player consumed the last samples, inside a device cycle:
            // stopping now could drop the period that holds them. Two more cycles of the device
            // mean that period was written to it.
            if let unit = self.engine?.outputNode.audioUnit { waitForDeviceCycles(unit, 2) }
            self.halt()
            self.pausedAt = 0
            self.delegate?.audioPlayerDidFinishPlaying(self, successfully: true)
        }
    }
}

/// CLOCK_MONOTONIC in nanoseconds (AVAudioTime's host time).
func hostNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// Counts an I/O unit's render cycles (post-render notifications of element 0).
private final class CycleCount: @unchecked Sendable {
    let cycles = Atomic<Int>(0)
}

private let cycleCountNotify: AURenderCallback = { refCon, flags, _, bus, _, _ in
    if flags.pointee.contains(.unitRenderAction_PostRender) && bus == 0 {
        Unmanaged<CycleCount>.fromOpaque(refCon).takeUnretainedValue().cycles.add(1, ordering: .releasing)
    }
    return noErr
}

/// Waits until `unit` has rendered `count` more cycles (1 s at most: a stopped or stalled device).
///
/// Thread: setup.
private func waitForDeviceCycles(_ unit: AudioUnit, _ count: Int) {
    let counter = CycleCount()
    let refCon = Unmanaged.passUnretained(counter).toOpaque()
    guard AudioUnitAddRenderNotify(unit, cycleCountNotify, refCon) == noErr else { return }
    let deadline = Date().addingTimeInterval(1)
    while counter.cycles.load(ordering: .acquiring) < count && Date() < deadline { usleep(1_000) }
    AudioUnitRemoveRenderNotify(unit, cycleCountNotify, refCon)
}
