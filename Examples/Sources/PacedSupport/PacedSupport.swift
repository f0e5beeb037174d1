// What the paced-device programs share (scripts/paced-device-check.sh, parallel-paced-check.sh,
// vpio-paced-check.sh run them): status checks, property helpers, the sine source, the ALSA
// device settings and the report the scripts read. Every function is setup-thread except
// renderSine (render thread).
import AudioToolbox
import AUHost
import Foundation

/// Exits with a sentence naming the call, its status and AUHost's last message unless `status` is noErr.
public func check(_ status: OSStatus, _ what: String) {
    guard status != noErr else { return }
    var message = ""
    if let text = AUHostCopyLastErrorMessage()?.takeRetainedValue() {
        var buffer = [CChar](repeating: 0, count: 512)
        if CFStringGetCString(text, &buffer, 512, CFStringBuiltInEncodings.UTF8.rawValue) != 0 { message = String(cString: buffer) }
    }
    FileHandle.standardError.write("error: \(what) failed with status \(status). \(message)\n".data(using: .utf8)!)
    exit(1)
}

public func setProperty<T: BitwiseCopyable>(
    _ unit: AudioUnit, _ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement, _ value: T, _ what: String
) {
    var value = value
    check(AudioUnitSetProperty(unit, id, scope, element, &value, UInt32(MemoryLayout<T>.size)), what)
}

/// A global-scope property of element 0.
public func getProperty<T: BitwiseCopyable>(_ unit: AudioUnit, _ id: AudioUnitPropertyID, _ initial: T) -> T {
    var value = initial
    var size = UInt32(MemoryLayout<T>.size)
    check(AudioUnitGetProperty(unit, id, kAudioUnitScope_Global, 0, &value, &size), "get property \(id)")
    return value
}

/// One of the built-in units by Apple's manufacturer code.
public func appleUnit(_ type: OSType, _ subType: OSType) -> AudioComponentDescription {
    AudioComponentDescription(
        componentType: type, componentSubType: subType, componentManufacturer: kAudioUnitManufacturer_Apple,
        componentFlags: 0, componentFlagsMask: 0)
}

/// Stereo canonical Float32, non-interleaved.
public func stereoFormat(_ sampleRate: Float64) -> AudioStreamBasicDescription {
    AudioStreamBasicDescription(
        mSampleRate: sampleRate, mFormatID: kAudioFormatLinearPCM,
        mFormatFlags: kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked | kAudioFormatFlagIsNonInterleaved,
        mBytesPerPacket: 4, mFramesPerPacket: 1, mBytesPerFrame: 4, mChannelsPerFrame: 2,
        mBitsPerChannel: 32, mReserved: 0)
}

/// The sine source's phase, allocated once (a refCon must outlive the call, see docs/PORTING.md).
public struct Sine {
    var phase: Float = 0
    var step: Float = 2 * .pi * 440 / 48_000
    public init() {}
}

/// Thread: render. Writes a quiet sine into every channel buffer; refCon is a `Sine`.
public let renderSine: AURenderCallback = { refCon, _, _, _, frames, ioData in
    let sine = refCon.assumingMemoryBound(to: Sine.self)
    let buffers = UnsafeMutableAudioBufferListPointer(ioData!)
    for i in 0..<Int(frames) {
        let value = 0.25 * sinf(sine.pointee.phase)
        for buffer in buffers { buffer.mData!.assumingMemoryBound(to: Float.self)[i] = value }
        sine.pointee.phase += sine.pointee.step
        if sine.pointee.phase > 2 * .pi { sine.pointee.phase -= 2 * .pi }
    }
    return noErr
}

/// Points the I/O unit at the ALSA PCM `pcm`. The property takes a CFStringRef: the reference's
/// own bytes are handed over.
public func setCurrentDevice(_ io: AudioUnit, _ pcm: String) {
    let name = CFStringCreateWithCString(nil, pcm, CFStringBuiltInEncodings.UTF8.rawValue)!
    check(
        withUnsafeBytes(of: name) {
            AudioUnitSetProperty(io, kAudioOutputUnitProperty_CurrentDevice, kAudioUnitScope_Global, 0, $0.baseAddress, UInt32($0.count))
        }, "set CurrentDevice")
}

/// The Linux stand-in for the audio session: the I/O unit's device, rate and two periods of `period` frames.
public func useDevice(_ io: AudioUnit, pcm: String, sampleRate: Float64, period: UInt32) {
    setCurrentDevice(io, pcm)
    setProperty(io, kAUHostALSAProperty_PreferredSampleRate, kAudioUnitScope_Global, 0, sampleRate, "set PreferredSampleRate")
    setProperty(io, kAUHostALSAProperty_PreferredPeriodFrames, kAudioUnitScope_Global, 0, period, "set PreferredPeriodFrames")
    setProperty(io, kAUHostALSAProperty_PreferredPeriodCount, kAudioUnitScope_Global, 0, UInt32(2), "set PreferredPeriodCount")
}

/// Plays an initialized graph for `seconds`, prints the lines the scripts read (the device, then
/// `describing`, then what was played, the scheduling, xruns and the worst render) and exits: 0
/// when it ran to the end without an xrun.
public func playAndReport(_ graph: AUGraph, io: AudioUnit, pcm: String, seconds: Double, describing: [String]) -> Never {
    let grantedPeriod: UInt32 = getProperty(io, kAUHostALSAProperty_GrantedPeriodFrames, 0)
    let grantedRate: Float64 = getProperty(io, kAUHostALSAProperty_GrantedSampleRate, 0)
    let started = Date()
    check(AUGraphStart(graph), "AUGraphStart")
    Thread.sleep(forTimeInterval: seconds)
    let running: UInt32 = getProperty(io, kAudioOutputUnitProperty_IsRunning, 0)
    check(AUGraphStop(graph), "AUGraphStop")
    let elapsed = Date().timeIntervalSince(started)
    let xruns: UInt32 = getProperty(io, kAUHostALSAProperty_XrunCount, 0)
    let worst: Float64 = getProperty(io, kAUHostALSAProperty_WorstRenderFraction, 0)
    let realTime: UInt32 = getProperty(io, kAUHostALSAProperty_RealTimeScheduling, 0)
    let periodMicroseconds = Double(grantedPeriod) / grantedRate * 1e6
    print(
        "device \(pcm), granted \(Int(grantedRate)) Hz, period \(grantedPeriod) frames (\(String(format: "%.0f", periodMicroseconds)) µs) × 2"
    )
    describing.forEach { print($0) }
    print(String(format: "played %.1f s, still running at the end: %@", elapsed, running != 0 ? "yes" : "no"))
    print("scheduling \(realTime != 0 ? "SCHED_FIFO" : "normal priority (SCHED_FIFO refused)")")
    print("xruns \(xruns)")
    print(String(format: "worst-render %.1f %% of the period (%.1f µs)", worst * 100, worst * periodMicroseconds))
    AUGraphUninitialize(graph)
    DisposeAUGraph(graph)
    exit(running != 0 && xruns == 0 ? 0 : 1)
}
