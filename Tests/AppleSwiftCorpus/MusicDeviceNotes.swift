// Ported from: MusicDevice.h / Audio Unit Hosting Guide, "Audio Unit Hosting Fundamentals",
// instrument units ("a music device … receives MIDI"): find a component of type
// kAudioUnitType_MusicDevice ('aumu') — or kAudioUnitType_MusicEffect ('aumf'), an effect that
// also takes MIDI — by iterating AudioComponentFindNext and reading AudioComponentCopyName, then
// play notes with MusicDeviceMIDIEvent(unit, status, data1, data2, inOffsetSampleFrame) between
// AudioUnitRender calls. Instruments here: the LV2 plug-ins "MDA Piano" ('aumu') and the LV2
// example "Example MIDI Gate" ('aumf': passes its audio input only while a note is held).
import AudioToolbox
import Foundation

enum ComponentFinder {
    /// The name AudioComponentCopyName gives. On Apple: `name.takeRetainedValue() as String`; a
    /// CFString does not bridge to String on Linux (docs/PORTING.md), so it is read with CFStringGetCString.
    static func name(of component: AudioComponent) -> String {
        var name: Unmanaged<CFString>?
        guard AudioComponentCopyName(component, &name) == noErr, let cfName = name?.takeRetainedValue() else { return "" }
        var buffer = [CChar](repeating: 0, count: 512)
        _ = CFStringGetCString(cfName, &buffer, CFIndex(buffer.count), CFStringBuiltInEncodings.UTF8.rawValue)
        return String(cString: buffer)
    }

    /// The first component of `type` whose name ends with `suffix`.
    static func find(type: OSType, nameSuffix suffix: String) -> AudioComponent? {
        var description = AudioComponentDescription(
            componentType: type, componentSubType: 0, componentManufacturer: 0,
            componentFlags: 0, componentFlagsMask: 0)
        var component = AudioComponentFindNext(nil, &description)
        while let found = component {
            if name(of: found).hasSuffix(suffix) { return found }
            component = AudioComponentFindNext(found, &description)
        }
        return nil
    }
}

/// A MIDI event to send before a render call, at a frame offset inside it.
struct MIDINote {
    var status: UInt32
    var note: UInt32
    var velocity: UInt32
    var offset: UInt32
}

final class MIDIInstrumentHost {
    var unit: AudioUnit?
    let input = ConstantSource(value: 0.25)
    var timeStamp = AudioTimeStamp()
    let framesPerSlice: UInt32 = 512

    var channelCount = 1

    /// Opens `component` at 48 kHz in its own channel layout (and, for a music effect, feeds it a
    /// constant 0.25 input) and initializes it.
    init(component: AudioComponent, feedsInput: Bool) {
        precondition(AudioComponentInstanceNew(component, &unit) == noErr)
        var format = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        var status = AudioUnitGetProperty(unit!, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &format, &size)
        precondition(status == noErr, "output StreamFormat \(status)")
        format.mSampleRate = 48000
        status = AudioUnitSetProperty(unit!, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &format, size)
        precondition(status == noErr, "output StreamFormat \(status)")
        channelCount = Int(format.mChannelsPerFrame)
        if feedsInput {
            status = AudioUnitGetProperty(unit!, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &format, &size)
            precondition(status == noErr, "input StreamFormat \(status)")
            format.mSampleRate = 48000
            status = AudioUnitSetProperty(unit!, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &format, size)
            precondition(status == noErr, "input StreamFormat \(status)")
            var callback = AURenderCallbackStruct(
                inputProc: constantSourceCallback, inputProcRefCon: Unmanaged.passUnretained(input).toOpaque())
            status = AudioUnitSetProperty(
                unit!, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0,
                &callback, UInt32(MemoryLayout<AURenderCallbackStruct>.size))
            precondition(status == noErr, "SetRenderCallback \(status)")
        }
        var maximumFrames = framesPerSlice
        AudioUnitSetProperty(unit!, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &maximumFrames, 4)
        status = AudioUnitInitialize(unit!)
        precondition(status == noErr, "AudioUnitInitialize \(status)")
        timeStamp.mFlags = .sampleTimeValid
    }

    /// Sends `notes` (for the next slice), then renders one slice; returns every output channel.
    func renderSlice(sending notes: [MIDINote] = []) -> [[Float32]] {
        for note in notes {
            let status = MusicDeviceMIDIEvent(unit!, note.status, note.note, note.velocity, note.offset)
            precondition(status == noErr, "MusicDeviceMIDIEvent \(status)")
        }
        let bufferList = AudioBufferList.allocate(maximumBuffers: channelCount)
        let storage = UnsafeMutablePointer<Float32>.allocate(capacity: Int(framesPerSlice) * channelCount)
        defer {
            storage.deallocate()
            free(bufferList.unsafeMutablePointer)
        }
        for channel in 0..<channelCount {
            bufferList[channel] = AudioBuffer(
                mNumberChannels: 1, mDataByteSize: framesPerSlice * 4,
                mData: storage + channel * Int(framesPerSlice))
        }
        var flags = AudioUnitRenderActionFlags()
        let status = AudioUnitRender(unit!, &flags, &timeStamp, 0, framesPerSlice, bufferList.unsafeMutablePointer)
        precondition(status == noErr, "AudioUnitRender \(status)")
        timeStamp.mSampleTime += Float64(framesPerSlice)
        return bufferList.map { Array(UnsafeBufferPointer<Float32>($0)) }
    }

    func dispose() {
        AudioUnitUninitialize(unit!)
        AudioComponentInstanceDispose(unit!)
    }
}
