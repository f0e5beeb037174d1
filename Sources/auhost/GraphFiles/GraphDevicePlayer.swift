import AUHost
import CAUHostAtomics
import Foundation
import GraphFileFormat

/// Plays a built graph whose head is the ALSA I/O unit: starts it, waits until the head has
/// rendered the frames asked for (counted by a post-render notification) or Ctrl-C, then stops.
enum GraphDevicePlayer {
    /// Plays `frames` frames; returns how many the device took and the xruns it recovered.
    /// `start` starts the graph (a graph file's MIDI player does it with MusicPlayerStart, so that
    /// its first cycle is the sequence's beat 0); `beforeClose` runs once the device stopped,
    /// before the units go (the player is disposed there). `idle` runs in the waiting loop (a
    /// node's UI); when it answers false playback stops there.
    ///
    /// Thread: setup.
    static func play(
        _ built: BuiltGraph, frames: Int, start: (() throws -> Void)? = nil, beforeClose: () -> Void = {},
        idle: () throws -> Bool = { true }
    ) throws -> (played: Int, xruns: UInt32) {
        let counter = UnsafeMutablePointer<UInt64>.allocate(capacity: 1)
        counter.initialize(to: 0)
        defer { counter.deallocate() }
        try built.graph.addRenderNotify(countRenderedFrames, UnsafeMutableRawPointer(counter))
        // A voice-processing head records its processed microphone (GraphVoiceProcessing.swift).
        let recorder = try built.file.voiceProcessing.flatMap { voice in
            try built.graph.unit(built.head).map {
                try GraphVoiceRecorder(headUnit: $0, record: voice.record, rate: built.file.sampleRate, frames: frames)
            }
        }
        let interrupt = Interrupt()
        do { try start.map { try $0() } ?? built.graph.start() } catch {
            try? built.graph.stop()
            beforeClose()
            throw error
        }
        // Capture runs behind playback by the device's buffering: a recorder gets up to two more
        // seconds to receive as many frames as were played.
        var grace = 1_000
        while !interrupt.happened && built.graph.isRunning {
            if try !idle() { break }
            if Int(auhost_atomic_load_u64(counter)) >= frames {
                guard let recorder, recorder.recordedFrames < frames, grace > 0 else { break }
                grace -= 1
            }
            usleep(2_000)
            built.isolation.check()
        }
        let xruns: UInt32 =
            (try? built.graph.unit(built.head)).flatMap { $0 }.map { unit in
                var count: UInt32 = 0
                var size: UInt32 = 4
                // The ALSA unit's count, else the JACK unit's (each answers only its own).
                if AudioUnitGetProperty(unit, kAUHostALSAProperty_XrunCount, kAudioUnitScope_Global, 0, &count, &size) != noErr {
                    AudioUnitGetProperty(unit, kAUHostJACKProperty_XrunCount, kAudioUnitScope_Global, 0, &count, &size)
                }
                return count
            } ?? 0
        let stoppedByDevice = !built.graph.isRunning && Int(auhost_atomic_load_u64(counter)) < frames && !interrupt.happened
        try built.graph.stop()
        beforeClose()
        try built.graph.removeRenderNotify(countRenderedFrames, UnsafeMutableRawPointer(counter))
        built.graph.close()  // the file plugin completes its file on close
        if let recorder { print("Voice processing: \(try recorder.finish()).") }
        if stoppedByDevice {
            throw AudioError(
                kAudioUnitErr_NoConnection,
                "The device stopped after \(auhost_atomic_load_u64(counter)) frames; check that it still exists.")
        }
        return (Int(auhost_atomic_load_u64(counter)), xruns)
    }
}

/// Adds each rendered slice's frame count to the counter.
/// Thread: render — one atomic add.
let countRenderedFrames: AURenderCallback = { refCon, flags, _, _, frames, _ in
    if flags.pointee.rawValue & AudioUnitRenderActionFlags.unitRenderAction_PostRender.rawValue != 0 {
        auhost_atomic_add_u64(refCon.assumingMemoryBound(to: UInt64.self), UInt64(frames))
    }
    return noErr
}

/// Ctrl-C (SIGINT) turned into a flag the waiting loop reads, while it exists.
final class Interrupt {
    private let source: DispatchSourceSignal
    private let flag = UnsafeMutablePointer<Int32>.allocate(capacity: 1)

    /// Thread: setup.
    init() {
        flag.initialize(to: 0)
        signal(SIGINT, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        let flag = self.flag
        source.setEventHandler { auhost_atomic_store_i32(flag, 1) }
        source.resume()
    }

    /// Whether Ctrl-C came. Thread: any.
    var happened: Bool { auhost_atomic_load_i32(flag) != 0 }

    deinit {
        source.cancel()
        signal(SIGINT, SIG_DFL)
        flag.deallocate()
    }
}
