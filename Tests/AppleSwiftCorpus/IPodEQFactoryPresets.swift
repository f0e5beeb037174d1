// Ported from: Audio Unit Hosting Guide for iOS, "Using Specific Audio Units", "iPod Equalizer
// Unit" (its only control is a preset: read the CFArray of AUPreset from
// kAudioUnitProperty_FactoryPresets and set one with kAudioUnitProperty_PresentPreset), with the
// unit created by AudioComponentInstantiate and a completion closure, as Swift on Apple's
// platforms creates units asynchronously (AudioComponent.h, "AudioComponentInstantiate").
import AudioToolbox
import Foundation

final class IPodEQPresetHost {
    var iPodEQUnit: AudioUnit?
    var instantiationStatus: OSStatus = -1
    /// Kept for the unit's lifetime: the presets' names point into it.
    var presets: CFArray?

    /// The preset's name. On Apple `preset.presetName!.takeUnretainedValue() as String`; a CFString
    /// does not bridge to String on Linux (docs/PORTING.md), so it is read with CFStringGetCString.
    static func name(of preset: AUPreset) -> String {
        guard let name = preset.presetName?.takeUnretainedValue() else { return "" }
        var buffer = [CChar](repeating: 0, count: 256)
        _ = CFStringGetCString(name, &buffer, CFIndex(buffer.count), CFStringBuiltInEncodings.UTF8.rawValue)
        return String(cString: buffer)
    }

    func instantiate() {
        var description = AudioComponentDescription()
        description.componentType = kAudioUnitType_Effect
        description.componentSubType = kAudioUnitSubType_AUiPodEQ
        description.componentManufacturer = kAudioUnitManufacturer_Apple
        let component = AudioComponentFindNext(nil, &description)!
        AudioComponentInstantiate(component, []) { audioUnit, status in
            self.iPodEQUnit = audioUnit
            self.instantiationStatus = status
        }
    }

    /// The factory presets, in the unit's order.
    func factoryPresets() -> [AUPreset] {
        // The property hands over a +1 reference (the caller releases it), hence Unmanaged.
        var array: Unmanaged<CFArray>?
        var size = UInt32(MemoryLayout<Unmanaged<CFArray>?>.size)
        let status = AudioUnitGetProperty(iPodEQUnit!, kAudioUnitProperty_FactoryPresets, kAudioUnitScope_Global, 0, &array, &size)
        precondition(status == noErr, "FactoryPresets \(status)")
        let presets = array!.takeRetainedValue()
        self.presets = presets
        return (0..<CFArrayGetCount(presets)).map { index in
            CFArrayGetValueAtIndex(presets, index)!.assumingMemoryBound(to: AUPreset.self).pointee
        }
    }

    func select(_ preset: AUPreset) -> OSStatus {
        var preset = preset
        return AudioUnitSetProperty(
            iPodEQUnit!, kAudioUnitProperty_PresentPreset, kAudioUnitScope_Global, 0,
            &preset, UInt32(MemoryLayout<AUPreset>.size))
    }

    func presentPresetName() -> String {
        var preset = AUPreset()
        var size = UInt32(MemoryLayout<AUPreset>.size)
        AudioUnitGetProperty(iPodEQUnit!, kAudioUnitProperty_PresentPreset, kAudioUnitScope_Global, 0, &preset, &size)
        defer { preset.presetName?.release() }  // the property's name is a +1 copy
        return Self.name(of: preset)
    }

    /// Processes `input` (stereo, the same signal on both channels) in place with AudioUnitProcess.
    func process(_ input: [Float32]) -> [[Float32]] {
        var format = AudioStreamBasicDescription(
            mSampleRate: 44100, mFormatID: kAudioFormatLinearPCM,
            mFormatFlags: kAudioFormatFlagsNativeFloatPacked | kAudioFormatFlagIsNonInterleaved,
            mBytesPerPacket: 4, mFramesPerPacket: 1, mBytesPerFrame: 4,
            mChannelsPerFrame: 2, mBitsPerChannel: 32, mReserved: 0)
        let size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        AudioUnitSetProperty(iPodEQUnit!, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &format, size)
        AudioUnitSetProperty(iPodEQUnit!, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &format, size)
        var maximumFrames = UInt32(input.count)
        AudioUnitSetProperty(iPodEQUnit!, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &maximumFrames, 4)
        if AudioUnitInitialize(iPodEQUnit!) != noErr { return [] }
        defer { AudioUnitUninitialize(iPodEQUnit!) }
        var left = input, right = input
        left.withUnsafeMutableBufferPointer { l in
            right.withUnsafeMutableBufferPointer { r in
                let bufferList = AudioBufferList.allocate(maximumBuffers: 2)
                defer { free(bufferList.unsafeMutablePointer) }
                bufferList[0] = AudioBuffer(l, numberOfChannels: 1)
                bufferList[1] = AudioBuffer(r, numberOfChannels: 1)
                var flags = AudioUnitRenderActionFlags()
                var timeStamp = AudioTimeStamp()
                timeStamp.mFlags = .sampleTimeValid
                let status = AudioUnitProcess(iPodEQUnit!, &flags, &timeStamp, UInt32(input.count), bufferList.unsafeMutablePointer)
                precondition(status == noErr, "AudioUnitProcess \(status)")
            }
        }
        return [left, right]
    }

    func dispose() {
        AudioComponentInstanceDispose(iPodEQUnit!)
    }
}
