import AudioFiles
import AudioTypes
import Foundation

/// One scheduled region as the reader plays it: `loops + 1` passes over `framesPerLoop` file
/// frames from `startFrame`, beginning at `timelineStart` on the player's timeline.
struct FilePlayerRegion {
    let file: AudioFile
    let startFrame: Int64
    let framesPerLoop: Int64
    let loops: Int64
    let timelineStart: Int64
}

/// The file player's reader: turns the schedule into one stream of timeline frames (silence
/// before and between regions, each region's frames loop after loop) and pushes it into a
/// lock-free ring that the render thread drains. A thread of its own keeps the ring full;
/// `fill` may also be called on a setup thread (prime). Both producers hold `lock`, so the
/// ring always has a single producer at a time; the render thread never takes the lock.
///
/// Regions play in the order scheduled; one whose timeline start has already been reached
/// starts right after the previous one ends.
final class FilePlayerReader {
    let ring: FrameRingBuffer
    let channelCount: Int
    let lock = NSLock()
    private var regions: [FilePlayerRegion] = []
    private var regionIndex = 0
    private var loop: Int64 = 0
    private var frameInLoop: Int64 = 0
    /// Timeline frames pushed so far.
    private(set) var timelineFrames: Int64 = 0
    private let chunk = 1024
    private let fileScratch: UnsafeMutablePointer<Float>
    private let fileChannels: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    private let outputChannels: UnsafeMutablePointer<UnsafePointer<Float>>
    private let silence: UnsafeMutablePointer<Float>
    private var stopped = false
    private let finished = DispatchSemaphore(value: 0)
    private var thread: Thread?

    /// A reader pushing `channelCount` channels into a ring of `capacity` frames.
    ///
    /// Thread: setup.
    init(channelCount: Int, capacity: Int) throws {
        do {
            ring = try FrameRingBuffer.allocate(channelCount: channelCount, minimumCapacity: capacity)
        } catch let error as AudioFileError {
            throw AudioError(error.status, error.message)
        }
        self.channelCount = channelCount
        fileScratch = .allocate(capacity: 64 * chunk)
        fileScratch.initialize(repeating: 0, count: 64 * chunk)
        fileChannels = .allocate(capacity: 64)
        for c in 0..<64 { fileChannels[c] = fileScratch + c * chunk }
        silence = .allocate(capacity: chunk)
        silence.initialize(repeating: 0, count: chunk)
        outputChannels = .allocate(capacity: channelCount)
    }

    deinit {
        stop()
        ring.deallocate()
        fileScratch.deallocate()
        fileChannels.deallocate()
        silence.deallocate()
        outputChannels.deallocate()
    }

    /// Starts the thread that keeps the ring full (polling every 2 ms).
    ///
    /// Thread: setup.
    func start() {
        let t = Thread { [unowned self] in
            while true {
                lock.lock()
                if stopped { lock.unlock(); break }
                _ = fillLocked(limit: Int.max)
                lock.unlock()
                usleep(2_000)
            }
            finished.signal()
        }
        t.name = "AUHost file player reader"
        t.qualityOfService = .userInitiated
        thread = t
        t.start()
    }

    /// Stops the thread and waits for it.
    ///
    /// Thread: setup.
    func stop() {
        guard thread != nil else { return }
        lock.withLock { stopped = true }
        finished.wait()
        thread = nil
    }

    /// Adds a region to the end of the schedule.
    ///
    /// Thread: setup.
    func add(_ region: FilePlayerRegion) {
        lock.withLock { regions.append(region) }
    }

    /// Forgets the schedule and empties the ring. The render thread must not be rendering.
    ///
    /// Thread: setup.
    func clear(into scratch: UnsafePointer<UnsafeMutablePointer<Float>>, scratchFrames: Int) {
        lock.withLock {
            regions = []
            regionIndex = 0; loop = 0; frameInLoop = 0; timelineFrames = 0
            while ring.pop(into: scratch, maximumFrames: scratchFrames) > 0 {}
        }
    }

    /// Pushes up to `limit` timeline frames (as many as fit); returns how many.
    ///
    /// Thread: setup (prime) or the reader thread.
    func fill(limit: Int) -> Int { lock.withLock { fillLocked(limit: limit) } }

    private func fillLocked(limit: Int) -> Int {
        var budget = min(limit, ring.capacity - ring.availableFrames)
        var pushed = 0
        while budget > 0 && regionIndex < regions.count {
            let region = regions[regionIndex]
            if timelineFrames < region.timelineStart {
                let gap = Int(min(region.timelineStart - timelineFrames, Int64(min(budget, chunk))))
                for c in 0..<channelCount { outputChannels[c] = UnsafePointer(silence) }
                let n = ring.push(outputChannels, frameCount: gap)
                timelineFrames += Int64(n); budget -= n; pushed += n
                continue
            }
            let n = Int(min(region.framesPerLoop - frameInLoop, Int64(min(budget, chunk))))
            readRegion(region, frames: n)
            let done = ring.push(outputChannels, frameCount: n)
            timelineFrames += Int64(done); budget -= done; pushed += done
            frameInLoop += Int64(done)
            if frameInLoop >= region.framesPerLoop {
                frameInLoop = 0
                loop += 1
                if loop > region.loops { loop = 0; regionIndex += 1 }
            }
        }
        return pushed
    }

    /// Reads `frames` frames of the region's current loop into the scratch and points
    /// `outputChannels` at them: file channel c feeds output c, a mono file feeds every output,
    /// outputs past the file's channels are silent. Frames the file lacks read as silence.
    private func readRegion(_ region: FilePlayerRegion, frames: Int) {
        let fileChannelCount = min(region.file.channelCount, 64)
        var got = 0
        if (try? region.file.seek(toFrame: region.startFrame + frameInLoop)) != nil {
            got = (try? region.file.read(into: fileChannels, frameCount: frames)) ?? 0
        }
        for c in 0..<fileChannelCount where got < frames {
            (fileChannels[c] + got).update(repeating: 0, count: frames - got)
        }
        for c in 0..<channelCount {
            let source = fileChannelCount == 1 ? 0 : c
            outputChannels[c] = source < fileChannelCount ? UnsafePointer(fileChannels[source]) : UnsafePointer(silence)
        }
    }
}
