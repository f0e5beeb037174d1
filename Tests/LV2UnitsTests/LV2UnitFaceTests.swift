import Foundation
import LV2Host
import LV2Units
import TestSupport
import XCTest

/// Parameters, presets, state, URIs and the worker mode, through the documented C API.
final class LV2UnitFaceTests: XCTestCase {
    func testParameterInfoComesFromThePortData() throws {
        let amp = try LV2UnitRig(component: LV2UnitTestSupport.component("http://lv2plug.in/plugins/eg-amp"), initialize: false)
        let gain = try parameterInfo(amp.unit, 0)
        XCTAssertEqual(String(cfString: gain.cfNameString?.takeUnretainedValue()), "Gain")
        XCTAssertEqual(gain.unit, kAudioUnitParameterUnit_Decibels)
        XCTAssertEqual([gain.minValue, gain.maxValue, gain.defaultValue], [-90, 24, 0])
        XCTAssertTrue(gain.flags.contains(.flag_IsWritable))

        let combo = try LV2UnitRig(component: LV2UnitTestSupport.component("http://drobilla.net/plugins/mda/Combo"), initialize: false)
        XCTAssertEqual(try parameterInfo(combo.unit, 4).unit, kAudioUnitParameterUnit_Boolean, "lv2:toggled")

        let bandpass = try LV2UnitRig(
            component: LV2UnitTestSupport.component("http://plugin.org.uk/swh-plugins/bandpass_iir"), initialize: false)
        XCTAssertTrue(try parameterInfo(bandpass.unit, 0).flags.contains(.flag_DisplayLogarithmic), "lv2:logarithmic")
    }

    /// mda Shepard's enumerated "mode" (scale points 0, 0.5, 1) is an index 0…2 with the labels
    /// as value strings; index 1 reaches the plug-in as 0.5 (same output as a direct run at 0.5).
    func testEnumerationIsAnIndexWithValueStrings() throws {
        let uri = "http://drobilla.net/plugins/mda/Shepard"
        let plugin = try LV2UnitTestSupport.world.plugin(uri: uri)
        let mode = try XCTUnwrap(plugin.ports.first { $0.symbol == "mode" }).index
        let rig = try LV2UnitRig(component: LV2UnitTestSupport.component(uri), maxFrames: 256)
        let modeInfo = try parameterInfo(rig.unit, UInt32(mode))
        XCTAssertEqual(modeInfo.unit, kAudioUnitParameterUnit_Indexed)
        XCTAssertEqual([modeInfo.minValue, modeInfo.maxValue], [0, 2])
        var strings: Unmanaged<CFArray>?
        var size = UInt32(MemoryLayout<UnsafeRawPointer>.size)
        XCTAssertEqual(
            AudioUnitGetProperty(
                rig.unit, kAudioUnitProperty_ParameterValueStrings, kAudioUnitScope_Global, UInt32(mode),
                &strings, &size), noErr)
        let labels = CFBridge.value(strings.map { UnsafeRawPointer($0.toOpaque()) })
        strings?.release()
        XCTAssertEqual(
            labels, .array([.string("Tones only"), .string("Input ring modulated by tones"), .string("Tones mixed with input")]))

        XCTAssertEqual(AudioUnitSetParameter(rig.unit, UInt32(mode), kAudioUnitScope_Global, 0, 1, 0), noErr)
        let input = (0..<2).map { LV2UnitTestSupport.noise(2048, seed: UInt32(40 + $0)) }
        rig.inputs = [input]
        let ours = rig.render(frames: 2048, block: 256)[0]
        let direct = try LV2Instance(plugin: plugin, configuration: .init(sampleRate: 48_000, maxBlockLength: 256))
        try direct.setControl(portIndex: mode, to: 0.5)
        direct.activate()
        let expected = LV2UnitTestSupport.renderDirect(direct, inputs: input, frames: 2048, block: 256)
        XCTAssertEqual(ours, expected)
    }

