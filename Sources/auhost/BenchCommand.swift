import ArgumentParser
import AUHost
import Foundation
import GraphFileFormat

/// `auhost bench (UNIT | --graph FILE)`: like lv2bench for any unit or graph. Times each block
/// (min / median / max, and the whole run as % of real time), then counts allocations per block in
/// a child process run with glibc's malloc tracer (libc_malloc_debug + MALLOC_TRACE), so the
/// measured process itself runs with the normal allocator.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench", abstract: "Time a unit or graph per block and count its allocations.")

    @Argument(help: "A triple, an LV2 URI, or a unique fragment of the unit's name.")
    var unit: String?

    @Option(help: "Benchmark a graph file (docs/GRAPH-FILES.md) instead of one unit.")
    var graph: String?

    @Option(help: "Frames per render call.")
    var block: UInt32 = 512

    @Option(help: "Frames to render in the timed run (48 kHz).")
    var frames: Int = 480_000

    @Flag(help: "Feed silence instead of white noise, as lv2bench does (for a side-by-side comparison with it).")
    var silence = false

    @Option(help: .hidden)
    var traceChildBlocks: Int?

    @Option(
        help:
            "Threads that render the graph, the head's included: 0 serial, at most 64 (default: the file's \"threads\", else one per core)."
    )
    var threads: Int?

    static let tracer = "/usr/lib/x86_64-linux-gnu/libc_malloc_debug.so.0"
    static let sampleRate = 48_000.0

    func validate() throws {
        guard (unit == nil) != (graph == nil) else { throw ValidationError("Name one UNIT or one --graph FILE.") }
        guard (1...65_536).contains(block) else { throw ValidationError("--block must be 1…65536 frames, not \(block).") }
        if let threads, !(0...64).contains(threads) { throw ValidationError("--threads must be 0…64, not \(threads).") }
        guard frames >= Int(block) && frames <= 100_000_000 else {
            throw ValidationError("--frames must be at least one block (\(block)) and at most 100000000.")
        }
    }

    func run() throws {
        let (name, renderBlock) = try makeSubject()
        for _ in 0..<16 { try renderBlock() }  // warm-up: first-touch allocations and caches
        if let blocks = traceChildBlocks { return try traceAllocations(blocks: blocks, renderBlock) }
        let blocks = frames / Int(block)
        var times = [Double](repeating: 0, count: blocks)
        for i in 0..<blocks {
            let start = DispatchTime.now().uptimeNanoseconds
            try renderBlock()
            times[i] = Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000
        }
        let total = times.reduce(0, +)
        times.sort()
        let realTime = Double(blocks) * Double(block) / Self.sampleRate * 1_000_000
        print("\(name): \(blocks) blocks of \(block) frames at \(Int(Self.sampleRate)) Hz")
        print(String(format: "time per block: min %.2f µs, median %.2f µs, max %.2f µs", times.first!, times[blocks / 2], times.last!))
        print(String(format: "%% of real time: %.3f %% (%.1fx faster than real time)", total / realTime * 100, realTime / total))
        print(String(format: "timed run: %.6f s (the blocks' times summed)", total / 1_000_000))
        print(try countAllocations())
    }

    /// The unit or graph, ready to render one block of white noise (a fixed seed), or silence, per call.
    private func makeSubject() throws -> (String, () throws -> Void) {
        var seed: UInt32 = 0x1234_5678
        let silence = silence
        func noise() -> Float {
            if silence { return 0 }
            seed = seed &* 1_664_525 &+ 1_013_904_223
            return Float(Int32(bitPattern: seed)) / Float(Int32.max) * 0.5
        }
        if let graph {
            var file = try GraphFile.load(graph)
            try GraphMIDI.refuse(file, in: "bench --graph")
            file.sampleRate = Self.sampleRate
            file.block = block
            file.head = .file("/dev/null.wav")  // a generic-output head; nothing is written
            if let threads { file.threads = threads }
            let input = AudioBufferStorage(
                format: .canonical(sampleRate: Self.sampleRate, channels: 1), capacity: UInt32(frames + 16 * Int(block)))
            let total = frames + 16 * Int(block)
            input.prepare(frames: UInt32(total))
            for i in 0..<total { input.channel(0)[i] = noise() }
            let built = try BuiltGraph(file, input: input, inputFrames: total)
            let out = AudioBufferStorage(
                format: .canonical(sampleRate: Self.sampleRate, channels: UInt32(max(built.outputChannels, 1))), capacity: block)
            // Pulled through the head's AudioUnitRender as a host's I/O thread does (AudioGraph.render,
            // the Swift convenience, looks the head up per call).
            guard let head = try built.graph.unit(built.head) else { throw AudioError(kAUGraphErr_OutputNodeErr, "The graph has no head.") }
            let frames = block
            var timeStamp = AudioTimeStamp()
            timeStamp.mFlags = .sampleTimeValid
            let renderBlock = {
                withExtendedLifetime(built) {}  // the closure keeps the graph (and so the head) alive
                out.prepare(frames: frames)
                var flags: AudioUnitRenderActionFlags = []
                try AudioError.check(
                    AudioUnitRender(head, &flags, &timeStamp, 0, frames, out.list),
                    LastErrorMessage.current ?? "The graph failed to render.")
                timeStamp.mSampleTime += Double(frames)
            }
            if traceChildBlocks == nil { try GraphProfileReport.print(built, cycles: 200, renderBlock) }
            return ("graph \(graph) (\(file.nodes.count) nodes)", renderBlock)
        }
        let component = try UnitLookup.component(unit!)
        let rig = try OfflineUnitRig(component: component, sampleRate: Self.sampleRate, channels: 2, maxFrames: block)
        if let input = rig.input {
            for c in 0..<rig.inputChannels { for i in 0..<Int(block) { input.channel(c)[i] = noise() } }
        }
        let frames = block
        return (
            component.name,
            {
                try AudioError.check(rig.render(frames: frames), LastErrorMessage.current ?? "\(component.name) failed to render.")
            }
        )
    }

    /// Runs this command again as a child with the malloc tracer preloaded and reads its trace.
    private func countAllocations() throws -> String {
        guard FileManager.default.fileExists(atPath: Self.tracer) else {
            return "allocations per block: not counted (\(Self.tracer) is missing; install libc6)"
        }
        let blocks = 200
        let trace = FileManager.default.temporaryDirectory.appendingPathComponent("auhost-bench-\(getpid()).mtrace").path
        defer { try? FileManager.default.removeItem(atPath: trace) }
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        child.arguments = Array(CommandLine.arguments.dropFirst()) + ["--trace-child-blocks", "\(blocks)"]
        child.environment = ProcessInfo.processInfo.environment.merging(["LD_PRELOAD": Self.tracer, "MALLOC_TRACE": trace]) { $1 }
        child.standardOutput = FileHandle.nullDevice
        try child.run()
        child.waitUntilExit()
        guard child.terminationStatus == 0, let text = try? String(contentsOfFile: trace, encoding: .utf8) else {
            throw AudioError(
                kAudio_ParamError, "The allocation-counting run failed (exit \(child.terminationStatus)); the timing above stands.")
        }
        // mtrace lines: "@ caller + 0xADDR 0xSIZE" is a malloc, "> 0xADDR 0xSIZE" a realloc's new block.
        let allocations = text.split(separator: "\n").filter { $0.contains(" + 0x") || $0.contains(" > 0x") }.count
        return String(
            format: "allocations per block: %.2f (%d in %d blocks, glibc mtrace)", Double(allocations) / Double(blocks), allocations, blocks
        )
    }

    /// The child side: trace `blocks` renders between mtrace() and muntrace().
    private func traceAllocations(blocks: Int, _ renderBlock: () throws -> Void) throws {
        typealias Toggle = @convention(c) () -> Void
        typealias VersionedLookup =
            @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>, UnsafePointer<CChar>) -> UnsafeMutableRawPointer?
        // The preloaded tracer's own symbols carry the compat version GLIBC_2.2.5, which a plain
        // dlsym skips in favour of libc's no-op stubs; dlvsym is a GNU extension Swift does not import.
        guard let library = dlopen("libc_malloc_debug.so.0", RTLD_NOW | RTLD_NOLOAD),
            let lookup = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "dlvsym"),
            let startSymbol = unsafeBitCast(lookup, to: VersionedLookup.self)(library, "mtrace", "GLIBC_2.2.5"),
            let stopSymbol = unsafeBitCast(lookup, to: VersionedLookup.self)(library, "muntrace", "GLIBC_2.2.5")
        else {
            throw AudioError(kAudio_ParamError, "The malloc tracer is not preloaded.")
        }
        let start = unsafeBitCast(startSymbol, to: Toggle.self), stop = unsafeBitCast(stopSymbol, to: Toggle.self)
        start()
        for _ in 0..<blocks { try renderBlock() }
        stop()
    }
}
