import AUHost
import Foundation
import UnitIsolation
import XCTest

/// The child is untrusted: a unit host that answers with an oversized, truncated or garbled reply
/// makes instantiation fail with a sentence, never a crash, a hang or a huge allocation. The fake
/// children are shell scripts put in place of auhost-unit-host ($AUHOST_UNIT_HOST).
final class HostileChildTests: XCTestCase {
    func withFakeChild(_ reply: String, _ body: () throws -> Void) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("auhost-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = dir.appendingPathComponent("fake-unit-host")
        // Reads the request's header (8 bytes) and answers with `reply` (printf escapes).
        try "#!/bin/sh\nhead -c 8 <&3 >/dev/null\nprintf '\(reply)' >&3\nsleep 5\n".write(to: script, atomically: true, encoding: .utf8)
        chmod(script.path, 0o755)
        setenv("AUHOST_UNIT_HOST", script.path, 1)
        defer { unsetenv("AUHOST_UNIT_HOST") }
        try body()
    }

    func delay() throws -> AudioComponent {
        var desc = AudioComponentDescription(
            type: kAudioUnitType_Effect, subType: kAudioUnitSubType_Delay, manufacturer: kAudioUnitManufacturer_Apple)
        return try XCTUnwrap(AudioComponentFindNext(nil, &desc))
    }

    func assertRefused(_ reply: String, saying words: String) throws {
        let component = try delay()
        try withFakeChild(reply) {
            XCTAssertThrowsError(try instantiate(component, outOfProcess: true)) { error in
                let e = error as? AudioError
                XCTAssertEqual(e?.status, kAudioUnitErr_FailedInitialization)
                XCTAssertTrue(e?.message.contains("out of process") ?? false, e?.message ?? "")
                XCTAssertTrue(e?.message.contains(words) ?? false, "\(e?.message ?? "") should say \(words)")
            }
        }
    }

    func testAReplyLongerThanTheLimitIsRefused() throws {
        // Status 0, length 0x7fffffff: refused from the header, nothing that size is allocated.
        try assertRefused("\\000\\000\\000\\000\\377\\377\\377\\177", saying: "exceeds the limit")
    }

    func testATruncatedDescriptionIsRefused() throws {
        // Status 0, a 6-byte payload: a name length of 0 and two bytes of an element count.
        try assertRefused("\\000\\000\\000\\000\\006\\000\\000\\000\\000\\000\\000\\000\\001\\000", saying: "ended early")
    }

    /// A reply framed as the child frames it: status 0, the payload's length, the payload.
    func framed(_ shape: UnitShape) -> String {
        let payload = shape.encoded
        var w = ByteWriter()
        w.u32(0)
        w.u32(UInt32(payload.count))
        return (w.bytes + payload).map { "\\" + String($0, radix: 8) }.joined()
    }

    func testAFormatOutsideTheAPIBoundsIsRefused() throws {
        // Four billion channels would size the proxy's buses; a NaN rate its time stamps.
        var wide = AudioStreamBasicDescription.canonical(sampleRate: 44_100, channels: 2)
        wide.mChannelsPerFrame = 4_000_000_000
        var nan = AudioStreamBasicDescription.canonical(sampleRate: 44_100, channels: 2)
        nan.mSampleRate = .nan
        for (format, words) in [(wide, "4000000000 channels"), (nan, "Sample rate nan")] {
            let shape = UnitShape(
                name: "wide", inputFormats: [format], outputFormats: [.canonical(sampleRate: 44_100, channels: 2)],
                channelCapabilities: [], latency: 0, tailTime: 0, parameters: [])
            try assertRefused(framed(shape), saying: words)
        }
    }

    func testANonFiniteLatencyIsRefused() throws {
        let shape = UnitShape(
            name: "late", inputFormats: [], outputFormats: [.canonical(sampleRate: 44_100, channels: 2)],
            channelCapabilities: [], latency: .nan, tailTime: 0, parameters: [])
        try assertRefused(framed(shape), saying: "latency of nan s")
    }

    func testAnAbsurdElementCountIsRefused() throws {
        // A description claiming a million input elements.
        try assertRefused("\\000\\000\\000\\000\\010\\000\\000\\000\\000\\000\\000\\000\\100\\102\\017\\000", saying: "input elements")
    }
}