    /// Presets are FactoryPresets; choosing one sets the parameters to its port values.
    func testPresetsAreFactoryPresets() throws {
        let uri = "http://drobilla.net/plugins/mda/Piano"
        let plugin = try LV2UnitTestSupport.world.plugin(uri: uri)
        let presets = plugin.presets
        XCTAssertGreaterThan(presets.count, 2)
        let rig = try LV2UnitRig(component: LV2UnitTestSupport.component(uri), maxFrames: 256)
        var array: Unmanaged<CFArray>?
        var size = UInt32(MemoryLayout<UnsafeRawPointer>.size)
        XCTAssertEqual(AudioUnitGetProperty(rig.unit, kAudioUnitProperty_FactoryPresets, kAudioUnitScope_Global, 0, &array, &size), noErr)
        let cfArray = try XCTUnwrap(array).takeRetainedValue()
        XCTAssertEqual(CFArrayGetCount(cfArray), presets.count)

        var chosen = AUPreset(presetNumber: 2, presetName: nil)
        XCTAssertEqual(
            AudioUnitSetProperty(
                rig.unit, kAudioUnitProperty_PresentPreset, kAudioUnitScope_Global, 0, &chosen,
                UInt32(MemoryLayout<AUPreset>.size)), noErr)
        let values = try plugin.presetPortValues(uri: presets[2].uri)
        XCTAssertFalse(values.isEmpty)
        for (symbol, value) in values {
            let port = try XCTUnwrap(plugin.ports.first { $0.symbol == symbol }).index
            XCTAssertEqual(rig.parameter(UInt32(port)), value, symbol)
        }
        var present = AUPreset()
        size = UInt32(MemoryLayout<AUPreset>.size)
        XCTAssertEqual(AudioUnitGetProperty(rig.unit, kAudioUnitProperty_PresentPreset, kAudioUnitScope_Global, 0, &present, &size), noErr)
        XCTAssertEqual(String(cfString: present.presetName?.takeUnretainedValue()), presets[2].label)
    }

    /// ClassInfo carries the parameters and the plug-in's own LV2 state (eg-sampler's sample
    /// file) and restores them into a new unit; another plug-in's ClassInfo is refused.
    func testClassInfoCarriesParametersAndPluginState() throws {
        let sampler = try LV2UnitTestSupport.component("http://lv2plug.in/plugins/eg-sampler")
        let first = try LV2UnitRig(component: sampler, maxFrames: 256)
        var classInfo: UnsafeRawPointer?
        var size = UInt32(MemoryLayout<UnsafeRawPointer>.size)
        XCTAssertEqual(AudioUnitGetProperty(first.unit, kAudioUnitProperty_ClassInfo, kAudioUnitScope_Global, 0, &classInfo, &size), noErr)
        let plist = try XCTUnwrap(CFBridge.value(classInfo))
        guard case .dictionary(let extra)? = plist["auhost-state"] else { return XCTFail("no auhost-state in ClassInfo") }
        XCTAssertEqual(extra["lv2-uri"], .string("http://lv2plug.in/plugins/eg-sampler"))
        XCTAssertTrue(extra["lv2-state"]?.stringValue?.contains("click.wav") ?? false, "the sample file is in the plug-in's state")

        let second = try LV2UnitRig(component: sampler, maxFrames: 256)
        XCTAssertEqual(AudioUnitSetProperty(second.unit, kAudioUnitProperty_ClassInfo, kAudioUnitScope_Global, 0, &classInfo, size), noErr)
        XCTAssertEqual(MusicDeviceMIDIEvent(second.unit, 0x90, 60, 100, 0), noErr)
        XCTAssertGreaterThan(second.render(frames: 4096, block: 256)[0][0].map(abs).max()!, 0.05, "the restored sampler plays")

        let amp = try LV2UnitRig(component: LV2UnitTestSupport.component("http://lv2plug.in/plugins/eg-amp"), initialize: false)
        XCTAssertEqual(
            AudioUnitSetProperty(amp.unit, kAudioUnitProperty_ClassInfo, kAudioUnitScope_Global, 0, &classInfo, size),
            kAudioUnitErr_InvalidPropertyValue)
        Unmanaged<AnyObject>.fromOpaque(classInfo!).release()

        // Parameters travel in ClassInfo too (eg-amp's gain, port 0).
        XCTAssertEqual(AudioUnitSetParameter(amp.unit, 0, kAudioUnitScope_Global, 0, -3, 0), noErr)
        XCTAssertEqual(AudioUnitGetProperty(amp.unit, kAudioUnitProperty_ClassInfo, kAudioUnitScope_Global, 0, &classInfo, &size), noErr)
        let otherAmp = try LV2UnitRig(component: LV2UnitTestSupport.component("http://lv2plug.in/plugins/eg-amp"), initialize: false)
        XCTAssertEqual(
            AudioUnitSetProperty(otherAmp.unit, kAudioUnitProperty_ClassInfo, kAudioUnitScope_Global, 0, &classInfo, size), noErr)
        XCTAssertEqual(otherAmp.parameter(0), -3)
        Unmanaged<AnyObject>.fromOpaque(classInfo!).release()
    }

