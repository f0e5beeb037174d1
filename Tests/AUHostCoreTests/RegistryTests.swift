import XCTest
import TestSupport

final class RegistryTests: XCTestCase {
    /// A provider installed twice counts once: with its components listed twice, a FindNext walk
    /// went round for ever (each call finds the first copy of `previous`).
    func testAProviderInstalledTwiceIsWalkedOnce() throws {
        final class TwoUnits: ComponentProvider {
            let name = "twice"
            lazy var made: [Component] = ["twc1", "twc2"].map { subtype in
                Component(
                    description: AudioComponentDescription(
                        type: kAudioUnitType_Effect, subType: FourCC.code(subtype)!, manufacturer: FourCC.code("AUtw")!),
                    name: "AUHost test: \(subtype)", version: 1, origin: "test",
                    factory: { _ in throw AudioError(kAudioUnitErr_FailedInitialization, "not made in this test") })
            }
            func components() -> [Component] { made }
        }
        let provider = TwoUnits()
        ComponentRegistry.shared.install(provider)
        ComponentRegistry.shared.install(provider)
        var search = AudioComponentDescription(type: kAudioUnitType_Effect, subType: 0, manufacturer: FourCC.code("AUtw")!)
        var walked: [AudioComponent] = []
        var c = AudioComponentFindNext(nil, &search)
        while let found = c, walked.count < 10 {
            walked.append(found)
            c = AudioComponentFindNext(found, &search)
        }
        XCTAssertEqual(walked.count, 2, "the walk did not end after the provider's two units")
        XCTAssertEqual(AudioComponentCount(&search), 2)
    }

    /// Providers that discover concurrently are asked at once, each on its own thread, and their
    /// components keep installation order around a provider asked on the calling thread.
    func testConcurrentProvidersAreAskedAtOnceAndKeepTheirOrder() throws {
        final class Rendezvous: ComponentProvider {
            let name: String
            let discoversConcurrently: Bool
            let started = DispatchSemaphore(value: 0)
            var partner: Rendezvous?
            var sawPartnerRunning = false
            var thread: pthread_t?
            init(_ name: String, concurrent: Bool = true) {
                self.name = name
                discoversConcurrently = concurrent
            }
            func components() -> [Component] {
                thread = pthread_self()
                started.signal()
                // Asked one after the other, the first would wait here for the full timeout.
                if let partner { sawPartnerRunning = partner.started.wait(timeout: .now() + 10) == .success }
                let description = AudioComponentDescription(
                    type: kAudioUnitType_Effect, subType: FourCC.code(name)!, manufacturer: FourCC.code("AUcc")!)
                return [
                    Component(
                        description: description, name: "AUHost test: \(name)", version: 1, origin: "test",
                        factory: { _ in throw AudioError(kAudioUnitErr_FailedInitialization, "not made in this test") })
                ]
            }
        }
        let first = Rendezvous("ccr1"), between = Rendezvous("ccr2", concurrent: false), second = Rendezvous("ccr3")
        first.partner = second
        second.partner = first
        for provider in [first, between, second] { ComponentRegistry.shared.install(provider) }

        let found = ComponentRegistry.shared.find(
            AudioComponentDescription(type: kAudioUnitType_Effect, subType: 0, manufacturer: FourCC.code("AUcc")!))

        XCTAssertEqual(found.map(\.description.componentSubType), ["ccr1", "ccr2", "ccr3"].map { FourCC.code($0)! })
        XCTAssertTrue(first.sawPartnerRunning && second.sawPartnerRunning, "the two providers did not run at the same time")
        XCTAssertEqual(first.thread.map { pthread_equal($0, pthread_self()) }, 1, "the calling thread takes the first")
        XCTAssertEqual(second.thread.map { pthread_equal($0, pthread_self()) }, 0)
        XCTAssertEqual(between.thread.map { pthread_equal($0, pthread_self()) }, 1)
    }

