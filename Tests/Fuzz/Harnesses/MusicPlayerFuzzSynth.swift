import AUHost

/// A silent instrument for MusicPlayerFuzz: takes every MIDI event and SysEx, renders zeros, so
/// the player has a destination without SDK plug-ins. 'aumu' 'fzsy' 'AUHt', registered once.
final class MusicPlayerFuzzSynth: AUBase {
    static let description = AudioComponentDescription(
        type: kAudioUnitType_MusicDevice, subType: FourCC.code("fzsy")!, manufacturer: FourCC.code("AUHt")!)

    /// Registers the unit in this process the first time it is read. Thread: setup.
    static let registered: Bool = {
        var d = description
        let factory: AudioComponentFactoryFunction = { AUBase.makePlugIn(MusicPlayerFuzzSynth($0.pointee)) }
        _ = AudioComponentRegister(&d, AUHostConstantString("AUHost Fuzz: Silent Synth")!.takeUnretainedValue(), 1, factory)
        return true
    }()

    init(_ description: AudioComponentDescription) {
        super.init(description: description, inputs: 0, outputs: 1)
    }

    /// Thread: render.
    override func renderBus(
        _ bus: UInt32, flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>, timeStamp: UnsafePointer<AudioTimeStamp>,
        frames: UInt32, output: UnsafeMutablePointer<AudioBufferList>
    ) -> OSStatus {
        for buffer in UnsafeMutableAudioBufferListPointer(output) {
            buffer.mData?.initializeMemory(as: UInt8.self, repeating: 0, count: Int(buffer.mDataByteSize))
        }
        return noErr
    }

    /// Thread: render (or setup).
    override func midiEvent(status: UInt32, data1: UInt32, data2: UInt32, offset: UInt32) -> OSStatus { noErr }
    /// Thread: render (or setup).
    override func sysEx(_ data: UnsafeBufferPointer<UInt8>) -> OSStatus { noErr }
}
