import AUHost

/// An instrument whose output shows exactly where each note starts and stops: every sample is
/// 1.0 while any note is held and 0.0 otherwise, switching at the MusicDeviceMIDIEvent offsets
/// (note-on with velocity > 0 starts a note, note-off or velocity 0 ends it). Mono, 48 kHz by
/// default. Identity 'aumu' 'tons' 'AUHt'.
///
/// Thread: setup; MIDI events from the render thread's pre-render notifications or from setup
/// between render calls (a test's single thread).
public final class TestOnsetInstrument: AUBase {
    public static let description = AudioComponentDescription(
        type: kAudioUnitType_MusicDevice, subType: FourCC.code("tons")!, manufacturer: FourCC.code("AUHt")!)

    /// Pending (offset, note on?) pairs for the next render call (a fixed store: nothing allocates).
    private let pending = UnsafeMutablePointer<(offset: UInt32, on: Bool)>.allocate(capacity: 256)
    private var pendingCount = 0
    private var held = 0

    public init(_ description: AudioComponentDescription = TestOnsetInstrument.description) {
        super.init(description: description, inputs: 0, outputs: 1, channels: 1, sampleRate: 48_000)
    }

    deinit { pending.deallocate() }

    public override func midiEvent(status: UInt32, data1: UInt32, data2: UInt32, offset: UInt32) -> OSStatus {
        let kind = status & 0xF0
        guard kind == 0x90 || kind == 0x80, pendingCount < 256 else { return noErr }
        pending[pendingCount] = (offset, kind == 0x90 && data2 > 0)
        pendingCount += 1
        return noErr
    }

    public override func renderBus(
        _ bus: UInt32, flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>, timeStamp: UnsafePointer<AudioTimeStamp>,
        frames: UInt32, output: UnsafeMutablePointer<AudioBufferList>
    ) -> OSStatus {
        let out = UnsafeMutableAudioBufferListPointer(output).floatChannel(0)!
        var frame = 0
        // Events in offset order (insertion sort over at most 256: no allocation).
        if pendingCount > 1 {
            for i in 1..<pendingCount {
                var j = i
                while j > 0, pending[j - 1].offset > pending[j].offset {
                    pending.swapAt(j - 1, j)
                    j -= 1
                }
            }
        }
        for i in 0..<pendingCount {
            let at = min(Int(pending[i].offset), Int(frames))
            while frame < at {
                out[frame] = held > 0 ? 1 : 0
                frame += 1
            }
            held = pending[i].on ? held + 1 : max(held - 1, 0)
        }
        pendingCount = 0
        while frame < Int(frames) {
            out[frame] = held > 0 ? 1 : 0
            frame += 1
        }
        return noErr
    }
}

extension UnsafeMutablePointer {
    fileprivate func swapAt(_ a: Int, _ b: Int) {
        let t = self[a]
        self[a] = self[b]
        self[b] = t
    }
}

/// Registers the onset instrument (idempotent).
///
/// Thread: setup.
public func registerTestOnsetInstrument() {
    ComponentRegistry.shared.register(
        Component(description: TestOnsetInstrument.description, name: "AUHost Tests: Onset Instrument", version: 1) {
            TestOnsetInstrument($0)
        })
}
