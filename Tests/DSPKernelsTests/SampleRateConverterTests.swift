import XCTest
import SignalTestSupport
import Glibc
import Foundation
@testable import DSPKernels

final class SampleRateConverterTests: XCTestCase {
    /// The child process of `testSteadyStateProcessingDoesNotAllocate` starts here, before any test
    /// (as a test of its own it would count as skipped in every ordinary run).
    override class func setUp() {
        super.setUp()
        if ProcessInfo.processInfo.environment["SRC_ALLOCATION_PROBE"] == "1" { SRCAllocationProbe.run() }
    }

    /// Streams `input` through `converter` in `block`-frame pieces, then flushes; returns the output.
    func convert(_ converter: inout SampleRateConverter, _ input: [Float], block: Int) -> [Float] {
        var output: [Float] = []
        let capacity = converter.maximumOutputFrames(forInputFrames: block)
        let outBuffer = UnsafeMutablePointer<Float>.allocate(capacity: capacity)
        defer { outBuffer.deallocate() }
        input.withUnsafeBufferPointer { source in
            var position = 0
            while position < input.count {
                let n = min(block, input.count - position)
                let inputs = [UnsafePointer(source.baseAddress! + position)]
                let result = converter.process(inputs: inputs, inputFrames: n, outputs: [outBuffer], outputCapacity: capacity)
                output.append(contentsOf: UnsafeBufferPointer(start: outBuffer, count: result.produced))
                position += result.consumed
            }
        }
        while true {
            let produced = converter.flush(outputs: [outBuffer], outputCapacity: capacity)
            if produced == 0 { break }
            output.append(contentsOf: UnsafeBufferPointer(start: outBuffer, count: produced))
        }
        return output
    }

    func testSineFrom44_1To48kHzKeepsTHDPlusNoiseBelowMinus90dB() throws {
        var converter = try SampleRateConverter(
            inputRate: 44_100, outputRate: 48_000, channelCount: 1,
            quality: .high, maximumInputFrames: 512)
        let input = sine(frequency: 1_000, sampleRate: 44_100, count: 44_100 * 2)
        let output = convert(&converter, input, block: 512)
        // Total output matches the rate ratio (latency is flushed out, not lost).
        XCTAssertEqual(Double(output.count), Double(input.count) * 48_000 / 44_100, accuracy: 2)
        let window = output[24_000..<72_000]  // steady state, well away from both ends
        let fit = SineFit(window, frequency: 1_000, sampleRate: 48_000)
        let thdPlusNoise = 10 * log10(fit.residualPower / fit.signalPower)
        print("44.1→48 kHz, 1 kHz sine: amplitude \(fit.amplitude), THD+N \(thdPlusNoise) dB")
        XCTAssertEqual(fit.amplitude, 0.5, accuracy: 0.5 * 0.001)
        XCTAssertLessThan(thdPlusNoise, -90)
    }

    func testOutputIsAlignedWithTheInputAfterLatency() throws {
        // An impulse train's first impulse comes out where its time maps to (soxr trims its own
        // filter delay), so a 2:1 conversion puts input frame n at output frame 2n.
        var converter = try SampleRateConverter(
            inputRate: 24_000, outputRate: 48_000, channelCount: 1,
            quality: .veryHigh, maximumInputFrames: 256)
        var input = [Float](repeating: 0, count: 4_800)
        input[1_000] = 1
        let output = convert(&converter, input, block: 256)
        XCTAssertEqual(output.count, 9_600)
        let peak = output.indices.max { abs(output[$0]) < abs(output[$1]) }!
        XCTAssertEqual(peak, 2_000)
    }

    /// Counts the allocations of 1000 steady-state `process` calls with glibc's mtrace, in a
    /// child process started with libc_malloc_debug preloaded (see `SRCAllocationProbe`).
    func testSteadyStateProcessingDoesNotAllocate() throws {
        let debugLibrary = try XCTUnwrap(SRCAllocationProbe.libcFolder, "libc's folder") + "/libc_malloc_debug.so.0"
        try XCTSkipUnless(FileManager.default.fileExists(atPath: debugLibrary), "glibc's malloc tracer is not installed")
        let trace = FileManager.default.temporaryDirectory.appendingPathComponent("srctrace-\(getpid()).txt").path
        defer { try? FileManager.default.removeItem(atPath: trace) }
        let child = try runTestInChildProcess(
            "DSPKernelsTests.SampleRateConverterTests/testBadConfigurationsThrow",  // the probe runs in setUp
            environment: [
                "LD_PRELOAD": debugLibrary, "MALLOC_TRACE": trace,
                "SRC_ALLOCATION_PROBE": "1",
            ])
        XCTAssertEqual(child.status, 0, child.output)
        XCTAssertTrue(child.output.contains("probe ran 1000 blocks"), child.output)
        let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
        XCTAssertTrue(lines.first == "= Start" && lines.last == "= End", "the tracer did not run")
        // mtrace lines: "@ caller + 0xADDR 0xSIZE" (malloc), "< / >" (realloc), "-" (free).
        // mtrace sees the whole process: the dynamic loader's TLS blocks and libdispatch's work for
        // threads the test runner starts while the probe runs are not the converter's (it uses
        // neither; seen in full runs: one 0x1b0 block from ld-linux, one 0x40 from libdispatch).
        // Nor is a small block above the program break: glibc serves the probe's thread (the main
        // one) from the main arena below it, other threads from arenas of their own (seen once in
        // seven CI runs: a 0x28-byte swift_slowAlloc at 0x7fc32c0024d0, the test runner's).
        let otherThreads = ["/ld-linux", "/libdispatch.so"]
        let programBreak = try XCTUnwrap(
            child.output.split(separator: "\n").first { $0.hasPrefix("program break 0x") }.flatMap { UInt($0.dropFirst(16), radix: 16) },
            child.output)
        func fromAnotherArena(_ line: Substring) -> Bool {
            let fields = line.split(separator: " ")
            guard fields.count >= 2, let address = UInt(fields[fields.count - 2].dropFirst(2), radix: 16),
                let size = UInt(fields[fields.count - 1].dropFirst(2), radix: 16)
            else { return false }
            return address > programBreak && size < 128 * 1024  // larger blocks are mmapped by any thread
        }
        let allocations = lines.filter { line in
            (line.contains(" + 0x") || line.contains(" > 0x")) && !otherThreads.contains { line.contains($0) } && !fromAnotherArena(line)
        }
        XCTAssertEqual(
            allocations.count, 0, "allocations during steady-state processing:\n" + allocations.prefix(10).joined(separator: "\n"))
    }

