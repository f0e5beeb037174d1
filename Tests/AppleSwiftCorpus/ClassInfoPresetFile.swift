// Ported from: Audio Unit Programming Guide, "Audio Unit Properties", kAudioUnitProperty_ClassInfo
// and Technical Note TN2157-style preset handling (an .aupreset file is the ClassInfo property
// list written as XML): read a unit's state as a CFPropertyList with AudioUnitGetProperty, write
// it to a file with CFPropertyListCreateData, later read the file back with
// CFPropertyListCreateWithData and hand it to AudioUnitSetProperty to restore every parameter.
// The unit is Apple's delay effect.
//
// CFData ↔ Data: on Apple `data as Data` and `fileData as CFData`; Foundation on Linux does not
// bridge CoreFoundation types (docs/PORTING.md), so the bytes are copied with CFDataGetBytePtr /
// CFDataCreate, which Apple has too.
import AudioToolbox
import Foundation

enum PresetError: Error {
    case status(OSStatus)
    case notAPropertyList(String)
}

final class DelayPresetStore {
    var delayUnit: AudioUnit?

    init() {
        var description = AudioComponentDescription(
            componentType: kAudioUnitType_Effect, componentSubType: kAudioUnitSubType_Delay,
            componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
        AudioComponentInstanceNew(AudioComponentFindNext(nil, &description)!, &delayUnit)
    }

    func setParameter(_ id: AudioUnitParameterID, _ value: AudioUnitParameterValue) {
        AudioUnitSetParameter(delayUnit!, id, kAudioUnitScope_Global, 0, value, 0)
    }

    func parameter(_ id: AudioUnitParameterID) -> AudioUnitParameterValue {
        var value: AudioUnitParameterValue = 0
        AudioUnitGetParameter(delayUnit!, id, kAudioUnitScope_Global, 0, &value)
        return value
    }

    /// Writes the unit's ClassInfo to `path` as an XML property list.
    func savePreset(to path: String) throws {
        // The property hands over a +1 reference (the caller releases it), hence Unmanaged.
        var unmanaged: Unmanaged<CFPropertyList>?
        var size = UInt32(MemoryLayout<Unmanaged<CFPropertyList>?>.size)
        let status = AudioUnitGetProperty(delayUnit!, kAudioUnitProperty_ClassInfo, kAudioUnitScope_Global, 0, &unmanaged, &size)
        guard status == noErr, let classInfo = unmanaged?.takeRetainedValue() else { throw PresetError.status(status) }
        let xmlData = CFPropertyListCreateData(kCFAllocatorDefault, classInfo, .xmlFormat_v1_0, 0, nil)!.takeRetainedValue()
        let data = Data(bytes: CFDataGetBytePtr(xmlData), count: CFDataGetLength(xmlData))
        try data.write(to: URL(fileURLWithPath: path))
    }

    /// Restores the unit's state from a preset file written by `savePreset(to:)`.
    func loadPreset(from path: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let cfData = data.withUnsafeBytes { bytes in
            CFDataCreate(kCFAllocatorDefault, bytes.bindMemory(to: UInt8.self).baseAddress, data.count)!
        }
        guard let presetPropertyList = CFPropertyListCreateWithData(kCFAllocatorDefault, cfData, 0, nil, nil)?.takeRetainedValue() else {
            throw PresetError.notAPropertyList(path)
        }
        // The property takes the reference itself: its bytes, as C passes &plist.
        let status = withUnsafeBytes(of: presetPropertyList) { bytes in
            AudioUnitSetProperty(
                delayUnit!, kAudioUnitProperty_ClassInfo, kAudioUnitScope_Global, 0, bytes.baseAddress, UInt32(bytes.count))
        }
        guard status == noErr else { throw PresetError.status(status) }
    }

    /// Renders an impulse through the delay (mono, 44.1 kHz) and returns `frames` frames.
    func renderImpulse(frames: Int) -> [Float32] {
        var format = AudioStreamBasicDescription(
            mSampleRate: 44100, mFormatID: kAudioFormatLinearPCM,
            mFormatFlags: kAudioFormatFlagsNativeFloatPacked | kAudioFormatFlagIsNonInterleaved,
            mBytesPerPacket: 4, mFramesPerPacket: 1, mBytesPerFrame: 4,
            mChannelsPerFrame: 1, mBitsPerChannel: 32, mReserved: 0)
        let size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        AudioUnitSetProperty(delayUnit!, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &format, size)
        AudioUnitSetProperty(delayUnit!, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &format, size)
        var maximumFrames = UInt32(frames)
        AudioUnitSetProperty(delayUnit!, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &maximumFrames, 4)
        precondition(AudioUnitInitialize(delayUnit!) == noErr)
        defer { AudioUnitUninitialize(delayUnit!) }
        var output = [Float32](repeating: 0, count: frames)
        output[0] = 1  // the impulse, rendered in place with AudioUnitProcess
        output.withUnsafeMutableBufferPointer { samples in
            var bufferList = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(samples, numberOfChannels: 1))
            var flags = AudioUnitRenderActionFlags()
            var timeStamp = AudioTimeStamp()
            timeStamp.mFlags = .sampleTimeValid
            let status = AudioUnitProcess(delayUnit!, &flags, &timeStamp, UInt32(frames), &bufferList)
            precondition(status == noErr, "AudioUnitProcess \(status)")
        }
        return output
    }

    func dispose() {
        AudioComponentInstanceDispose(delayUnit!)
    }
}
