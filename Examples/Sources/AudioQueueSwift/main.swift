// audio-queue-swift play FILE PCM VOLUME | record PCM FRAMES FILE — the Audio Queue guide's
// "play a file with three buffers" and "record to a file" patterns in Swift, written as on
// Apple's platforms (C-convention callbacks, Unmanaged user data). What changed for Linux: a nil
// run loop (callbacks on the queue's own thread) and the route as an ALSA PCM name set with
// kAudioQueueProperty_CurrentDevice.
import AudioToolbox
import Foundation

func check(_ status: OSStatus, _ what: String) {
    guard status != noErr else { return }
    fail("\(what) failed with status \(status)")
}

func fail(_ why: String) -> Never {
    FileHandle.standardError.write("error: \(why)\n".data(using: .utf8)!)
    exit(1)
}

func fileURL(_ path: String) -> CFURL {
    CFURLCreateFromFileSystemRepresentation(nil, path, CFIndex(strlen(path)), false)!
}

func setDevice(_ queue: AudioQueueRef, _ name: String) {
    // The property takes a CFStringRef: hand over the reference's own bytes.
    let device = CFStringCreateWithCString(nil, name, CFStringBuiltInEncodings.UTF8.rawValue)!
    check(
        withUnsafeBytes(of: device) { AudioQueueSetProperty(queue, kAudioQueueProperty_CurrentDevice, $0.baseAddress!, UInt32($0.count)) },
        "AudioQueueSetProperty(CurrentDevice)")
}

/// The player's state, as the guide's AQPlayerState.
final class Player {
    var audioFile: AudioFileID?
    var dataFormat = AudioStreamBasicDescription()
    var queue: AudioQueueRef?
    var currentPacket: Int64 = 0
    var packetsToRead: UInt32 = 0
    var isRunning = true
    let stopped = DispatchSemaphore(value: 0)
}

/// The playback callback: read packets from the file into the buffer and enqueue it, or stop
/// the queue (after what is queued has played) at the end of the file.
let handleOutputBuffer: AudioQueueOutputCallback = { userData, queue, buffer in
    let player = Unmanaged<Player>.fromOpaque(userData!).takeUnretainedValue()
    guard player.isRunning else { return }
    var bytes = buffer.pointee.mAudioDataBytesCapacity
    var packets = player.packetsToRead
    check(
        AudioFileReadPacketData(player.audioFile!, false, &bytes, nil, player.currentPacket, &packets, buffer.pointee.mAudioData),
        "AudioFileReadPacketData")
    if packets > 0 {
        buffer.pointee.mAudioDataByteSize = bytes
        check(AudioQueueEnqueueBuffer(queue, buffer, 0, nil), "AudioQueueEnqueueBuffer")
        player.currentPacket += Int64(packets)
    } else {
        check(AudioQueueStop(queue, false), "AudioQueueStop")
        player.isRunning = false
    }
}

let runningListener: AudioQueuePropertyListenerProc = { userData, queue, id in
    var running: UInt32 = 0
    var size = UInt32(MemoryLayout<UInt32>.size)
    AudioQueueGetProperty(queue, id, &running, &size)
    if running == 0 { Unmanaged<Player>.fromOpaque(userData!).takeUnretainedValue().stopped.signal() }
}

func play(path: String, device: String, volume: Float32) {
    let player = Player()
    let userData = Unmanaged.passUnretained(player).toOpaque()
    check(AudioFileOpenURL(fileURL(path), .readPermission, 0, &player.audioFile), "AudioFileOpenURL")
    var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
    check(AudioFileGetProperty(player.audioFile!, kAudioFilePropertyDataFormat, &size, &player.dataFormat), "DataFormat")
    check(AudioQueueNewOutput(&player.dataFormat, handleOutputBuffer, userData, nil, nil, 0, &player.queue), "AudioQueueNewOutput")
    let queue = player.queue!
    setDevice(queue, device)
    check(AudioQueueAddPropertyListener(queue, kAudioQueueProperty_IsRunning, runningListener, userData), "AddPropertyListener")
    // DeriveBufferSize: half a second, bounded 16 KiB … 320 KiB.
    var maxPacketSize: UInt32 = 0
    size = 4
    check(AudioFileGetProperty(player.audioFile!, kAudioFilePropertyPacketSizeUpperBound, &size, &maxPacketSize), "PacketSizeUpperBound")
    let bufferByteSize = min(max(UInt32(player.dataFormat.mSampleRate * 0.5) * maxPacketSize, 0x4000), 0x50000)
    player.packetsToRead = bufferByteSize / maxPacketSize
    for _ in 0..<3 {
        var buffer: AudioQueueBufferRef?
        check(AudioQueueAllocateBuffer(queue, bufferByteSize, &buffer), "AudioQueueAllocateBuffer")
        handleOutputBuffer(userData, queue, buffer!)
    }
    check(AudioQueueSetParameter(queue, kAudioQueueParam_Volume, volume), "AudioQueueSetParameter(Volume)")
    check(AudioQueueStart(queue, nil), "AudioQueueStart")
    guard player.stopped.wait(timeout: .now() + 60) == .success else { fail("the queue did not stop after playing the file") }
    print("played \(player.currentPacket)")
    check(AudioQueueDispose(queue, true), "AudioQueueDispose")
    check(AudioFileClose(player.audioFile!), "AudioFileClose")
}

