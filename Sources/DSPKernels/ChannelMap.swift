/// Routes channels: output channel i takes input channel `map[i]`, or silence for −1 (the
/// AudioConverter / output-unit channel-map convention). The map is copied into storage at
/// creation; `process` only reads it.
public struct ChannelMap: ~Copyable {
    /// Number of input channels `process` reads.
    public let inputChannelCount: Int
    /// Number of output channels `process` writes (the map's length).
    public let outputChannelCount: Int
    let entries: UnsafeMutablePointer<Int>

    /// A map of `map.count` outputs over `inputChannelCount` inputs. Throws `kAudio_ParamError`
    /// for an empty map or an entry outside −1 ..< inputChannelCount. Thread: setup (non-real-time).
    public init(_ map: [Int], inputChannelCount: Int) throws {
        guard !map.isEmpty, inputChannelCount >= 1, map.allSatisfy({ (-1..<inputChannelCount).contains($0) }) else {
            throw DSPKernelError.parameter(
                "A channel map needs entries from −1 (silence) to \(inputChannelCount - 1); \(map) over \(inputChannelCount) input channels has none or a bad one."
            )
        }
        self.inputChannelCount = inputChannelCount
        outputChannelCount = map.count
        entries = .allocate(capacity: map.count)
        entries.initialize(from: map, count: map.count)
    }

    deinit { entries.deallocate() }

    /// The input channel feeding output `channel` (−1 = silence). Thread: any.
    public func source(ofOutput channel: Int) -> Int { entries[channel] }

    /// Copies `frameCount` frames: output i ← input map[i], or zeros. Outputs must not alias
    /// inputs. Thread: render (real-time).
    @_noAllocation @_noLocks
    public func process(
        inputs: UnsafePointer<UnsafePointer<Float>>,
        outputs: UnsafePointer<UnsafeMutablePointer<Float>>, frameCount: Int
    ) {
        for o in 0..<outputChannelCount {
            let out = outputs[o], source = entries[o]
            if source < 0 {
                for i in 0..<frameCount { out[i] = 0 }
            } else {
                let input = inputs[source]
                for i in 0..<frameCount { out[i] = input[i] }
            }
        }
    }
}
