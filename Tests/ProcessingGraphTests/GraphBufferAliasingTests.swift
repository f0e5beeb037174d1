import XCTest
import TestSupport

/// Graph chains and the buffers their units read and write: every stage must see its own
/// source's output, never a buffer a neighbour overwrote, and never its own output buffer as
/// input. Each gain stage has its own gain, so a stage that read the wrong buffer changes the
/// product; a reversing stage scrambles its block when its input and output are the same memory;
/// a mixer that pulls both inputs before adding loses one when two chains share buffers.
/// (Written for an experiment that had chains alternate between two buffers; see
/// Benchmarks/RESULTS.md, issue 35. They guard whatever buffer scheme the graph uses.)
final class GraphBufferAliasingTests: XCTestCase {
    override func setUp() {
        registerGraphTestUnits()
        ComponentRegistry.shared.register(
            Component(description: ReverseUnit.description, name: "Tests: Reverse", version: 1) { ReverseUnit($0) })
        ComponentRegistry.shared.register(
            Component(description: PullBothThenSumUnit.description, name: "Tests: Pull both, then sum", version: 1) {
                PullBothThenSumUnit($0)
            })
    }

    /// Five gains in a row with four reversals between them.
    func testALongChainAppliesEveryStageOnce() throws {
        let f = try GraphFixture()
        let gains: [Float?] = [2, nil, 3, nil, 0.5, nil, 4, nil, 0.25]  // nil: a reversal
        let stages = try gains.map { try f.add($0 == nil ? ReverseUnit.description : TestGainUnit.description) }
        let input = Counter()
        var cb = input.callback
        XCTAssertEqual(AUGraphSetNodeInputCallback(f.graph!, stages[0], 0, &cb), noErr)
        for (from, to) in zip(stages, stages.dropFirst()) { XCTAssertEqual(AUGraphConnectNodeInput(f.graph!, from, 0, to, 0), noErr) }
        XCTAssertEqual(AUGraphConnectNodeInput(f.graph!, stages.last!, 0, f.head, 0), noErr)
        XCTAssertEqual(AUGraphOpen(f.graph!), noErr)
        for (stage, gain) in zip(stages, gains) where gain != nil {
            XCTAssertEqual(AudioUnitSetParameter(f.unit(stage), 0, kAudioUnitScope_Global, 0, gain!, 0), noErr)
        }
        XCTAssertEqual(AUGraphInitialize(f.graph!), noErr, lastMessage())
        let product = gains.compactMap { $0 }.reduce(1, *)  // 3, and an even number of reversals
        var start = 0
        for frames in [256, 100, 512, 1] {
            XCTAssertEqual(f.pull(UInt32(frames)), noErr)
            XCTAssertEqual(f.left(frames), (0..<frames).map { Float(start + $0) * product })
            XCTAssertEqual(f.right(frames), (0..<frames).map { Float(start + $0 + 1000) * product })
            start += frames
        }
    }

    /// Two chains into one mixer: the first chain's result must survive while the second renders,
    /// serially and on the default threads (the parallel plan).
    func testTwoChainsIntoAMixerKeepEachOthersAudio() throws {
        try twoChainsIntoAMixer(threads: 0)
        try twoChainsIntoAMixer(threads: nil)
    }

    private func twoChainsIntoAMixer(threads: UInt32?) throws {
        let f = try GraphFixture()
        if let threads { XCTAssertEqual(AUGraphSetRenderThreadCount(f.graph!, threads), noErr) }
        let mixer = try f.add(PullBothThenSumUnit.description)
        let a = Counter(), b = Counter()
        var callbacks = [a.callback, b.callback]
        let gains: [[Float]] = [[2, 3, 0.5], [4, 0.25, 5]]  // products 3 and 5
        var chains: [[AUNode]] = []
        for (bus, chainGains) in gains.enumerated() {
            let chain = try chainGains.map { _ in try f.add(TestGainUnit.description) }
            XCTAssertEqual(AUGraphSetNodeInputCallback(f.graph!, chain[0], 0, &callbacks[bus]), noErr)
            for (from, to) in zip(chain, chain.dropFirst()) { XCTAssertEqual(AUGraphConnectNodeInput(f.graph!, from, 0, to, 0), noErr) }
            XCTAssertEqual(AUGraphConnectNodeInput(f.graph!, chain.last!, 0, mixer, UInt32(bus)), noErr)
            chains.append(chain)
        }
        XCTAssertEqual(AUGraphConnectNodeInput(f.graph!, mixer, 0, f.head, 0), noErr)
        XCTAssertEqual(AUGraphOpen(f.graph!), noErr)
        for (chain, chainGains) in zip(chains, gains) {
            for (stage, gain) in zip(chain, chainGains) {
                XCTAssertEqual(AudioUnitSetParameter(f.unit(stage), 0, kAudioUnitScope_Global, 0, gain, 0), noErr)
            }
        }
        XCTAssertEqual(AUGraphInitialize(f.graph!), noErr, lastMessage())
        for block in 0..<3 {
            XCTAssertEqual(f.pull(128), noErr)
            XCTAssertEqual(f.left(128), (0..<128).map { Float(block * 128 + $0) * 8 })
            XCTAssertEqual(f.right(128), (0..<128).map { Float(block * 128 + $0 + 1000) * 8 })
        }
    }
}

/// Reverses each block: output[i] = input[frames - 1 - i]. Identity 'aufx' 'trev' 'AUHt'.
final class ReverseUnit: AUEffectBase {
    static let description = AudioComponentDescription(
        type: kAudioUnitType_Effect, subType: FourCC.code("trev")!, manufacturer: FourCC.code("AUHt")!)
    init(_ description: AudioComponentDescription) { super.init(description: description) }
    override func processChannel(_ channel: Int, input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, frames: Int) {
        for i in 0..<frames { output[i] = input[frames - 1 - i] }
    }
}

/// Pulls both inputs, then adds them (TestSumUnit adds each input as it pulls it). Identity
/// 'aumx' 'tps2' 'AUHt'.
final class PullBothThenSumUnit: AUBase {
    static let description = AudioComponentDescription(
        type: kAudioUnitType_Mixer, subType: FourCC.code("tps2")!, manufacturer: FourCC.code("AUHt")!)
    init(_ description: AudioComponentDescription) { super.init(description: description, inputs: 2, outputs: 1) }
    override func renderBus(
        _ bus: UInt32, flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>, timeStamp: UnsafePointer<AudioTimeStamp>,
        frames: UInt32, output: UnsafeMutablePointer<AudioBufferList>
    ) -> OSStatus {
        for input in 0..<2 {
            let status = pullInput(input, flags, timeStamp, frames)
            guard status == noErr else { return status }
        }
        guard let first = inputList(0), let second = inputList(1) else { return kAudioUnitErr_NoConnection }
        let a = UnsafeMutableAudioBufferListPointer(first), b = UnsafeMutableAudioBufferListPointer(second)
        let out = UnsafeMutableAudioBufferListPointer(output)
        for c in 0..<out.count {
            let o = out.floatChannel(c)!, x = a.floatChannel(c)!, y = b.floatChannel(c)!
            for f in 0..<Int(frames) { o[f] = x[f] + y[f] }
        }
        return noErr
    }
}
