import Foundation
import Synchronization

/// Records from a render thread to a file without blocking it: the render thread pushes frames
/// into a preallocated `FrameRingBuffer`; a writer thread drains the ring into the `AudioFile`.
///
/// Buffer size: `defaultCapacityFrames` (131072 frames, 2.7 s at 48 kHz; rounded up to a power of
/// two) unless given — the longest disk stall survived without loss is capacity ÷ sample rate.
/// Frames that do not fit are dropped and counted (`overflowFrames`); the render thread never
/// waits. The file is created with `updatesHeaderAfterEachWrite`, so after every chunk the
/// writer hands to libsndfile the header describes all frames written so far: if the process
/// dies (SIGINT, SIGKILL), every frame counted in `framesWritten` is readable.
///
/// Lifecycle: create (setup thread) → push from the render thread through `renderHandle` →
/// `flush()` whenever wanted → `close()` (setup thread; writes everything pushed, then closes the
/// file). The render handle must not be used after `close()`.
public final class AsyncAudioFileWriter: @unchecked Sendable {
    /// The ring size used when none is given, in frames.
    public static let defaultCapacityFrames = 131_072
    /// The file being written (touched only by the writer thread until `close()` returns).
    public let file: AudioFile
    /// What the render thread pushes into. Thread: render (real-time) for `push`.
    public let renderHandle: FrameRingBuffer
    let chunkFrames: Int
    let chunk: UnsafeMutablePointer<Float>
    let chunkChannels: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    let chunkSources: UnsafeMutablePointer<UnsafePointer<Float>>
    let written = Atomic<Int>(0)
    let stopRequested = Atomic<Bool>(false)
    let finished = DispatchSemaphore(value: 0)
    let errorLock = NSLock()
    var writerError: Error?
    var isClosed = false
    /// Seconds the writer sleeps after each chunk: simulates a slow disk in tests.
    let pauseAfterEachChunk: Double

    /// Creates the file (`AudioFile.create(... updatesHeaderAfterEachWrite: true)`), the ring of
    /// `capacityFrames` frames and the writer thread, which starts at once. Throws as
    /// `AudioFile.create` does. Thread: setup (non-real-time).
    public convenience init(
        path: String, type: AudioFileType, format: AudioFileDataFormat,
        capacityFrames: Int = AsyncAudioFileWriter.defaultCapacityFrames
    ) throws {
        let file = try AudioFile.create(writingAt: path, type: type, format: format, updatesHeaderAfterEachWrite: true)
        try self.init(file: file, capacityFrames: capacityFrames, pauseAfterEachChunk: 0)
    }

    /// Writes into an already created `file` (create it with `updatesHeaderAfterEachWrite` so a
    /// killed process leaves every written frame readable). `pauseAfterEachChunk` seconds of sleep
    /// after each chunk simulate a slow disk in tests (0 in use). The writer owns the file from
    /// now on. Thread: setup (non-real-time).
    public init(file: AudioFile, capacityFrames: Int, pauseAfterEachChunk: Double = 0) throws {
        self.file = file
        self.pauseAfterEachChunk = pauseAfterEachChunk
        renderHandle = try FrameRingBuffer.allocate(channelCount: file.channelCount, minimumCapacity: capacityFrames)
        // A chunk can take everything the ring holds, so a stalled writer catches up in one write.
        chunkFrames = renderHandle.capacity
        chunk = .allocate(capacity: chunkFrames * file.channelCount)
        chunkChannels = .allocate(capacity: file.channelCount)
        chunkSources = .allocate(capacity: file.channelCount)
        for c in 0..<file.channelCount {
            chunkChannels[c] = chunk + c * chunkFrames
            chunkSources[c] = UnsafePointer(chunk + c * chunkFrames)
        }
        let thread = Thread { [self] in drainLoop() }
        thread.name = "AsyncAudioFileWriter"
        thread.start()
    }

    deinit {
        if !isClosed { try? close() }
        renderHandle.deallocate()
        chunk.deallocate()
        chunkChannels.deallocate()
        chunkSources.deallocate()
    }

    /// The writer thread: drain, write, repeat; poll every 2 ms when idle; exit when asked to
    /// stop and nothing is left.
    private func drainLoop() {
        while true {
            let n = renderHandle.pop(into: chunkChannels, maximumFrames: chunkFrames)
            if n > 0 {
                do {
                    try file.write(from: chunkSources, frameCount: n)
                    written.wrappingAdd(n, ordering: .releasing)
                } catch {
                    errorLock.withLock { if writerError == nil { writerError = error } }
                }
                if pauseAfterEachChunk > 0 { Thread.sleep(forTimeInterval: pauseAfterEachChunk) }
            } else if stopRequested.load(ordering: .acquiring) && renderHandle.availableFrames == 0 {
                break
            } else {
                usleep(2_000)
            }
        }
        finished.signal()
    }

    /// Frames written to the file so far (readable even if the process dies now). Thread: any.
    public var framesWritten: Int { written.load(ordering: .acquiring) }
    /// Frames the render thread pushed that did not fit and were dropped. Thread: any.
    public var overflowFrames: Int { renderHandle.overflowFrames }

    /// Waits until every frame pushed before this call is in the file; rethrows a write error.
    /// Thread: setup (non-real-time) — it blocks.
    public func flush() throws {
        let target = renderHandle.pushedFrames
        while framesWritten < target {
            if let error = errorLock.withLock({ writerError }) { throw error }
            usleep(1_000)
        }
        if let error = errorLock.withLock({ writerError }) { throw error }
    }

    /// Writes everything pushed, stops the writer thread and closes the file (finalising its
    /// header). Rethrows the first write error. Closing twice is a no-op.
    /// Thread: setup (non-real-time) — it blocks.
    public func close() throws {
        guard !isClosed else { return }
        isClosed = true
        stopRequested.store(true, ordering: .releasing)
        finished.wait()
        try file.close()
        if let error = errorLock.withLock({ writerError }) { throw error }
    }
}
