import CAUHostAtomics
import CJACK
import XCTest

/// A JACK client of the test's own, as another program on the server would be: input ports that
/// record what arrives (up to `capacity` frames each) and one output port that plays a ramp
/// (frame n of its own count is n / 65536, exact in Float). Its process callback allocates nothing.
public final class JACKPeer {
    struct State {
        var inputs: (OpaquePointer?, OpaquePointer?) = (nil, nil)
        var output: OpaquePointer?
        var recorded: (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>)
        var capacity: Int
        var frames: UInt64 = 0
        var played: Int = 0
    }

    public let client: OpaquePointer
    let state: UnsafeMutablePointer<State>

    /// Thread: setup.
    public init(name: String = "auhost-test-peer", capacity: Int = 48_000) throws {
        var status = jack_status_t(0)
        client = try XCTUnwrap(auhost_jack_client_open(name, JackNoStartServer, &status), "a JACK client of the test's own")
        state = .allocate(capacity: 1)
        state.initialize(
            to: State(recorded: (.allocate(capacity: capacity), .allocate(capacity: capacity)), capacity: capacity))
        state.pointee.inputs.0 = jack_port_register(client, "in_1", JACK_DEFAULT_AUDIO_TYPE, UInt(JackPortIsInput.rawValue), 0)
        state.pointee.inputs.1 = jack_port_register(client, "in_2", JACK_DEFAULT_AUDIO_TYPE, UInt(JackPortIsInput.rawValue), 0)
        state.pointee.output = jack_port_register(client, "ramp", JACK_DEFAULT_AUDIO_TYPE, UInt(JackPortIsOutput.rawValue), 0)
        jack_set_process_callback(client, peerProcess, UnsafeMutableRawPointer(state))
        XCTAssertEqual(jack_activate(client), 0, "the peer client activates")
    }

    deinit {
        jack_deactivate(client)
        jack_client_close(client)
        state.pointee.recorded.0.deallocate()
        state.pointee.recorded.1.deallocate()
        state.deallocate()
    }

    /// Frames recorded so far on both inputs. Thread: any.
    public var framesRecorded: Int { Int(auhost_atomic_load_u64(&state.pointee.frames)) }

    /// What input `channel` recorded (call once recording has stopped growing or is enough).
    public func recording(_ channel: Int) -> [Float] {
        let count = min(framesRecorded, state.pointee.capacity)
        return Array(UnsafeBufferPointer(start: channel == 0 ? state.pointee.recorded.0 : state.pointee.recorded.1, count: count))
    }

    /// Places where a ramp of step 1/65536 (the peer's, exact in Float) does not go on. An xrun
    /// (this VM's dummy server logs about one a second on its own) can drop or repeat a cycle;
    /// nothing else may.
    public static func rampBreaks(_ samples: [Float]) -> Int { rampBreakIndices(samples).count }

    /// Where the ramp breaks: the index of each sample that does not follow its predecessor.
    public static func rampBreakIndices(_ samples: [Float]) -> [Int] {
        samples.indices.dropFirst().filter { samples[$0] != samples[$0 - 1] + 1 / 65_536 }
    }

    /// The breaks as text for a failure message: index, the sample before and the one at it.
    public static func describeBreaks(_ samples: [Float]) -> String {
        rampBreakIndices(samples).prefix(8).map { "at \($0): \(samples[$0 - 1] * 65_536) -> \(samples[$0] * 65_536)" }
            .joined(separator: ", ")
    }

    /// The ramp breaks a run may show: two per xrun the server reported (a client late in a cycle
    /// leaves its port's buffer stale or empty, so the ramp jumps into that cycle and out of it;
    /// seen once in 26 runs: 2 breaks at 1 xrun), counted 0.2 s on, since JACK reports an xrun on
    /// the client's notification thread after the cycle.
    public static func breaksAllowed(xruns: () -> Int) -> Int {
        usleep(200_000)
        return 2 * xruns()
    }

    public func connect(_ source: String, _ destination: String) -> Int32 { jack_connect(client, source, destination) }

    /// The server's port names that start with `prefix`.
    public func ports(_ prefix: String) -> [String] {
        guard let names = jack_get_ports(client, "^" + NSRegularExpression.escapedPattern(for: prefix), nil, 0) else { return [] }
        defer { jack_free(names) }
        var result: [String] = []
        var i = 0
        while let name = names[i] {
            result.append(String(cString: name))
            i += 1
        }
        return result
    }
}

private let peerProcess: JackProcessCallback = { frames, arg in
    let s = arg!.assumingMemoryBound(to: JACKPeer.State.self)
    if let out = jack_port_get_buffer(s.pointee.output, frames)?.assumingMemoryBound(to: Float.self) {
        for i in 0..<Int(frames) { out[i] = Float(s.pointee.played + i) / 65_536 }
        s.pointee.played += Int(frames)
    }
    let done = Int(auhost_atomic_load_u64(&s.pointee.frames))
    let n = min(Int(frames), s.pointee.capacity - done)
    guard n > 0 else { return 0 }
    if let a = jack_port_get_buffer(s.pointee.inputs.0, frames)?.assumingMemoryBound(to: Float.self),
        let b = jack_port_get_buffer(s.pointee.inputs.1, frames)?.assumingMemoryBound(to: Float.self)
    {
        (s.pointee.recorded.0 + done).update(from: a, count: n)
        (s.pointee.recorded.1 + done).update(from: b, count: n)
    }
    auhost_atomic_store_u64(&s.pointee.frames, UInt64(done + n))
    return 0
}
