/// How an instance is set up: rate, block lengths, atom buffer size, live or offline.
public struct LV2InstanceConfiguration: Sendable {
    /// Frames per second, passed to instantiate and as the `param:sampleRate` option.
    public var sampleRate: Double
    /// The most frames one run may have; every audio/CV buffer holds this many.
    public var maxBlockLength: Int
    /// The fewest frames one run will have (`bufsz:minBlockLength`).
    public var minBlockLength: Int
    /// The usual frames per run (`bufsz:nominalBlockLength`); the only length when the plug-in
    /// requires `bufsz:fixedBlockLength`.
    public var nominalBlockLength: Int
    /// Bytes per atom port buffer (`bufsz:sequenceSize`); raised to a port's `rsz:minimumSize`.
    public var sequenceSize: Int
    /// Live: a worker thread performs scheduled work, `lv2:isLive` is offered, and render-thread
    /// logging is deferred. Offline: scheduled work runs synchronously right after run.
    public var live: Bool
    /// Receives plug-in log messages (default: standard error).
    public var logSink: LV2LogSink

    /// Thread: any.
    public init(
        sampleRate: Double = 48_000, maxBlockLength: Int = 4096, minBlockLength: Int = 1,
        nominalBlockLength: Int? = nil, sequenceSize: Int = 32 * 1024, live: Bool = false,
        logSink: @escaping LV2LogSink = LV2InstanceConfiguration.standardErrorSink
    ) {
        self.sampleRate = sampleRate
        self.maxBlockLength = maxBlockLength
        self.minBlockLength = minBlockLength
        self.nominalBlockLength = nominalBlockLength ?? maxBlockLength
        self.sequenceSize = max(sequenceSize, 32 * 1024)
        self.live = live
        self.logSink = logSink
    }

    /// Writes "lv2 <level> <uri>: message" to standard error. Thread: any (non-real-time).
    public static let standardErrorSink: LV2LogSink = { uri, level, message in
        var line = "lv2 \(level.rawValue) <\(uri)>: \(message)\n"
        line.withUTF8 { _ = fputsBytes($0) }
    }
}

#if canImport(Glibc)
import Glibc
#endif

private func fputsBytes(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    fwrite(bytes.baseAddress, 1, bytes.count, stderr)
}
