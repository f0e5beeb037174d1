import AUHost
import DSPKernels

extension LoadedAudio {
    /// The same audio at `rate`: libsoxr at its very-high quality through ConverterKernel, the
    /// resampler's delay removed, frames × rate / sampleRate frames long (rounded). For a device
    /// whose rate the host does not choose (a JACK server's).
    ///
    /// Thread: setup.
    func resampled(to rate: Double) throws -> LoadedAudio {
        guard rate != sampleRate else { return self }
        let channels = samples.bufferCount
        let from = AudioStreamBasicDescription.canonical(sampleRate: sampleRate, channels: UInt32(channels))
        let to = AudioStreamBasicDescription.canonical(sampleRate: rate, channels: UInt32(channels))
        let block = 4_096
        var kernel = try ConverterKernel(input: from, output: to, map: Array(0..<channels), maximumFrames: block, quality: .veryHigh)
        let wanted = Int((Double(frames) * rate / sampleRate).rounded())
        var converted = [[Float]](repeating: [], count: channels)
        let emitted = AudioBufferStorage(format: to, capacity: UInt32(block))
        let input = AudioBufferList.allocate(maximumBuffers: channels)
        defer { free(input.unsafeMutablePointer) }
        var position = 0
        while position < frames {
            let n = min(block, frames - position)
            for c in 0..<channels {
                input[c] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(n * 4), mData: samples.channel(c) + position)
            }
            kernel.consume(input.unsafePointer, frames: n)
            position += n
            Self.take(&kernel, into: &converted, through: emitted, block: block)
        }
        while kernel.flushResampler() { Self.take(&kernel, into: &converted, through: emitted, block: block) }
        Self.take(&kernel, into: &converted, through: emitted, block: block)
        let storage = AudioBufferStorage(format: to, capacity: UInt32(max(wanted, 1)))
        storage.clear(frames: UInt32(max(wanted, 1)))
        for c in 0..<channels {
            let usable = converted[c].dropFirst(kernel.prerollFrames).prefix(wanted)
            usable.withContiguousStorageIfAvailable { storage.channel(c).update(from: $0.baseAddress!, count: $0.count) }
        }
        return LoadedAudio(samples: storage, frames: wanted, sampleRate: rate, encoding: encoding)
    }

    /// Moves what the kernel converted (and what its pending input still gives) into `converted`.
    private static func take(
        _ kernel: inout ConverterKernel, into converted: inout [[Float]], through emitted: AudioBufferStorage, block: Int
    ) {
        repeat {
            while kernel.fifoCount > 0 {
                let n = min(kernel.fifoCount, block)
                emitted.prepare(frames: UInt32(n))
                kernel.emit(into: emitted.list, frames: n)
                for c in converted.indices { converted[c].append(contentsOf: UnsafeBufferPointer(start: emitted.channel(c), count: n)) }
            }
        } while kernel.pendingFrames > 0 && kernel.drainPending()
    }
}