/// The recorder's state, as the guide's AQRecorderState.
final class Recorder {
    var audioFile: AudioFileID?
    var currentPacket: Int64 = 0
    var isRunning = true
    let frames: Int64
    let done = DispatchSemaphore(value: 0)
    init(frames: Int64) { self.frames = frames }
}

/// The recording callback: write the filled buffer to the file, then hand it back.
let handleInputBuffer: AudioQueueInputCallback = { userData, queue, buffer, _, packets, descriptions in
    let recorder = Unmanaged<Recorder>.fromOpaque(userData!).takeUnretainedValue()
    var count = packets
    if count > 0 {
        check(
            AudioFileWritePackets(
                recorder.audioFile!, false, buffer.pointee.mAudioDataByteSize, descriptions, recorder.currentPacket, &count,
                buffer.pointee.mAudioData), "AudioFileWritePackets")
        let before = recorder.currentPacket
        recorder.currentPacket += Int64(count)
        if before < recorder.frames && recorder.currentPacket >= recorder.frames { recorder.done.signal() }
    }
    if recorder.isRunning { AudioQueueEnqueueBuffer(queue, buffer, 0, nil) }
}

func record(device: String, frames: Int64, path: String) {
    let recorder = Recorder(frames: frames)
    let userData = Unmanaged.passUnretained(recorder).toOpaque()
    var format = AudioStreamBasicDescription(
        mSampleRate: 48_000, mFormatID: kAudioFormatLinearPCM,
        mFormatFlags: kLinearPCMFormatFlagIsSignedInteger | kLinearPCMFormatFlagIsPacked,
        mBytesPerPacket: 4, mFramesPerPacket: 1, mBytesPerFrame: 4, mChannelsPerFrame: 2, mBitsPerChannel: 16, mReserved: 0)
    var queue: AudioQueueRef?
    check(AudioQueueNewInput(&format, handleInputBuffer, userData, nil, nil, 0, &queue), "AudioQueueNewInput")
    setDevice(queue!, device)
    check(AudioFileCreateWithURL(fileURL(path), kAudioFileWAVEType, &format, .eraseFile, &recorder.audioFile), "AudioFileCreateWithURL")
    let bufferByteSize = min(UInt32(format.mSampleRate * 0.5) * format.mBytesPerPacket, 0x50000)
    for _ in 0..<3 {
        var buffer: AudioQueueBufferRef?
        check(AudioQueueAllocateBuffer(queue!, bufferByteSize, &buffer), "AudioQueueAllocateBuffer")
        check(AudioQueueEnqueueBuffer(queue!, buffer!, 0, nil), "AudioQueueEnqueueBuffer")
    }
    check(AudioQueueStart(queue!, nil), "AudioQueueStart")
    guard recorder.done.wait(timeout: .now() + 60) == .success else { fail("fewer than \(frames) frames were recorded") }
    recorder.isRunning = false
    check(AudioQueueStop(queue!, true), "AudioQueueStop")
    check(AudioQueueDispose(queue!, true), "AudioQueueDispose")
    check(AudioFileClose(recorder.audioFile!), "AudioFileClose")
    print("recorded \(recorder.currentPacket)")
}

let arguments = CommandLine.arguments
switch (arguments.count, arguments.count > 1 ? arguments[1] : "") {
case (5, "play"): play(path: arguments[2], device: arguments[3], volume: Float32(arguments[4]) ?? 1)
case (5, "record"): record(device: arguments[2], frames: Int64(arguments[3]) ?? 0, path: arguments[4])
default:
    FileHandle.standardError.write("usage: audio-queue-swift play FILE PCM VOLUME | record PCM FRAMES FILE\n".data(using: .utf8)!)
    exit(2)
}
