import AUHost
import Foundation
import LADSPAUnits
import XCTest

/// INPLACE_BROKEN: a plug-in that sets it never sees an output buffer that is one of its input
/// buffers. None of the six packages sets the flag, so the plug-in is a fixture compiled here: it
/// doubles its input, and writes 1000 instead when its ports share a buffer.
final class LADSPAInPlaceTests: XCTestCase {
    static let source = """
        #include <ladspa.h>
        #include <stdlib.h>
        typedef struct { LADSPA_Data *in, *out; } Probe;
        static LADSPA_Handle make(const LADSPA_Descriptor *d, unsigned long rate) { return calloc(1, sizeof(Probe)); }
        static void connect(LADSPA_Handle h, unsigned long port, LADSPA_Data *data) {
            Probe *p = h; if (port == 0) p->in = data; else p->out = data;
        }
        static void run(LADSPA_Handle h, unsigned long n) {
            Probe *p = h;
            for (unsigned long i = 0; i < n; i++) p->out[i] = p->in == p->out ? 1000.0f : p->in[i] * 2.0f;
        }
        static void cleanup(LADSPA_Handle h) { free(h); }
        static const char *names[] = {"In", "Out"};
        static const LADSPA_PortDescriptor ports[] = {LADSPA_PORT_INPUT | LADSPA_PORT_AUDIO, LADSPA_PORT_OUTPUT | LADSPA_PORT_AUDIO};
        static const LADSPA_PortRangeHint hints[2];
        static const LADSPA_Descriptor descriptor = {
            990001, "inplace_probe", LADSPA_PROPERTY_INPLACE_BROKEN, "In-place probe", "AUHost tests", "None",
            2, ports, names, hints, NULL, make, connect, NULL, run, NULL, NULL, NULL, cleanup};
        const LADSPA_Descriptor *ladspa_descriptor(unsigned long i) { return i == 0 ? &descriptor : NULL; }
        """

    func testAnInputSharingTheOutputBufferIsCopiedFirst() throws {
        let folder = LADSPATestSupport.scratch + "/inplace"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try LADSPATestSupport.compileLibrary(Self.source, to: folder + "/inplace_probe.so")
        let provider = LADSPAProvider(ladspaPath: folder, dssiPath: folder + "/none")
        ComponentRegistry.shared.install(provider)
        let component = try XCTUnwrap(provider.component(label: "inplace_probe"))
        var made: AudioUnit?
        XCTAssertEqual(AudioComponentInstanceNew(component.handle, &made), noErr)
        let unit = try XCTUnwrap(made)
        defer { AudioComponentInstanceDispose(unit) }
        var no: UInt32 = 0
        XCTAssertEqual(
            AudioUnitSetProperty(unit, kAudioUnitProperty_ShouldAllocateBuffer, kAudioUnitScope_Input, 0, &no, 4), noErr)
        let frames: UInt32 = 256
        let storage = AudioBufferStorage(format: .canonical(sampleRate: 44_100, channels: 1), capacity: frames)
        // The input callback hands back the very buffer the output is rendered into (an in-place
        // host does this), filled with 0.25.
        var callback = AURenderCallbackStruct(
            inputProc: { refCon, _, _, _, frames, ioData in
                let output = refCon.assumingMemoryBound(to: AudioBufferList.self)
                let shared = UnsafeMutableAudioBufferListPointer(output)[0].mData!
                shared.assumingMemoryBound(to: Float.self).update(repeating: 0.25, count: Int(frames))
                let buffers = UnsafeMutableAudioBufferListPointer(ioData!)
                buffers[0].mData = shared
                buffers[0].mDataByteSize = frames * 4
                return noErr
            }, inputProcRefCon: UnsafeMutableRawPointer(storage.list))
        XCTAssertEqual(
            AudioUnitSetProperty(
                unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &callback,
                UInt32(MemoryLayout<AURenderCallbackStruct>.size)), noErr)
        XCTAssertEqual(AudioUnitInitialize(unit), noErr)
        storage.prepare(frames: frames)
        var flags: AudioUnitRenderActionFlags = []
        var time = AudioTimeStamp()
        time.mFlags = .sampleTimeValid
        XCTAssertEqual(AudioUnitRender(unit, &flags, &time, 0, frames, storage.list), noErr)
        XCTAssertEqual(storage.samples(channel: 0, frames: Int(frames)), [Float](repeating: 0.5, count: Int(frames)))
    }
}
