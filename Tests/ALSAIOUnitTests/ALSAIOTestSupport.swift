import ALSATestSupport
import AUHost
import Foundation
import Synchronization
import XCTest

/// This test process's ALSA home: the fixture asoundrc through a temporary HOME.
let ALSAIOTestEnvironment = ALSATestHome(
    prefix: "alsaiounit-tests",
    asoundrc: Bundle.module.url(forResource: "Fixtures/asoundrc", withExtension: nil)!)

/// The data chunk and format of a RIFF/WAVE file.
struct WAVData {
    var channels = 0, sampleRate = 0, bitsPerSample = 0
    var data: [UInt8] = []

    init?(_ bytes: [UInt8]) {
        func le(_ at: Int, _ width: Int) -> Int { (0..<width).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
        guard bytes.count >= 12, bytes[0..<4] == [0x52, 0x49, 0x46, 0x46] else { return nil }
        var at = 12
        while at + 8 <= bytes.count {
            let id = String(decoding: bytes[at..<at + 4], as: UTF8.self)
            let size = le(at + 4, 4), body = at + 8
            if id == "fmt " {
                channels = le(body + 2, 2); sampleRate = le(body + 4, 4); bitsPerSample = le(body + 14, 2)
            } else if id == "data" {
                data = Array(bytes[body..<min(body + size, bytes.count)])
                return
            }
            at = body + size + (size & 1)
        }
        return nil
    }
}

/// Little-endian bytes of 16-bit samples.
func int16Bytes(_ values: [Int16]) -> [UInt8] {
    values.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8)] }
}

/// A deterministic 16-bit test signal covering the whole range, extremes included.
func testSamples(_ count: Int) -> [Int16] {
    (0..<count).map { i in
        switch i % 97 {
        case 0: return Int16.min
        case 1: return Int16.max
        default: return Int16(truncatingIfNeeded: i &* 7919 &+ (i >> 3))
        }
    }
}

/// Interleaved signed 16-bit linear PCM at 48 kHz.
func int16Interleaved(channels: UInt32) -> AudioStreamBasicDescription {
    AudioStreamBasicDescription(
        mSampleRate: 48_000, mFormatID: kAudioFormatLinearPCM,
        mFormatFlags: kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked,
        mBytesPerPacket: 2 * channels, mFramesPerPacket: 1, mBytesPerFrame: 2 * channels,
        mChannelsPerFrame: channels, mBitsPerChannel: 16, mReserved: 0)
}

/// Property events a listener saw, from whichever thread it ran on.
final class PropertyEvents: @unchecked Sendable {
    let isRunningCalls = Atomic<Int>(0)
    let lastRenderErrorCalls = Atomic<Int>(0)
    let isRunningSeenFalse = Atomic<Int>(0)

    var refCon: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }
}

/// Counts IsRunning and LastRenderError notifications and what IsRunning read at the time.
let recordPropertyEvent: AudioUnitPropertyListenerProc = { refCon, unit, id, _, _ in
    let events = Unmanaged<PropertyEvents>.fromOpaque(refCon).takeUnretainedValue()
    if id == kAudioOutputUnitProperty_IsRunning {
        var running: UInt32 = 1
        var size = UInt32(4)
        _ = AudioUnitGetProperty(unit, kAudioOutputUnitProperty_IsRunning, kAudioUnitScope_Global, 0, &running, &size)
        if running == 0 { events.isRunningSeenFalse.add(1, ordering: .relaxed) }
        events.isRunningCalls.add(1, ordering: .relaxed)
    } else if id == kAudioUnitProperty_LastRenderError {
        events.lastRenderErrorCalls.add(1, ordering: .relaxed)
    }
}

/// Helpers over the C API, as a ported app would write them.
enum IO {
    static func make(_ subType: OSType = kAudioUnitSubType_RemoteIO) throws -> AudioUnit {
        var desc = AudioComponentDescription(
            componentType: kAudioUnitType_Output, componentSubType: subType,
            componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
        var unit: AudioUnit?
        try AudioError.check(AudioComponentInstanceNew(AudioComponentFindNext(nil, &desc)!, &unit), "AudioComponentInstanceNew")
        return unit!
    }

    static func set<T>(
        _ unit: AudioUnit, _ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
        _ value: T
    ) -> OSStatus {
        withUnsafeBytes(of: value) { AudioUnitSetProperty(unit, id, scope, element, $0.baseAddress, UInt32($0.count)) }
    }

    static func get<T>(
        _ unit: AudioUnit, _ id: AudioUnitPropertyID, _ scope: AudioUnitScope = kAudioUnitScope_Global,
        _ element: AudioUnitElement = 0, as: T.Type
    ) throws -> T {
        let value = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 16)
        defer { value.deallocate() }
        var size = UInt32(MemoryLayout<T>.size)
        try AudioError.check(AudioUnitGetProperty(unit, id, scope, element, value, &size), "get \(id)")
        return value.load(as: T.self)
    }

    static func setDevice(
        _ unit: AudioUnit, _ name: String, scope: AudioUnitScope = kAudioUnitScope_Global,
        element: AudioUnitElement = 0
    ) -> OSStatus {
        let cf = CFStringCreateWithCString(nil, name, CFStringBuiltInEncodings.UTF8.rawValue)!
        return withExtendedLifetime(cf) {
            set(unit, kAudioOutputUnitProperty_CurrentDevice, scope, element, Optional(Unmanaged.passUnretained(cf)))
        }
    }

    static func string(
        _ unit: AudioUnit, _ id: AudioUnitPropertyID, _ scope: AudioUnitScope = kAudioUnitScope_Global,
        _ element: AudioUnitElement = 0
    ) throws -> String? {
        let ref = try get(unit, id, scope, element, as: Unmanaged<CFString>?.self)
        return ref.map { String(cfString: $0.takeRetainedValue())! }
    }

    static var lastErrorMessage: String {
        AUHostCopyLastErrorMessage().map { String(cfString: $0.takeRetainedValue()) ?? "" } ?? ""
    }
}
