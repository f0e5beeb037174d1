import ALSATestSupport
import AUHost
import Foundation
import Synchronization
import XCTest

/// This test process's ALSA home: the fixture asoundrc through a temporary HOME. The `null`
/// PCM under the file plugin runs as fast as it is fed, so a queue that failed to stop would fill
/// the disk: files this process writes are capped at 512 MiB (a write beyond fails with EFBIG,
/// which stops the device with an error and fails the test instead).
let AudioQueueTestEnvironment: ALSATestHome = {
    signal(SIGXFSZ, SIG_IGN)
    var limit = rlimit()
    getrlimit(Int32(RLIMIT_FSIZE.rawValue), &limit)
    limit.rlim_cur = min(limit.rlim_cur, 512 << 20)
    setrlimit(Int32(RLIMIT_FSIZE.rawValue), &limit)
    return ALSATestHome(prefix: "audioqueue-tests", asoundrc: Bundle.module.url(forResource: "Fixtures/asoundrc", withExtension: nil)!)
}()

/// A JACK server (dummy backend) for the paced tests. JACK keeps at most 8 servers in its
/// machine-wide registry and reclaims a dead server's slot only when a server of the same name
/// starts, so these tests use one fixed name and stop the server with SIGTERM (it unregisters),
/// never leaving a slot behind.
func startJACKServer() throws -> DummyJACKServer {
    try DummyJACKServer(name: "auhost-audioqueue-tests")
}

/// Stops the server gracefully (SIGTERM: it unregisters from JACK's registry).
func stopJACKServer(_ server: DummyJACKServer) {
    guard server.process.isRunning else { return }
    kill(server.process.processIdentifier, SIGTERM)
    server.process.waitUntilExit()
}

/// Interleaved signed 16-bit linear PCM.
func int16Format(channels: UInt32, rate: Double = 48_000) -> AudioStreamBasicDescription {
    AudioStreamBasicDescription(
        mSampleRate: rate, mFormatID: kAudioFormatLinearPCM,
        mFormatFlags: kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked,
        mBytesPerPacket: 2 * channels, mFramesPerPacket: 1, mBytesPerFrame: 2 * channels,
        mChannelsPerFrame: channels, mBitsPerChannel: 16, mReserved: 0)
}

/// Interleaved Float32 linear PCM.
func float32Format(channels: UInt32, rate: Double = 48_000) -> AudioStreamBasicDescription {
    AudioStreamBasicDescription(
        mSampleRate: rate, mFormatID: kAudioFormatLinearPCM,
        mFormatFlags: kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked,
        mBytesPerPacket: 4 * channels, mFramesPerPacket: 1, mBytesPerFrame: 4 * channels,
        mChannelsPerFrame: channels, mBitsPerChannel: 32, mReserved: 0)
}

/// A deterministic 16-bit signal covering the whole range, extremes included.
func testSamples(_ count: Int) -> [Int16] {
    (0..<count).map { i in
        switch i % 97 {
        case 0: return Int16.min
        case 1: return Int16.max
        default: return Int16(truncatingIfNeeded: i &* 7919 &+ (i >> 3))
        }
    }
}

/// Little-endian Float32 values of a raw file.
func float32Values(_ bytes: [UInt8]) -> [Float] {
    stride(from: 0, to: bytes.count - 3, by: 4).map { i in
        Float(bitPattern: UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16 | UInt32(bytes[i + 3]) << 24)
    }
}

/// The last error sentence of this thread.
var lastErrorMessage: String {
    AUHostCopyLastErrorMessage().map { String(cfString: $0.takeRetainedValue()) ?? "" } ?? ""
}

/// The playback pattern of Apple's Audio Queue guide, over samples in memory: each callback
/// fills the returned buffer with the next packets and enqueues it, or stops the queue (not
/// immediately) when there are none left. Records which thread each callback ran on.
final class PlaybackState: @unchecked Sendable {
    let samples: [Int16]
    let channels: Int
    let framesPerBuffer: Int
    var queue: AudioQueueRef?
    var nextFrame = 0
    var done = false
    /// Buffers returned to the callback (read by the test thread while callbacks run).
    let callbackCount = Atomic<Int>(0)
    var callbacks: Int { callbackCount.load(ordering: .acquiring) }
    var callbackThreads: Set<UInt> = []
    let isRunningChanges = Atomic<Int>(0)
    let stopped = Atomic<Bool>(false)

