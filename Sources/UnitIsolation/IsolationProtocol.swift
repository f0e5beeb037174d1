import AUHostCore
import CUnitIsolation
import Foundation

/// The control channel between a host and its unit-host child: framed messages on a stream
/// socket. A request is (opcode UInt32, length UInt32, payload); a reply is (status Int32, length
/// UInt32, payload). Payloads are bounded (``maximumPayload``) and read with exact sizes: the host
/// treats the child as untrusted, so a reply that is too long, too short or malformed is a fault,
/// never a crash or an unbounded allocation. Setup calls only; audio goes through the shared block.
public enum IsolationOpcode: UInt32 {
    /// → UnitShape.
    case describe = 1
    /// (scope, element, ASBD) → status.
    case setFormat = 2
    /// (frames) → status.
    case setMaximumFrames = 3
    /// (input channel counts, output channel counts, max frames, block size) → status, message.
    case initialize = 4
    case uninitialize = 5
    case reset = 6
    /// (id, scope, element, value) → status.
    case setParameter = 7
    /// → ClassInfo as a binary property list.
    case getClassInfo = 8
    /// (binary property list) → status.
    case setClassInfo = 9
    case quit = 10
    /// (preset number) → the parameter values after it, in the order `describe` listed them.
    case setFactoryPreset = 11
    /// (a UI's atoms: count, then port and text each) → (1 when the plug-in has atom ports for a
    /// UI, else 0 and nothing more; atoms dropped toward the plug-in and toward the UI; the
    /// plug-in's atoms since the last exchange, as sent): an open UI's atoms, at each of its idles.
    case exchangeUIAtoms = 12
    /// Lets another UI take the plug-in's atoms.
    case closeUIAtoms = 13
    /// (UI host arguments: count and each; display, "" for the child's own; 1 and the requestable
    /// URIs joined by spaces, or 0) → status; on success one byte follows carrying the UI's socket
    /// (SCM_RIGHTS). The child shows the UI on a thread beside the running plug-in (instance-access).
    case openUI = 14
}

/// The longest atom line either side sends or accepts (the UI child's own bound).
public let maximumUIAtomLineBytes = 1 << 20

extension ByteWriter {
    /// Atom lines: a count, then each line's port and text.
    public mutating func atomLines(_ lines: [UIAtomLine]) {
        u32(UInt32(lines.count))
        for line in lines {
            u32(line.port)
            string(line.text)
        }
    }
}

extension ByteReader {
    /// Atom lines as ``ByteWriter/atomLines(_:)`` writes them; each text at most
    /// ``maximumUIAtomLineBytes`` (the message's own bound limits the count).
    public mutating func atomLines() throws -> [UIAtomLine] {
        let count = Int(try u32())
        var lines: [UIAtomLine] = []
        for _ in 0..<count {
            let port = try u32()
            lines.append(UIAtomLine(port: port, text: try string(limit: maximumUIAtomLineBytes)))
        }
        return lines
    }
}

/// The most bytes one message may carry (a ClassInfo of a large plug-in fits easily).
public let maximumPayload = 4 << 20

/// A malformed message or a broken channel. Thread: any.
public struct IsolationProtocolError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Appends little-endian values to a payload. Thread: setup.
public struct ByteWriter {
    public private(set) var bytes: [UInt8] = []
    public init() {}
    public mutating func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { bytes += $0 } }
    public mutating func i32(_ v: Int32) { u32(UInt32(bitPattern: v)) }
    public mutating func f32(_ v: Float) { u32(v.bitPattern) }
    public mutating func f64(_ v: Double) { withUnsafeBytes(of: v.bitPattern.littleEndian) { bytes += $0 } }
    public mutating func data(_ d: [UInt8]) {
        u32(UInt32(d.count))
        bytes += d
    }
    public mutating func string(_ s: String) { data(Array(s.utf8)) }
    public mutating func format(_ f: AudioStreamBasicDescription) {
        f64(f.mSampleRate)
        for v in [
            f.mFormatID, f.mFormatFlags, f.mBytesPerPacket, f.mFramesPerPacket, f.mBytesPerFrame, f.mChannelsPerFrame, f.mBitsPerChannel,
        ] {
            u32(v)
        }
    }
}

/// Reads what ByteWriter wrote; every read checks the bytes left. Thread: setup.
public struct ByteReader {
    private let bytes: [UInt8]
    private var at = 0
    public init(_ bytes: [UInt8]) { self.bytes = bytes }
    public var isAtEnd: Bool { at == bytes.count }