    /// A URI finds the component; its origin names URI and bundle; the unit reports its URI.
    func testURILookupAndOrigin() throws {
        let component = try LV2UnitTestSupport.component("http://lv2plug.in/plugins/eg-amp")
        XCTAssertTrue(component.origin.hasPrefix("lv2 http://lv2plug.in/plugins/eg-amp file://"), component.origin)
        XCTAssertEqual(component.description.componentType, kAudioUnitType_Effect)
        XCTAssertNil(LV2Provider.component(uri: "urn:nobody:here"))
        var search = component.description
        XCTAssertEqual(AudioComponentFindNext(nil, &search), component.handle, "the description finds the same component")
        let rig = try LV2UnitRig(component: component, initialize: false)
        var uri: Unmanaged<CFString>?
        var size = UInt32(MemoryLayout<UnsafeRawPointer>.size)
        XCTAssertEqual(AudioUnitGetProperty(rig.unit, kLV2UnitProperty_PluginURI, kAudioUnitScope_Global, 0, &uri, &size), noErr)
        XCTAssertEqual(String(cfString: uri?.takeRetainedValue()), "http://lv2plug.in/plugins/eg-amp")
    }

    /// The AUHost extensions of AudioComponent.h that hosts taking URIs need (the Python door):
    /// a C lookup by URI that reads that plug-in only, and the component's origin.
    func testCAPIFindsAnLV2PluginByURIAndNamesItsOrigin() throws {
        let component = try LV2UnitTestSupport.component("http://lv2plug.in/plugins/eg-amp")
        let found = try XCTUnwrap(AUHostComponentFindLV2("http://lv2plug.in/plugins/eg-amp"))
        var description = AudioComponentDescription()
        XCTAssertEqual(AudioComponentGetDescription(found, &description), noErr)
        XCTAssertEqual(description.tripleString, component.description.tripleString)
        XCTAssertNil(AUHostComponentFindLV2("urn:nobody:here"))
        XCTAssertEqual(String(cfString: AUHostComponentCopyOrigin(found)?.takeRetainedValue()), component.origin)
        var delay = AudioComponentDescription(type: kAudioUnitType_Effect, subType: kAudioUnitSubType_Delay, manufacturer: 0)
        let builtIn = try XCTUnwrap(AudioComponentFindNext(nil, &delay))
        XCTAssertEqual(String(cfString: AUHostComponentCopyOrigin(builtIn)?.takeRetainedValue()), "built-in")
    }

    /// Live mode (worker thread, isLive offered) renders the sampler too; the mode cannot change
    /// while initialized. The default is offline, so the live instance is the property's doing.
    func testLiveWorkerMode() throws {
        let component = try LV2UnitTestSupport.component("http://lv2plug.in/plugins/eg-sampler")
        let offline = try LV2UnitRig(component: component, maxFrames: 256)
        XCTAssertEqual(try liveWorker(offline.unit), 0, "offline by default")
        XCTAssertEqual(instance(offline.unit)?.configuration.live, false, "an offline instance by default")

        let rig = try LV2UnitRig(component: component, maxFrames: 256, initialize: false)
        var live: UInt32 = 1
        XCTAssertEqual(AudioUnitSetProperty(rig.unit, kLV2UnitProperty_LiveWorker, kAudioUnitScope_Global, 0, &live, 4), noErr)
        XCTAssertEqual(try liveWorker(rig.unit), 1)
        XCTAssertEqual(AudioUnitInitialize(rig.unit), noErr)
        XCTAssertEqual(instance(rig.unit)?.configuration.live, true, "the instance made live (worker thread, lv2:isLive offered)")
        XCTAssertEqual(
            AudioUnitSetProperty(rig.unit, kLV2UnitProperty_LiveWorker, kAudioUnitScope_Global, 0, &live, 4), kAudioUnitErr_Initialized)
        XCTAssertEqual(MusicDeviceMIDIEvent(rig.unit, 0x90, 60, 100, 0), noErr)
        XCTAssertGreaterThan(rig.render(frames: 4096, block: 256)[0][0].map(abs).max()!, 0.05)
    }

    func liveWorker(_ unit: AudioUnit) throws -> UInt32 {
        var value: UInt32 = 99, size: UInt32 = 4
        try AudioError.check(
            AudioUnitGetProperty(unit, kLV2UnitProperty_LiveWorker, kAudioUnitScope_Global, 0, &value, &size), "LiveWorker")
        return value
    }

    /// The LV2 instance behind an initialized unit of this process.
    func instance(_ unit: AudioUnit) -> LV2Instance? { (ComponentInstance.from(unit)?.unit as? LV2Unit)?.lv2Instance }
}