    init(samples: [Int16], channels: Int, framesPerBuffer: Int) {
        self.samples = samples
        self.channels = channels
        self.framesPerBuffer = framesPerBuffer
    }

    var refCon: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    /// Copies the next packets into `buffer` and enqueues it, or stops the queue. Returns false at the end.
    @discardableResult
    func fill(_ queue: AudioQueueRef, _ buffer: AudioQueueBufferRef) -> Bool {
        let frames = min(framesPerBuffer, samples.count / channels - nextFrame)
        guard frames > 0 else {
            if !done { XCTAssertEqual(AudioQueueStop(queue, false), noErr) }
            done = true
            return false
        }
        samples.withUnsafeBytes { source in
            buffer.pointee.mAudioData.copyMemory(from: source.baseAddress! + nextFrame * channels * 2, byteCount: frames * channels * 2)
        }
        buffer.pointee.mAudioDataByteSize = UInt32(frames * channels * 2)
        XCTAssertEqual(AudioQueueEnqueueBuffer(queue, buffer, 0, nil), noErr, lastErrorMessage)
        nextFrame += frames
        return true
    }
}

let playbackCallback: AudioQueueOutputCallback = { userData, queue, buffer in
    let state = Unmanaged<PlaybackState>.fromOpaque(userData!).takeUnretainedValue()
    state.callbackCount.add(1, ordering: .releasing)
    state.callbackThreads.insert(UInt(pthread_self()))
    if !state.done { state.fill(queue, buffer) }
}

let isRunningListener: AudioQueuePropertyListenerProc = { userData, queue, id in
    let state = Unmanaged<PlaybackState>.fromOpaque(userData!).takeUnretainedValue()
    var running: UInt32 = 1
    var size = UInt32(4)
    XCTAssertEqual(AudioQueueGetProperty(queue, id, &running, &size), noErr)
    if running == 0 { state.stopped.store(true, ordering: .releasing) }
    state.isRunningChanges.add(1, ordering: .releasing)
}

/// Makes a playback queue for `state` in `format` with three buffers of `state.framesPerBuffer`
/// frames, on ALSA PCM `device`.
func makePlaybackQueue(_ state: PlaybackState, format: AudioStreamBasicDescription, device: String?) throws -> (
    AudioQueueRef, [AudioQueueBufferRef]
) {
    var format = format
    var queue: AudioQueueRef?
    XCTAssertEqual(AudioQueueNewOutput(&format, playbackCallback, state.refCon, nil, nil, 0, &queue), noErr, lastErrorMessage)
    let q = try XCTUnwrap(queue)
    state.queue = q
    if let device { setCurrentDevice(q, device) }
    XCTAssertEqual(AudioQueueAddPropertyListener(q, kAudioQueueProperty_IsRunning, isRunningListener, state.refCon), noErr)
    var buffers: [AudioQueueBufferRef] = []
    for _ in 0..<3 {
        var buffer: AudioQueueBufferRef?
        XCTAssertEqual(AudioQueueAllocateBuffer(q, UInt32(state.framesPerBuffer * Int(format.mBytesPerFrame)), &buffer), noErr)
        buffers.append(try XCTUnwrap(buffer))
    }
    return (q, buffers)
}

/// Points `queue` at the ALSA PCM `device` (kAudioQueueProperty_CurrentDevice takes a CFStringRef).
func setCurrentDevice(_ queue: AudioQueueRef, _ device: String, file: StaticString = #filePath, line: UInt = #line) {
    let name = CFBridge.string(device)
    defer { name.release() }
    var value: Unmanaged<CFString>? = name
    XCTAssertEqual(
        AudioQueueSetProperty(queue, kAudioQueueProperty_CurrentDevice, &value, UInt32(MemoryLayout<Unmanaged<CFString>?>.size)), noErr,
        lastErrorMessage, file: file, line: line)
}
