import XCTest
import CAUHostAtomics
import TestSupport

/// While one thread renders the graph continuously, another performs 10,000 random connect,
/// disconnect, add, remove and update operations. Every rendered block must be whole: all its
/// samples equal, and equal to the output of a topology the setup thread published.
final class StressTests: XCTestCase, @unchecked Sendable {
    /// Serially (every node on the rendering thread, as Apple's AUGraph renders).
    func testTenThousandChangesWhileRendering() throws { try changesWhileRendering(threads: 0) }

    /// On two threads (the rendering one and a worker): schedules with and without a parallel
    /// plan (one connected gain is a chain) are swapped while the worker renders.
    func testTenThousandChangesWhileRenderingOnTwoThreads() throws { try changesWhileRendering(threads: 2) }

    private func changesWhileRendering(threads: UInt32) throws {
        let f = try GraphFixture()
        XCTAssertEqual(AUGraphSetRenderThreadCount(f.graph!, threads), noErr)
        // A constant source (1.0) fans out to up to four gains of 1, 2, 4, 8, summed in a mixer: the
        // output value names the set of connected paths exactly.
        let constant: AURenderCallback = { _, _, _, _, frames, ioData in
            for buffer in UnsafeMutableAudioBufferListPointer(ioData!) {
                buffer.mData!.initializeMemory(as: Float.self, repeating: 1, count: Int(frames))
            }
            return noErr
        }
        let source = try f.add(TestGainUnit.description)
        var cb = AURenderCallbackStruct(inputProc: constant, inputProcRefCon: nil)
        XCTAssertEqual(AUGraphSetNodeInputCallback(f.graph!, source, 0, &cb), noErr)
        let mixer = try f.add(TestSumUnit.description)
        XCTAssertEqual(AUGraphOpen(f.graph!), noErr)
        var four: UInt32 = 4
        XCTAssertEqual(AudioUnitSetProperty(f.unit(mixer), kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0, &four, 4), noErr)
        XCTAssertEqual(AUGraphConnectNodeInput(f.graph!, mixer, 0, f.head, 0), noErr)
        var gains: [AUNode?] = [nil, nil, nil, nil]
        var connected = [false, false, false, false]
        XCTAssertEqual(AUGraphStart(f.graph!), noErr, lastMessage())

        func addGain(_ bus: Int) throws {
            let node = try f.add(TestGainUnit.description)
            XCTAssertEqual(AudioUnitSetParameter(f.unit(node), 0, kAudioUnitScope_Global, 0, Float(1 << bus), 0), noErr)
            XCTAssertEqual(AUGraphConnectNodeInput(f.graph!, source, 0, node, 0), noErr)
            gains[bus] = node
        }

        // The values the published topologies produce (shared with the render thread under a lock;
        // the render thread only reads it after rendering, outside the render call).
        let published = NSLock()
        final class Allowed: @unchecked Sendable { var values: Set<Float> = [0] }  // one set for both threads, under `published`
        let allowed = Allowed()
        var expected: Float { Float((0..<4).filter { connected[$0] }.map { 1 << $0 }.reduce(0, +)) }

        nonisolated(unsafe) let done = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
        done.initialize(to: 0)  // freed once the renderer has finished (a stuck one keeps reading it)
        nonisolated(unsafe) var blocks = 0, torn = 0, unexpected = 0, failures = 0
        let renderer = Thread {
            let buffers = AudioBufferStorage(format: .canonical(sampleRate: 44_100, channels: 2), capacity: 64)
            var ts = AudioTimeStamp()
            ts.mFlags = .sampleTimeValid
            let head = f.unit(f.head)
            while auhost_atomic_load_i32(done) == 0 {
                buffers.prepare(frames: 64)
                var flags: AudioUnitRenderActionFlags = []
                let status = AudioUnitRender(head, &flags, &ts, 0, 64, buffers.list)
                ts.mSampleTime += 64
                let samples = buffers.samples(channel: 0, frames: 64)
                // The tallies are shared with the setup thread: counted under the lock, after the render.
                published.lock()
                blocks += 1
                if status != noErr {
                    failures += 1
                } else if Set(samples).count != 1 {
                    torn += 1
                } else if !allowed.values.contains(samples[0]) {
                    unexpected += 1
                }
                published.unlock()
            }
        }
        renderer.start()

        var generator = SystemRandomNumberGenerator()
        var operations = 0
        while operations < 10_000 {
            let bus = Int.random(in: 0..<4, using: &generator)
            switch Int.random(in: 0..<5, using: &generator) {
            case 0 where !connected[bus]:
                if gains[bus] == nil { try addGain(bus) }
                XCTAssertEqual(AUGraphConnectNodeInput(f.graph!, gains[bus]!, 0, mixer, UInt32(bus)), noErr, lastMessage())
                connected[bus] = true
            case 1 where connected[bus]:
                XCTAssertEqual(AUGraphDisconnectNodeInput(f.graph!, mixer, UInt32(bus)), noErr)
                connected[bus] = false
            case 2 where gains[bus] != nil:
                XCTAssertEqual(AUGraphRemoveNode(f.graph!, gains[bus]!), noErr)
                gains[bus] = nil
                connected[bus] = false
            case 3 where gains[bus] == nil:
                try addGain(bus)
            default:
                published.lock(); allowed.values.insert(expected); published.unlock()
                var updated: UInt8 = 0
                XCTAssertEqual(Bool.random() ? AUGraphUpdate(f.graph!, nil) : AUGraphUpdate(f.graph!, &updated), noErr, lastMessage())
            }
            operations += 1
        }
        published.lock(); allowed.values.insert(expected); published.unlock()
        XCTAssertEqual(AUGraphUpdate(f.graph!, nil), noErr)
        func renderedBlocks() -> Int {
            published.lock()
            defer { published.unlock() }
            return blocks
        }
        let rendered = renderedBlocks()
        if !waitUntil(timeout: 60, { renderedBlocks() >= rendered + 8 }) {
            XCTFail("the render thread did not render 8 blocks within 60 s of the last update")
        }
        auhost_atomic_store_i32(done, 1)
        guard waitUntil(timeout: 60, { renderer.isFinished }) else {
            return XCTFail("the render thread did not finish within 60 s of being told to stop (stuck in a render)")
        }
        done.deallocate()
        XCTAssertEqual(AUGraphStop(f.graph!), noErr)

        XCTAssertGreaterThan(blocks, 100, "the render thread kept rendering")
        XCTAssertEqual(torn, 0, "blocks mixing two topologies")
        XCTAssertEqual(unexpected, 0, "blocks matching no published topology")
        XCTAssertEqual(failures, 0, "render calls that failed")
        if threads > 0 { XCTAssertGreaterThan(graphObject(f.graph!).parallelRunCount, 0, "some cycles rendered in parallel") }
        XCTAssertEqual(f.pull(64), noErr)
        XCTAssertEqual(f.left(64), Array(repeating: expected, count: 64))
    }
}