    private mutating func take(_ n: Int) throws -> ArraySlice<UInt8> {
        guard n >= 0, bytes.count - at >= n else { throw IsolationProtocolError("a message ended early (wanted \(n) more bytes)") }
        defer { at += n }
        return bytes[at..<at + n]
    }
    public mutating func u32() throws -> UInt32 {
        try take(4).reversed().reduce(0) { ($0 << 8) | UInt32($1) }
    }
    public mutating func i32() throws -> Int32 { Int32(bitPattern: try u32()) }
    public mutating func f32() throws -> Float { Float(bitPattern: try u32()) }
    public mutating func f64() throws -> Double {
        Double(bitPattern: try take(8).reversed().reduce(UInt64(0)) { ($0 << 8) | UInt64($1) })
    }
    public mutating func data(limit: Int = maximumPayload) throws -> [UInt8] {
        let n = Int(try u32())
        guard n <= limit else { throw IsolationProtocolError("a field of \(n) bytes exceeds its limit of \(limit)") }
        return Array(try take(n))
    }
    public mutating func string(limit: Int = 4096) throws -> String {
        String(decoding: try data(limit: limit), as: UTF8.self)
    }
    public mutating func format() throws -> AudioStreamBasicDescription {
        var f = AudioStreamBasicDescription()
        f.mSampleRate = try f64()
        f.mFormatID = try u32()
        f.mFormatFlags = try u32()
        f.mBytesPerPacket = try u32()
        f.mFramesPerPacket = try u32()
        f.mBytesPerFrame = try u32()
        f.mChannelsPerFrame = try u32()
        f.mBitsPerChannel = try u32()
        return f
    }
}

/// Framed reads and writes on a socket. Thread: setup.
public enum ControlChannel {
    /// Writes a frame: two header words and a payload.
    public static func send(_ fd: Int32, _ first: UInt32, _ payload: [UInt8]) throws {
        var w = ByteWriter()
        w.u32(first)
        w.u32(UInt32(payload.count))
        try writeAll(fd, w.bytes + payload)
    }

    /// Reads a frame (first word, payload) of at most ``maximumPayload`` bytes.
    public static func receive(_ fd: Int32) throws -> (UInt32, [UInt8]) {
        var header = ByteReader(try readExactly(fd, 8))
        let first = try header.u32()
        let length = Int(try header.u32())
        guard length <= maximumPayload else {
            throw IsolationProtocolError("a message of \(length) bytes exceeds the limit of \(maximumPayload)")
        }
        return (first, try readExactly(fd, length))
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw IsolationProtocolError("the control channel closed (\(String(cString: strerror(errno))))") }
            sent += n
        }
    }

    private static func readExactly(_ fd: Int32, _ count: Int) throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        var got = 0
        while got < count {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress! + got, count - got, 0) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                throw IsolationProtocolError("the unit's process did not answer in time")
            }
            guard n > 0 else { throw IsolationProtocolError("the control channel closed") }
            got += n
        }
        return buffer
    }
}

/// What the child reports about its unit: element formats, channel capabilities, latency, tail
/// and global parameters with their current values. Thread: setup.
public struct UnitShape {
    public var name: String
    public var inputFormats: [AudioStreamBasicDescription]
    public var outputFormats: [AudioStreamBasicDescription]
    public var channelCapabilities: [AUChannelInfo]
    public var latency: Double
    public var tailTime: Double
    public var parameters: [(definition: ParameterDefinition, value: Float)]
    public var factoryPresets: [(number: Int32, name: String)]

    public init(
        name: String, inputFormats: [AudioStreamBasicDescription], outputFormats: [AudioStreamBasicDescription],
        channelCapabilities: [AUChannelInfo], latency: Double, tailTime: Double,
        parameters: [(definition: ParameterDefinition, value: Float)], factoryPresets: [(number: Int32, name: String)] = []
    ) {
        self.factoryPresets = factoryPresets
        self.name = name
        self.inputFormats = inputFormats
        self.outputFormats = outputFormats
        self.channelCapabilities = channelCapabilities
        self.latency = latency
        self.tailTime = tailTime
        self.parameters = parameters
    }

