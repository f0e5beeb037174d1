// Ported from: Audio Unit Hosting Guide, "Audio Unit Hosting Fundamentals", "Audio Units Use
// Properties and Parameters" / AUComponent.h, AudioUnitAddPropertyListener and
// AudioUnitRemovePropertyListenerWithUserData: a listener object registered with an Unmanaged
// refCon observes kAudioUnitProperty_StreamFormat on an effect (the host changes the output
// format; the listener reads the new value back with AudioUnitGetProperty) and
// kAudioOutputUnitProperty_IsRunning on an output unit (AudioOutputUnitStart / Stop), the way
// Apple's hosts track whether an I/O unit runs.
import AudioToolbox
import Foundation

struct PropertyChange: Equatable {
    var propertyID: AudioUnitPropertyID
    var scope: AudioUnitScope
    var element: AudioUnitElement
    /// The format's rate when the property is StreamFormat, IsRunning's value when it is IsRunning.
    var value: Double
}

final class UnitPropertyObserver {
    var changes: [PropertyChange] = []
}

let unitPropertyListener: AudioUnitPropertyListenerProc = { inRefCon, inUnit, inID, inScope, inElement in
    let observer = Unmanaged<UnitPropertyObserver>.fromOpaque(inRefCon).takeUnretainedValue()
    switch inID {
    case kAudioUnitProperty_StreamFormat:
        var format = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        AudioUnitGetProperty(inUnit, inID, inScope, inElement, &format, &size)
        observer.changes.append(PropertyChange(propertyID: inID, scope: inScope, element: inElement, value: format.mSampleRate))
    case kAudioOutputUnitProperty_IsRunning:
        var isRunning: UInt32 = 0
        var size = UInt32(MemoryLayout<UInt32>.size)
        AudioUnitGetProperty(inUnit, inID, inScope, inElement, &isRunning, &size)
        observer.changes.append(PropertyChange(propertyID: inID, scope: inScope, element: inElement, value: Double(isRunning)))
    default:
        observer.changes.append(PropertyChange(propertyID: inID, scope: inScope, element: inElement, value: .nan))
    }
}

final class PropertyListenerHost {
    let observer = UnitPropertyObserver()

    static func newUnit(_ type: OSType, _ subType: OSType) -> AudioUnit {
        var description = AudioComponentDescription(
            componentType: type, componentSubType: subType,
            componentManufacturer: kAudioUnitManufacturer_Apple,
            componentFlags: 0, componentFlagsMask: 0)
        var unit: AudioUnit?
        AudioComponentInstanceNew(AudioComponentFindNext(nil, &description)!, &unit)
        return unit!
    }

    /// Sets the delay's output format to `rates` one after the other, removes the listener, sets
    /// one more; returns the StreamFormat changes the listener saw.
    func observeStreamFormatChanges(rates: [Float64], afterRemoval: Float64) -> [PropertyChange] {
        let delayUnit = Self.newUnit(kAudioUnitType_Effect, kAudioUnitSubType_Delay)
        defer { AudioComponentInstanceDispose(delayUnit) }
        let refCon = Unmanaged.passUnretained(observer).toOpaque()
        precondition(AudioUnitAddPropertyListener(delayUnit, kAudioUnitProperty_StreamFormat, unitPropertyListener, refCon) == noErr)
        var format = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        AudioUnitGetProperty(delayUnit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &format, &size)
        for rate in rates {
            format.mSampleRate = rate
            precondition(
                AudioUnitSetProperty(delayUnit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &format, size) == noErr)
        }
        precondition(
            AudioUnitRemovePropertyListenerWithUserData(delayUnit, kAudioUnitProperty_StreamFormat, unitPropertyListener, refCon) == noErr)
        format.mSampleRate = afterRemoval
        AudioUnitSetProperty(delayUnit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &format, size)
        return observer.changes.filter { $0.propertyID == kAudioUnitProperty_StreamFormat }
    }

    /// Starts and stops a generic output unit; returns the IsRunning changes the listener saw.
    func observeIsRunning() -> [PropertyChange] {
        let outputUnit = Self.newUnit(kAudioUnitType_Output, kAudioUnitSubType_GenericOutput)
        defer { AudioComponentInstanceDispose(outputUnit) }
        let refCon = Unmanaged.passUnretained(observer).toOpaque()
        precondition(AudioUnitAddPropertyListener(outputUnit, kAudioOutputUnitProperty_IsRunning, unitPropertyListener, refCon) == noErr)
        precondition(AudioUnitInitialize(outputUnit) == noErr)
        precondition(AudioOutputUnitStart(outputUnit) == noErr)
        precondition(AudioOutputUnitStop(outputUnit) == noErr)
        AudioUnitRemovePropertyListenerWithUserData(outputUnit, kAudioOutputUnitProperty_IsRunning, unitPropertyListener, refCon)
        AudioUnitUninitialize(outputUnit)
        return observer.changes.filter { $0.propertyID == kAudioOutputUnitProperty_IsRunning }
    }
}
