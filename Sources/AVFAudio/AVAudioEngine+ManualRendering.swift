import AUHost
import AudioToolbox
import Foundation
import Synchronization

/// How a manually rendering engine is driven.
public enum AVAudioEngineManualRenderingMode: Int, Sendable {
    /// The application renders as fast as it likes (renderOffline or the block, any thread).
    case offline = 0
    /// The application's real-time thread calls ``AVAudioEngine/manualRenderingBlock``.
    case realtime = 1
}

/// What a manual render call achieved.
public enum AVAudioEngineManualRenderingStatus: Int, Sendable {
    case error = -1
    case success = 0
    case insufficientDataFromInputNode = 1
    case cannotDoInCurrentContext = 2
}

/// The block that renders a manually rendering engine: frames, the buffers to fill (their sizes
/// are set), and where to put an error's status.
public typealias AVAudioEngineManualRenderingBlock =
    (AVAudioFrameCount, UnsafeMutablePointer<AudioBufferList>, UnsafeMutablePointer<OSStatus>?) -> AVAudioEngineManualRenderingStatus

/// What the render block reads: the head unit and the time, set up while the engine is stopped.
final class ManualRenderState: @unchecked Sendable {
    /// The head (the output node's generic output unit).
    var unit: AudioUnit?
    var maximumFrames: AVAudioFrameCount = 4096
    var bytesPerFrame: UInt32 = 4
    let running = Atomic<Int>(0)
    /// The sample time of the next frame to render.
    let sampleTime = Atomic<Int64>(0)
    /// The sample time of the last cycle's first frame (-1 before one).
    let lastSampleTime = Atomic<Int64>(-1)
}

extension AVAudioEngine {
    /// Detaches the engine from the device: from now on the application pulls `format` (the output
    /// node's format) through ``renderOffline(_:to:)`` or ``manualRenderingBlock``, at most
    /// `maximumFrameCount` frames a call. The engine must be stopped. Connections into the output
    /// node take `format`'s rate and channel count.
    ///
    /// Thread: setup.
    public func enableManualRenderingMode(
        _ mode: AVAudioEngineManualRenderingMode, format pcmFormat: AVAudioFormat, maximumFrameCount: AVAudioFrameCount
    ) throws {
        lock.lock()
        defer { lock.unlock() }
        guard !isRunning else {
            throw osStatusError(kAudioUnitErr_CannotDoInCurrentContext, "enableManualRenderingMode: stop the engine first")
        }
        guard maximumFrameCount > 0, pcmFormat.streamDescription.pointee.mFormatID == kAudioFormatLinearPCM else {
            throw osStatusError(kAudio_ParamError, "enableManualRenderingMode needs a PCM format and a maximum frame count above 0")
        }
        try? graph.uninitialize()
        try switchOutput(manual: true) { node in
            try node.setManualFormat(pcmFormat, maximumFrameCount: maximumFrameCount)
        }
        manualMode = mode
        manualFormat = pcmFormat
        manual.maximumFrames = maximumFrameCount
        manual.bytesPerFrame = pcmFormat.streamDescription.pointee.mBytesPerFrame
        manual.unit = outputNode.unit
        manual.sampleTime.store(0, ordering: .releasing)
        manual.lastSampleTime.store(-1, ordering: .releasing)
    }

    /// Back to the device. The engine must be stopped.
    ///
    /// Thread: setup.
    public func disableManualRenderingMode() {
        lock.lock()
        defer { lock.unlock() }
        guard manualMode != nil, !isRunning else { return }
        try? graph.uninitialize()
        do {
            try switchOutput(manual: false) { _ in }
        } catch {
            fail(asNSError(error).code32, "disableManualRenderingMode: \(error)")
        }
        manualMode = nil
        manualFormat = nil
        manual.unit = nil
    }

