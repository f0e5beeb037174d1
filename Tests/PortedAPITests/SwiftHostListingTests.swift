import XCTest
import AudioToolbox
import TestSupport

/// The bar: Swift code written as on Apple's platforms builds an effect by description
/// with wildcards, sets formats and MaximumFramesPerSlice, attaches a render callback,
/// initializes, renders 3 slices of 512 frames and disposes — and produces the expected samples.
final class SwiftHostListingTests: XCTestCase {
    func testEffectByWildcardDescriptionRendersThreeSlices() throws {
        registerTestUnits()

        // --- As one writes it on Apple's platforms.
        var desc = AudioComponentDescription(
            componentType: kAudioUnitType_Effect, componentSubType: 0x7467616E /* 'tgan' */,
            componentManufacturer: 0, componentFlags: 0, componentFlagsMask: 0)
        guard let component = AudioComponentFindNext(nil, &desc) else { return XCTFail("no effect found") }
        var unitOrNil: AudioUnit?
        XCTAssertEqual(AudioComponentInstanceNew(component, &unitOrNil), noErr)
        let unit = try XCTUnwrap(unitOrNil)

        var asbd = AudioStreamBasicDescription(
            mSampleRate: 44_100, mFormatID: kAudioFormatLinearPCM,
            mFormatFlags: kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked | kAudioFormatFlagIsNonInterleaved,
            mBytesPerPacket: 4, mFramesPerPacket: 1, mBytesPerFrame: 4, mChannelsPerFrame: 2, mBitsPerChannel: 32, mReserved: 0)
        XCTAssertEqual(
            AudioUnitSetProperty(
                unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0,
                &asbd, UInt32(MemoryLayout<AudioStreamBasicDescription>.size)), noErr)
        XCTAssertEqual(
            AudioUnitSetProperty(
                unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0,
                &asbd, UInt32(MemoryLayout<AudioStreamBasicDescription>.size)), noErr)
        var maxFrames: UInt32 = 512
        XCTAssertEqual(
            AudioUnitSetProperty(
                unit, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0,
                &maxFrames, UInt32(MemoryLayout<UInt32>.size)), noErr)

        let frameCounter = UnsafeMutablePointer<Int>.allocate(capacity: 1)  // the callback's refCon outlives this call
        frameCounter.initialize(to: 0)
        defer { frameCounter.deallocate() }
        var callbackStruct = AURenderCallbackStruct(inputProc: rampCallback, inputProcRefCon: frameCounter)
        XCTAssertEqual(
            AudioUnitSetProperty(
                unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0,
                &callbackStruct, UInt32(MemoryLayout<AURenderCallbackStruct>.size)), noErr)
        XCTAssertEqual(AudioUnitSetParameter(unit, 0, kAudioUnitScope_Global, 0, 0.5, 0), noErr)
        XCTAssertEqual(AudioUnitInitialize(unit), noErr)

        let left = UnsafeMutablePointer<Float>.allocate(capacity: 512), right = UnsafeMutablePointer<Float>.allocate(capacity: 512)
        defer { left.deallocate(); right.deallocate() }
        let bufferList = AudioBufferList.allocate(maximumBuffers: 2)
        defer { free(bufferList.unsafeMutablePointer) }
        var timeStamp = AudioTimeStamp()
        timeStamp.mFlags = .sampleTimeValid
        for slice in 0..<3 {
            bufferList[0] = AudioBuffer(mNumberChannels: 1, mDataByteSize: 512 * 4, mData: left)
            bufferList[1] = AudioBuffer(mNumberChannels: 1, mDataByteSize: 512 * 4, mData: right)
            var flags: AudioUnitRenderActionFlags = []
            XCTAssertEqual(AudioUnitRender(unit, &flags, &timeStamp, 0, 512, bufferList.unsafeMutablePointer), noErr)
            for i in 0..<512 {
                let n = Float(slice * 512 + i)
                XCTAssertEqual(left[i], 0.5 * n)
                XCTAssertEqual(right[i], 0.5 * (n + 1000))
            }
            timeStamp.mSampleTime += 512
        }
        XCTAssertEqual(AudioUnitUninitialize(unit), noErr)
        XCTAssertEqual(AudioComponentInstanceDispose(unit), noErr)
        // --- End of the listing.

        var name: Unmanaged<CFString>?
        XCTAssertEqual(AudioComponentCopyName(component, &name), noErr)
        XCTAssertEqual(String(cfString: name?.takeRetainedValue()), "AUHost Tests: Gain")
    }
}
