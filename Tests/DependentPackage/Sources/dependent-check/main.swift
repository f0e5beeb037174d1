// A program in a package that depends on AUHost by URL and version, as the README invites:
// `import AudioToolbox` alone, a delay found by its documented description, pulled offline.
import AudioToolbox

var description = AudioComponentDescription(
    componentType: kAudioUnitType_Effect, componentSubType: kAudioUnitSubType_Delay,
    componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
guard let component = AudioComponentFindNext(nil, &description) else { fatalError("no delay unit") }
var unit: AudioUnit?
precondition(AudioComponentInstanceNew(component, &unit) == noErr && unit != nil)
// Dry only: the output is the input, so the check is exact.
precondition(AudioUnitSetParameter(unit!, kDelayParam_WetDryMix, kAudioUnitScope_Global, 0, 0, 0) == noErr)
var callback = AURenderCallbackStruct(
    inputProc: { _, _, _, _, frames, ioData in
        for buffer in UnsafeMutableAudioBufferListPointer(ioData!) {
            let samples = buffer.mData!.assumingMemoryBound(to: Float.self)
            for i in 0..<Int(frames) { samples[i] = Float(i) / 1024 }
        }
        return noErr
    }, inputProcRefCon: nil)
precondition(
    AudioUnitSetProperty(
        unit!, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &callback,
        UInt32(MemoryLayout<AURenderCallbackStruct>.size)) == noErr)
precondition(AudioUnitInitialize(unit!) == noErr)
let list = AudioBufferList.allocate(maximumBuffers: 2)
let storage = UnsafeMutablePointer<Float>.allocate(capacity: 1024)
for (c, _) in list.enumerated() { list[c] = AudioBuffer(mNumberChannels: 1, mDataByteSize: 2048, mData: storage + 512 * c) }
var flags = AudioUnitRenderActionFlags()
var stamp = AudioTimeStamp()
stamp.mFlags = .sampleTimeValid
precondition(AudioUnitRender(unit!, &flags, &stamp, 0, 512, list.unsafeMutablePointer) == noErr)
let exact = (0..<1024).allSatisfy { storage[$0] == Float($0 % 512) / 1024 }
print("dependent package: AudioToolbox from a tagged clone rendered 512 frames, \(exact ? "exact" : "WRONG")")
exit(exact ? 0 : 1)