    func testWildcardsFlagsAndStableOrder() throws {
        registerTestUnits()
        var exact = TestGainUnit.description
        let gain = try XCTUnwrap(AudioComponentFindNext(nil, &exact))
        XCTAssertEqual(registerTestUnits(), gain, "registering the same description again returns the same component")
        var bySubtype = AudioComponentDescription(type: 0, subType: FourCC.code("tgan")!, manufacturer: 0)
        XCTAssertEqual(AudioComponentFindNext(nil, &bySubtype), gain)
        var other = AudioComponentDescription(type: kAudioUnitType_Generator, subType: FourCC.code("tgan")!, manufacturer: 0)
        XCTAssertNil(AudioComponentFindNext(nil, &other))
        var masked = TestGainUnit.description
        masked.componentFlags = AudioComponentFlags.sandboxSafe.rawValue
        masked.componentFlagsMask = AudioComponentFlags.sandboxSafe.rawValue
        XCTAssertNil(AudioComponentFindNext(nil, &masked), "the flags are compared under the mask")

        var all = AudioComponentDescription(type: 0)
        var order: [AudioComponent] = []
        var c = AudioComponentFindNext(nil, &all)
        while let found = c { order.append(found); c = AudioComponentFindNext(found, &all) }
        XCTAssertEqual(UInt32(order.count), AudioComponentCount(&all))
        var again: [AudioComponent] = []
        c = AudioComponentFindNext(nil, &all)
        while let found = c { again.append(found); c = AudioComponentFindNext(found, &all) }
        XCTAssertEqual(order, again)

        var out = AudioComponentDescription()
        XCTAssertEqual(AudioComponentGetDescription(gain, &out), noErr)
        XCTAssertEqual(out, TestGainUnit.description)
        var version: UInt32 = 0
        XCTAssertEqual(AudioComponentGetVersion(gain, &version), noErr)
        XCTAssertEqual(version, 0x0001_0000)
    }

    func testAliasesFindAUnitByADocumentedIdentity() throws {
        let documented = AudioComponentDescription(
            type: kAudioUnitType_Effect, subType: FourCC.code("tal1")!,
            manufacturer: kAudioUnitManufacturer_Apple)
        let own = AudioComponentDescription(type: kAudioUnitType_Effect, subType: FourCC.code("tal1")!, manufacturer: FourCC.code("AUHt")!)
        ComponentRegistry.shared.register(
            Component(
                description: own, aliases: [documented], name: "AUHost Tests: Alias",
                version: 1
            ) { TestGainUnit($0) })
        var search = documented
        let found = try XCTUnwrap(AudioComponentFindNext(nil, &search))
        var real = AudioComponentDescription()
        XCTAssertEqual(AudioComponentGetDescription(found, &real), noErr)
        XCTAssertEqual(real, own, "GetDescription gives the unit's own identity")
    }

    func testFactoryReturningNullIsAClearError() throws {
        var d = AudioComponentDescription(type: kAudioUnitType_Effect, subType: FourCC.code("null")!, manufacturer: FourCC.code("AUHt")!)
        let component = AudioComponentRegister(&d, AUHostConstantString("AUHost Tests: Null")!.takeUnretainedValue(), 1) { _ in nil }
        var unit: AudioUnit?
        XCTAssertEqual(AudioComponentInstanceNew(component, &unit), kAudioUnitErr_FailedInitialization)
        XCTAssertNil(unit)
        XCTAssertTrue((String(cfString: AUHostCopyLastErrorMessage()?.takeRetainedValue()) ?? "").contains("returned NULL"))
    }

    func testCAShowDescribesAUnit() throws {
        let f = try GainFixture()
        let path = NSTemporaryDirectory() + "cashow-\(getpid()).txt"
        let file = fopen(path, "w")
        CAShowFile(UnsafeMutableRawPointer(f.unit), file!)
        fclose(file)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertTrue(text.contains("aufx tgan AUHt"), text)
        XCTAssertTrue(text.contains("parameter 0 \"Gain\""), text)
        unlink(path)
    }

    func testPrintASBDMatchesListing2_8() {
        let asbd = AudioStreamBasicDescription.canonical(sampleRate: 44_100, channels: 2)
        XCTAssertEqual(
            asbd.fieldDump.split(separator: "\n").map(String.init),
            [
                "  Sample Rate:            44100",
                "  Format ID:               lpcm",
                "  Format Flags:              29",
                "  Bytes per Packet:           4",
                "  Frames per Packet:          1",
                "  Bytes per Frame:            4",
                "  Channels per Frame:         2",
                "  Bits per Channel:          32",
            ])
    }
}
