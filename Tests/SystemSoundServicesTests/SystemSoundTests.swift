import ALSATestSupport
import AUHost
import AudioTypes
import Foundation
import XCTest

@testable import SystemSoundServices

let systemSoundHome = ALSATestHome(
    prefix: "systemsound-tests", asoundrc: Bundle.module.url(forResource: "Fixtures/asoundrc", withExtension: nil)!)

/// What completions saw, read on the test thread.
final class CompletionLog: @unchecked Sendable {
    var ids: [SystemSoundID] = []
    var threads: Set<UInt> = []
    var functionCalls = 0
    var refCon: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }
}

let logCompletion: AudioServicesSystemSoundCompletionProc = { id, clientData in
    let log = Unmanaged<CompletionLog>.fromOpaque(clientData!).takeUnretainedValue()
    log.ids.append(id)
    log.threads.insert(UInt(pthread_self()))
}

final class SystemSoundTests: XCTestCase {
    /// Writes `data` to the test HOME and returns a file CFURL for it.
    private func soundURL(_ data: Data, _ name: String) -> CFURL {
        let path = systemSoundHome.path(name)
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: data))
        return CFURLCreateFromFileSystemRepresentation(nil, path, path.utf8.count, false)
    }

    /// Two sounds at once, a stereo WAV and a mono AIFF, on the shared output: the device (a file
    /// PCM) receives the first exactly from its first frame plus the second (mono on both
    /// channels) from the same frame, sample for sample; then silence. Each registered
    /// completion runs once, on this thread's run loop; the WithCompletion function once.
    func testTwoSoundsMixOntoTheDefaultDeviceAndCompleteOnTheRunLoop() throws {
        let stereo = SoundFiles.signal(frames: 9_600, channels: 2, seed: 1)
        let mono = SoundFiles.signal(frames: 4_800, channels: 1, seed: 2)
        var first: SystemSoundID = 0, second: SystemSoundID = 0
        XCTAssertEqual(
            AudioServicesCreateSystemSoundID(soundURL(SoundFiles.wav(stereo, channels: 2, rate: 48_000), "a.wav"), &first), noErr)
        XCTAssertEqual(
            AudioServicesCreateSystemSoundID(soundURL(SoundFiles.aiff(mono, channels: 1, rate: 48_000), "b.aif"), &second), noErr)
        XCTAssertNotEqual(first, second)
        let log = CompletionLog()
        for id in [first, second] {
            XCTAssertEqual(
                AudioServicesAddSystemSoundCompletion(id, CFRunLoopGetCurrent(), kCFRunLoopDefaultMode, logCompletion, log.refCon), noErr)
        }
        // Both start on the device's first frame (the unpaced file PCM would otherwise play the
        // first out before the second is queued); the check below also takes a later start.
        XCTAssertTrue(systemSoundHome.wait(until: { !SystemSoundMixer.shared.deviceOpen }), "the device closed after earlier tests")
        SystemSoundMixer.shared.startingTogether {
            AudioServicesPlaySystemSound(first)
            AudioServicesPlayAlertSoundWithCompletion(
                second,
                { userData in
                    Unmanaged<CompletionLog>.fromOpaque(userData!).takeUnretainedValue().functionCalls += 1
                }, log.refCon)
        }

        let deadline = Date(timeIntervalSinceNow: 10)
        while log.ids.count < 2, Date() < deadline { _ = CFRunLoopRunInMode(kCFRunLoopDefaultMode, 0.05, false) }
        XCTAssertEqual(log.ids.sorted(), [first, second].sorted(), "each play's completion ran once")
        XCTAssertEqual(log.threads, [UInt(pthread_self())], "completions ran on the run loop's thread")
        XCTAssertEqual(log.functionCalls, 1)
        XCTAssertTrue(systemSoundHome.wait(until: { !SystemSoundMixer.shared.deviceOpen }), "the idle device closed")

        let output = systemSoundHome.read("out.raw").withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let a = stereo.map { Float($0) / 32_768 }
        XCTAssertGreaterThanOrEqual(output.count, a.count)
        // The second play started where the output first differs from the first sound alone.
        let offset = try XCTUnwrap(output.indices.first { output[$0] != ($0 < a.count ? a[$0] : 0) }) / 2
        var expected = a + [Float](repeating: 0, count: max(0, 2 * (offset + mono.count) - a.count))
        for (frame, sample) in mono.enumerated() {
            expected[2 * (offset + frame)] += Float(sample) / 32_768
            expected[2 * (offset + frame) + 1] += Float(sample) / 32_768
        }
        XCTAssertEqual(offset, 0, "the two sounds started together")
        XCTAssertGreaterThanOrEqual(output.count, expected.count)
        let played = Array(output.prefix(expected.count))
        let firstDifference = played.indices.first { played[$0] != expected[$0] }
        XCTAssertNil(
            firstDifference,
            "sample \(firstDifference ?? -1) is \(firstDifference.map { played[$0] } ?? 0), expected \(firstDifference.map { expected[$0] } ?? 0) "
                + "(second sound at frame \(offset); first output frames \(output.prefix(6)), first sound \(a.prefix(6)), second \(mono.prefix(3)))"
        )
        XCTAssertTrue(output.dropFirst(expected.count).allSatisfy { $0 == 0 }, "only silence follows")
        for id in [first, second] { XCTAssertEqual(AudioServicesDisposeSystemSoundID(id), noErr) }
    }

    /// Listing 2-17's shape: the completion disposes the sound and stops the run loop, so
    /// CFRunLoopRun returns; the completion ran once.
    func testACompletionThatStopsTheRunLoopEndsCFRunLoopRun() throws {
        let samples = SoundFiles.signal(frames: 2_400, channels: 1, seed: 3)
        var id: SystemSoundID = 0
        XCTAssertEqual(AudioServicesCreateSystemSoundID(soundURL(SoundFiles.aiff(samples, channels: 1, rate: 48_000), "c.aif"), &id), noErr)
        let log = CompletionLog()
        XCTAssertEqual(
            AudioServicesAddSystemSoundCompletion(
                id, nil, nil,
                { id, clientData in
                    logCompletion(id, clientData)
                    XCTAssertEqual(AudioServicesDisposeSystemSoundID(id), noErr)
                    CFRunLoopStop(CFRunLoopGetCurrent())
                }, log.refCon), noErr)
        AudioServicesPlaySystemSound(id)
        CFRunLoopRun()  // NULL run loop: the main one, which XCTest runs this test on
        XCTAssertEqual(log.ids, [id])
        XCTAssertEqual(AudioServicesDisposeSystemSoundID(id), kAudioServicesSystemSoundUnspecifiedError, "already disposed")
    }

    /// IsUISound (default 1) and CompletePlaybackIfAppDies (default 0) read back what was set;
    /// misuse answers Apple's documented errors.
    func testPropertiesAndTheirErrors() throws {
        var id: SystemSoundID = 0
        XCTAssertEqual(
            AudioServicesCreateSystemSoundID(soundURL(SoundFiles.wav([1, 2, 3, 4], channels: 1, rate: 48_000), "d.wav"), &id), noErr)
        defer { XCTAssertEqual(AudioServicesDisposeSystemSoundID(id), noErr) }
        func get(_ property: AudioServicesPropertyID) -> (OSStatus, UInt32) {
            var value: UInt32 = 99
            var size = UInt32(4)
            let status = AudioServicesGetProperty(property, 4, &id, &size, &value)
            return (status, value)
        }
        XCTAssertTrue(get(kAudioServicesPropertyIsUISound) == (noErr, 1))
        XCTAssertTrue(get(kAudioServicesPropertyCompletePlaybackIfAppDies) == (noErr, 0))
        var one: UInt32 = 1, zero: UInt32 = 0
        XCTAssertEqual(AudioServicesSetProperty(kAudioServicesPropertyCompletePlaybackIfAppDies, 4, &id, 4, &one), noErr)
        XCTAssertEqual(AudioServicesSetProperty(kAudioServicesPropertyIsUISound, 4, &id, 4, &zero), noErr)
        XCTAssertTrue(get(kAudioServicesPropertyIsUISound) == (noErr, 0))
        XCTAssertTrue(get(kAudioServicesPropertyCompletePlaybackIfAppDies) == (noErr, 1))
        var size: UInt32 = 0
        var writable: UInt8 = 0
        XCTAssertEqual(AudioServicesGetPropertyInfo(kAudioServicesPropertyIsUISound, 4, &id, &size, &writable), noErr)
        XCTAssertEqual(size, 4)
        XCTAssertEqual(writable, 1)

        XCTAssertEqual(AudioServicesSetProperty(0x7465_7374, 4, &id, 4, &one), kAudioServicesUnsupportedPropertyError)
        XCTAssertEqual(AudioServicesSetProperty(kAudioServicesPropertyIsUISound, 2, &id, 4, &one), kAudioServicesBadSpecifierSizeError)
        XCTAssertEqual(AudioServicesSetProperty(kAudioServicesPropertyIsUISound, 4, &id, 2, &one), kAudioServicesBadPropertySizeError)
        var unknown: SystemSoundID = 12_345
        XCTAssertEqual(
            AudioServicesSetProperty(kAudioServicesPropertyIsUISound, 4, &unknown, 4, &one), kAudioServicesSystemSoundUnspecifiedError)

        var missing: SystemSoundID = 0
        let path = systemSoundHome.path("missing.aif")
        let url = CFURLCreateFromFileSystemRepresentation(nil, path, path.utf8.count, false)!
        XCTAssertEqual(AudioServicesCreateSystemSoundID(url, &missing), kAudioServicesSystemSoundUnspecifiedError)
        XCTAssertEqual(missing, 0)
    }
}