    func testBadConfigurationsThrow() {
        assertThrowsParamError { _ = try SampleRateConverter(inputRate: 0, outputRate: 48_000, channelCount: 1) }
        assertThrowsParamError { _ = try SampleRateConverter(inputRate: 44_100, outputRate: 48_000, channelCount: 0) }
    }
}

/// The child side of `testSteadyStateProcessingDoesNotAllocate`: entered from the class's setUp
/// when started by it; prints what it saw and exits.
enum SRCAllocationProbe {
    /// The folder of the libc this process runs (its multiarch path names the architecture), where
    /// glibc's malloc tracer lies too.
    static var libcFolder: String? {
        // /proc/self/maps read with read(2) and decoded leniently: read as a String it can come
        // back empty (a mapping name that is not UTF-8 spoils the whole read).
        let fd = open("/proc/self/maps", O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 1 << 16)
        while case let n = read(fd, &chunk, chunk.count), n > 0 { bytes += chunk[0..<n] }
        let maps = String(decoding: bytes, as: UTF8.self)
        let libc = maps.split(separator: "\n").lazy.compactMap { $0.split(separator: " ").last }.first { $0.hasSuffix("/libc.so.6") }
        return libc.map { String($0.dropLast("/libc.so.6".count)) }
    }

    /// `value`, or the child's exit with `what` is missing.
    private static func need<T>(_ value: T?, _ what: String) -> T {
        guard let value else {
            print("probe: \(what) is missing")
            exit(1)
        }
        return value
    }

    static func run() -> Never {
        typealias Toggle = @convention(c) () -> Void
        // The preloaded tracer's own symbols: they carry the compat version GLIBC_2.2.5, which a
        // plain dlsym skips in favour of libc's no-op stubs.
        let tracer = need(dlopen("libc_malloc_debug.so.0", RTLD_NOW | RTLD_NOLOAD), "the preloaded tracer")
        typealias VersionedLookup =
            @convention(c) (
                UnsafeMutableRawPointer?, UnsafePointer<CChar>,
                UnsafePointer<CChar>
            ) -> UnsafeMutableRawPointer?
        let dlvsym = unsafeBitCast(
            need(dlsym(UnsafeMutableRawPointer(bitPattern: 0), "dlvsym"), "dlvsym"),
            to: VersionedLookup.self)  // a GNU extension Swift does not import
        let start = unsafeBitCast(need(dlvsym(tracer, "mtrace", "GLIBC_2.2.5"), "mtrace"), to: Toggle.self)
        let stop = unsafeBitCast(need(dlvsym(tracer, "muntrace", "GLIBC_2.2.5"), "muntrace"), to: Toggle.self)
        var converter: SampleRateConverter
        do {
            converter = try SampleRateConverter(inputRate: 48_000, outputRate: 44_100, channelCount: 2, maximumInputFrames: 1_024)
        } catch {
            print("probe: \(error)")
            exit(1)
        }
        let block = 1_024
        let capacity = converter.maximumOutputFrames(forInputFrames: block)
        let source = UnsafeMutablePointer<Float>.allocate(capacity: block)
        source.initialize(from: sine(frequency: 440, sampleRate: 48_000, count: block), count: block)
        let inputs = UnsafeMutablePointer<UnsafePointer<Float>>.allocate(capacity: 2)
        let outputs = UnsafeMutablePointer<UnsafeMutablePointer<Float>>.allocate(capacity: 2)
        inputs[0] = UnsafePointer(source); inputs[1] = UnsafePointer(source)
        outputs[0] = .allocate(capacity: capacity); outputs[1] = .allocate(capacity: capacity)
        var blocks = 0
        start()
        for _ in 0..<1_000 {
            let result = converter.process(inputs: inputs, inputFrames: block, outputs: outputs, outputCapacity: capacity)
            if result.consumed == block { blocks += 1 }
        }
        stop()
        print("probe ran \(blocks) blocks")
        // The main thread's small blocks come from the main arena, below the program break.
        print("program break 0x\(String(UInt(bitPattern: sbrk(0)), radix: 16))")
        exit(0)
    }
}
