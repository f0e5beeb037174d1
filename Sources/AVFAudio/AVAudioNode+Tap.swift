import AudioToolbox
import Foundation

/// The block a tap calls with each buffer of a bus's output and the time of its first frame.
public typealias AVAudioNodeTapBlock = (AVAudioPCMBuffer, AVAudioTime) -> Void

extension AVAudioNode {
    /// Records what a bus outputs and hands it to `block` in buffers of `bufferSize` frames, on
    /// the engine's delivery thread (never the render thread), as Apple delivers taps. One tap per
    /// bus; `format` must be nil or the bus's output format. A tap that cannot be installed (no
    /// engine, a second tap, another format) is refused with the reason in the engine's
    /// ``AVAudioEngine/configurationError`` instead of Apple's exception.
    ///
    /// Thread: setup.
    public func installTap(
        onBus bus: AVAudioNodeBus, bufferSize: AVAudioFrameCount, format: AVAudioFormat?, block: @escaping AVAudioNodeTapBlock
    ) {
        guard let engine else {
            AVAudioEngine.orphanError = osStatusError(kAudioUnitErr_Uninitialized, "installTap: \(nodeName) is not attached to an engine")
            return
        }
        let busFormat = outputFormat(forBus: bus)
        if taps[bus] != nil {
            return engine.fail(kAudioUnitErr_CannotDoInCurrentContext, "installTap: bus \(bus) of \(nodeName) already has a tap")
        }
        if let format, format != busFormat {
            return engine.fail(
                kAudioUnitErr_FormatNotSupported, "installTap: the tap's format \(format) is not bus \(bus)'s output format \(busFormat)")
        }
        guard bus < numberOfOutputs, busFormat.isStandard else {
            return engine.fail(kAudioUnitErr_InvalidElement, "installTap: \(nodeName) has no float output bus \(bus)")
        }
        let size = max(bufferSize, 1)
        let tap = NodeTap(
            unit: unit, bus: bus, format: busFormat, bufferSize: size, block: block, delivery: engine.delivery)
        let status = AudioUnitAddRenderNotify(unit, nodeTapRenderNotify, Unmanaged.passUnretained(tap).toOpaque())
        guard status == noErr else { return engine.fail(status, "installTap: \(nodeName) refused a render notification") }
        engine.delivery.add(tap)
        taps[bus] = tap
    }

    /// Removes the bus's tap; its block is not running and is not called again when this returns
    /// (unless it is called from the block itself).
    ///
    /// Thread: setup.
    public func removeTap(onBus bus: AVAudioNodeBus) {
        taps.removeValue(forKey: bus)?.remove()
    }
}

/// One installed tap: the render notification's ring and the delivery side.
final class NodeTap: DeliverySource {
    let unit: AudioUnit
    let bus: Int
    let format: AVAudioFormat
    let bufferSize: AVAudioFrameCount
    let block: AVAudioNodeTapBlock
    let ring: FrameRing
    let wake: UnsafeMutablePointer<sem_t>
    weak var delivery: DeliveryThread?
    private var removed = false

    /// Thread: setup.
    init(
        unit: AudioUnit, bus: Int, format: AVAudioFormat, bufferSize: AVAudioFrameCount, block: @escaping AVAudioNodeTapBlock,
        delivery: DeliveryThread
    ) {
        self.unit = unit
        self.bus = bus
        self.format = format
        self.bufferSize = bufferSize
        self.block = block
        // Room for a second of audio or 16 buffers, whichever is more, before frames drop.
        ring = FrameRing(channels: Int(format.channelCount), capacity: max(Int(bufferSize) * 16, Int(format.sampleRate)))
        wake = delivery.wake
        self.delivery = delivery
    }

    /// Thread: setup.
    func remove() {
        guard !removed else { return }
        removed = true
        AudioUnitRemoveRenderNotify(unit, nodeTapRenderNotify, Unmanaged.passUnretained(self).toOpaque())
        delivery?.remove(self)
    }

    /// Frames the ring had no room for (the delivery thread fell behind).
    var droppedFrames: Int { ring.dropped.load(ordering: .relaxed) }

    /// Thread: the delivery thread.
    func deliver() {
        let base = Double(bitPattern: ring.firstSampleTime.load(ordering: .acquiring))
        while ring.available >= Int(bufferSize) {
            guard let buffer = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: bufferSize) else { return }
            let position = ring.readPosition
            ring.read(into: buffer.floatChannelData!, frames: Int(bufferSize))
            buffer.frameLength = bufferSize
            block(buffer, AVAudioTime(sampleTime: AVAudioFramePosition(base) + AVAudioFramePosition(position), atRate: format.sampleRate))
        }
    }
}
