import AUHost
import Foundation
import Synchronization

/// Audio queues on a real ALSA PCM (`null`: it takes and gives frames as fast as the device
/// thread asks, so buffers come back within the input's run): an output or a recording queue in
/// a near-valid format, then AudioQueueFuzz's calls with Start allowed, short pauses that let the
/// device thread play or record, and callbacks that re-enqueue what they are given (the guide's
/// pattern) or keep it. Whatever the calls, the queue disposes cleanly: nothing may trap or hang
/// on the caller's thread or the device thread.
public enum AudioQueueDeviceFuzz {
    /// What the callbacks see; they run on the queue's device thread.
    final class Callbacks: Sendable {
        let reenqueue: Bool
        let calls = Atomic<Int>(0)
        init(reenqueue: Bool) { self.reenqueue = reenqueue }
    }

    static let outputCallback: AudioQueueOutputCallback = { userData, queue, buffer in
        let callbacks = Unmanaged<Callbacks>.fromOpaque(userData!).takeUnretainedValue()
        callbacks.calls.add(1, ordering: .relaxed)
        if callbacks.reenqueue { _ = AudioQueueEnqueueBuffer(queue, buffer, 0, nil) }
    }

    static let inputCallback: AudioQueueInputCallback = { userData, queue, buffer, _, _, _ in
        let callbacks = Unmanaged<Callbacks>.fromOpaque(userData!).takeUnretainedValue()
        callbacks.calls.add(1, ordering: .relaxed)
        if callbacks.reenqueue { _ = AudioQueueEnqueueBuffer(queue, buffer, 0, nil) }
    }

    /// Thread: any (one call at a time).
    public static func run(_ data: UnsafeRawBufferPointer) {
        var input = CAPIFuzzInput(data)
        var format = AudioConverterFuzz.format(&input)
        let flags = input.u8()
        let recording = flags & 1 == 1
        let callbacks = Callbacks(reenqueue: flags & 2 == 2)
        let refCon = Unmanaged.passRetained(callbacks)
        defer { refCon.release() }
        var made: AudioQueueRef?
        let status =
            recording
            ? AudioQueueNewInput(&format, inputCallback, refCon.toOpaque(), nil, nil, 0, &made)
            : AudioQueueNewOutput(&format, outputCallback, refCon.toOpaque(), nil, nil, 0, &made)
        guard status == noErr, let queue = made else { return }
        defer { precondition(AudioQueueDispose(queue, true) == noErr, "AudioQueueDispose failed on a device queue") }
        let device = CFBridge.string("null")
        defer { device.release() }
        var value: Unmanaged<CFString>? = device
        guard
            AudioQueueSetProperty(queue, kAudioQueueProperty_CurrentDevice, &value, UInt32(MemoryLayout<Unmanaged<CFString>?>.size))
                == noErr
        else { return }
        var state = AudioQueueFuzz.State()
        state.onDevice = true
        var calls = 0
        while !input.isAtEnd && calls < 48 {
            calls += 1
            AudioQueueFuzz.step(&input, queue, &state)
            let pause = input.u8()
            if pause < 16 { usleep(UInt32(pause) * 250) }  // up to 4 ms for the device thread
        }
    }
}