    public var encoded: [UInt8] {
        var w = ByteWriter()
        w.string(name)
        w.u32(UInt32(inputFormats.count))
        inputFormats.forEach { w.format($0) }
        w.u32(UInt32(outputFormats.count))
        outputFormats.forEach { w.format($0) }
        w.u32(UInt32(channelCapabilities.count))
        for c in channelCapabilities {
            w.i32(Int32(c.inChannels))
            w.i32(Int32(c.outChannels))
        }
        w.f64(latency)
        w.f64(tailTime)
        w.u32(UInt32(parameters.count))
        for (d, value) in parameters {
            w.u32(d.id)
            w.string(d.name)
            w.u32(d.unit)
            w.f32(d.minValue)
            w.f32(d.maxValue)
            w.f32(d.defaultValue)
            w.u32(d.flags.rawValue)
            w.f32(value)
            w.u32(UInt32(d.valueStrings.count))
            d.valueStrings.forEach { w.string($0) }
        }
        w.u32(UInt32(factoryPresets.count))
        for p in factoryPresets {
            w.i32(p.number)
            w.string(p.name)
        }
        return w.bytes
    }

    /// Decodes and checks a shape (bounded counts: the child is untrusted).
    public init(decoding bytes: [UInt8]) throws {
        var r = ByteReader(bytes)
        name = try r.string()
        func count(_ what: String, limit: UInt32) throws -> Int {
            let n = try r.u32()
            guard n <= limit else { throw IsolationProtocolError("the unit reported \(n) \(what) (at most \(limit))") }
            return Int(n)
        }
        // The proxy sizes its buses by these formats: the boundary's own checks apply.
        func format(_ scope: String, _ element: Int) throws -> AudioStreamBasicDescription {
            let f = try r.format()
            if let problem = f.boundaryProblem { throw IsolationProtocolError("the unit's \(scope) element \(element): \(problem)") }
            return f
        }
        inputFormats = try (0..<count("input elements", limit: UInt32(AUHOST_ISO_MAX_BUSES))).map { try format("input", $0) }
        outputFormats = try (0..<count("output elements", limit: UInt32(AUHOST_ISO_MAX_BUSES))).map { try format("output", $0) }
        channelCapabilities = try (0..<count("channel configurations", limit: 256)).map { _ in
            AUChannelInfo(inChannels: Int16(clamping: try r.i32()), outChannels: Int16(clamping: try r.i32()))
        }
        latency = try r.f64()
        tailTime = try r.f64()
        guard latency.isFinite, latency >= 0, tailTime.isFinite, tailTime >= 0 else {
            throw IsolationProtocolError("the unit reported a latency of \(latency) s and a tail of \(tailTime) s")
        }
        parameters = try (0..<count("parameters", limit: 4096)).map { _ in
            let id = try r.u32()
            let name = try r.string()
            let unit: AudioUnitParameterUnit = try r.u32()
            // Subnormals and -0 read as +0: a thread with denormals-are-zero set compares a
            // subnormal as 0, and a range clamped with -0 and +0 depends on the order of min/max.
            func normal(_ x: Float) -> Float { x.isSubnormal || x == 0 ? 0 : x }
            let minValue = normal(try r.f32()), maxValue = normal(try r.f32()), defaultValue = normal(try r.f32())
            let flags = AudioUnitParameterOptions(rawValue: try r.u32())
            let value = normal(try r.f32())
            let strings = try (0..<count("value strings", limit: 4096)).map { _ in try r.string() }
            guard minValue.isFinite, maxValue.isFinite, minValue <= maxValue, value.isFinite else {
                throw IsolationProtocolError("parameter \(id) has an invalid range or value")
            }
            var d = ParameterDefinition(
                id: id, name: name, unit: unit, min: minValue, max: maxValue,
                default: Swift.min(Swift.max(defaultValue.isFinite ? defaultValue : minValue, minValue), maxValue))
            d.flags = flags.union([.flag_IsReadable, .flag_IsWritable])
                .subtracting([.flag_HasCFNameString, .flag_CFNameRelease, .flag_ValuesHaveStrings])
                .union(strings.isEmpty ? [] : .flag_ValuesHaveStrings)
            d.valueStrings = strings
            return (d, value)
        }
        factoryPresets = try (0..<count("factory presets", limit: 4096)).map { _ in (try r.i32(), try r.string()) }
        guard r.isAtEnd else { throw IsolationProtocolError("the unit's description has trailing bytes") }
    }
}