    /// Gives the output node a new unit and remakes the connections into it.
    private func switchOutput(manual: Bool, configure: (AVAudioOutputNode) throws -> Void) throws {
        let output = outputNode
        let earlier = configurationError
        let into = connections.filter { $0.destination === output }
        let wasAttached = output.graphNode
        if let id = wasAttached {
            for c in into { unplug(c) }
            try graph.detach(id)
        }
        connections.removeAll { $0.destination === output }
        try output.replaceUnit(manual: manual)
        try configure(output)
        if wasAttached != nil {
            output.graphNode = try graph.attach(adopting: output.unit)
            for c in into {
                let f = output.inputFormat(forBus: c.destinationBus)
                connect(c.source, to: output, fromBus: c.sourceBus, toBus: c.destinationBus, format: f)
            }
        }
        if let error = configurationError, error !== earlier { throw error }  // only a reconnect's own failure
    }

    /// Whether the engine renders for the application.
    ///
    /// Thread: any.
    public var isInManualRenderingMode: Bool { manualMode != nil }
    /// Thread: any.
    public var manualRenderingMode: AVAudioEngineManualRenderingMode { manualMode ?? .offline }
    /// The format the application pulls.
    ///
    /// Thread: any.
    public var manualRenderingFormat: AVAudioFormat {
        manualFormat ?? outputNode.outputFormat(forBus: 0)
    }
    /// Thread: any.
    public var manualRenderingMaximumFrameCount: AVAudioFrameCount { manual.maximumFrames }
    /// The sample time of the next frame manual rendering produces.
    ///
    /// Thread: any.
    public var manualRenderingSampleTime: AVAudioFramePosition { manual.sampleTime.load(ordering: .acquiring) }

    /// Renders `numberOfFrames` frames into `buffer` (in ``manualRenderingFormat``), which then
    /// holds them (frameLength). Throws when the engine is not manually rendering or not started,
    /// for another format, or for more frames than the buffer or the maximum frame count.
    ///
    /// Thread: the application's rendering thread (offline mode).
    public func renderOffline(_ numberOfFrames: AVAudioFrameCount, to buffer: AVAudioPCMBuffer) throws -> AVAudioEngineManualRenderingStatus
    {
        guard let manualFormat else {
            throw osStatusError(kAudioUnitErr_CannotDoInCurrentContext, "renderOffline: the engine is not in manual rendering mode")
        }
        guard manual.running.load(ordering: .acquiring) != 0 else {
            throw osStatusError(kAudioUnitErr_Uninitialized, "renderOffline: start the engine first")
        }
        guard buffer.format == manualFormat else {
            throw osStatusError(
                kAudioUnitErr_FormatNotSupported, "renderOffline: the buffer's format \(buffer.format) is not the engine's \(manualFormat)")
        }
        guard numberOfFrames <= buffer.frameCapacity, numberOfFrames <= manual.maximumFrames else {
            throw osStatusError(
                kAudioUnitErr_TooManyFramesToProcess,
                "renderOffline: \(numberOfFrames) frames exceed the buffer's \(buffer.frameCapacity) or the maximum \(manual.maximumFrames)"
            )
        }
        buffer.frameLength = numberOfFrames
        var status: OSStatus = noErr
        let result = renderManually(manual, numberOfFrames, buffer.mutableAudioBufferList, &status)
        if result == .error {
            buffer.frameLength = 0
            throw osStatusError(status, "renderOffline: the engine failed to render \(numberOfFrames) frames")
        }
        return result
    }

    /// The block that renders the engine: callable from a real-time thread (it allocates nothing,
    /// locks nothing and touches no reference count), or any thread in offline mode.
    ///
    /// Thread: any (the block: render).
    public var manualRenderingBlock: AVAudioEngineManualRenderingBlock {
        let state = Unmanaged.passUnretained(manual).toOpaque()
        return { frames, list, status in
            Unmanaged<ManualRenderState>.fromOpaque(state)._withUnsafeGuaranteedRef { renderManually($0, frames, list, status) }
        }
    }
}
