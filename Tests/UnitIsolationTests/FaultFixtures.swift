import AUHost
import Foundation
import LV2Units
import XCTest

/// The fault fixtures (Fixtures/faults.c): built once per test process into a temporary LV2
/// path, their provider installed in the registry.
enum FaultFixtures {
    static let provider: Result<LV2Provider, Error> = Result {
        let fixtures = checkoutRoot.appendingPathComponent("Tests/UnitIsolationTests/Fixtures")
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("auhost-fault-fixtures-\(getpid())")
        let bundle = out.appendingPathComponent("auhost-faults.lv2")
        try? FileManager.default.removeItem(at: out)
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        for file in ["manifest.ttl", "plugins.ttl"] {
            try FileManager.default.copyItem(
                at: fixtures.appendingPathComponent("auhost-faults.lv2/\(file)"), to: bundle.appendingPathComponent(file))
        }
        let cc = Process()
        cc.executableURL = URL(fileURLWithPath: "/usr/bin/cc")
        cc.arguments = [
            "-shared", "-fPIC", "-O1", "-o", bundle.appendingPathComponent("faults.so").path,
            fixtures.appendingPathComponent("faults.c").path,
        ]
        try cc.run()
        cc.waitUntilExit()
        guard cc.terminationStatus == 0 else { throw AudioError(kAudio_ParamError, "cc failed to build the fault fixtures") }
        let provider = LV2Provider(lv2Path: out.path)
        ComponentRegistry.shared.install(provider)
        return provider
    }

    /// The component of fixture `name` ("crash", "abort", "hang", "nan").
    static func component(_ name: String) throws -> Component {
        try XCTUnwrap(try provider.get().component(uri: "urn:auhost:fault:\(name)"), "fixture \(name)")
    }
}

/// A unit with two mono inputs whose output is their sum, for graphs that show one branch going
/// silent while the other renders on. Registered in this process.
final class IsolationSumUnit: AUBase {
    static let description = AudioComponentDescription(
        type: kAudioUnitType_Mixer, subType: FourCC.code("isum")!, manufacturer: FourCC.code("AUHt")!)

    init(_ description: AudioComponentDescription) {
        super.init(description: description, inputs: 2, outputs: 1, channels: 1, sampleRate: 48_000)
    }

    override func renderBus(
        _ bus: UInt32, flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>, timeStamp: UnsafePointer<AudioTimeStamp>,
        frames: UInt32, output: UnsafeMutablePointer<AudioBufferList>
    ) -> OSStatus {
        for input in 0..<2 {
            let status = pullInput(input, flags, timeStamp, frames)
            guard status == noErr else { return status }
        }
        let a = UnsafeMutableAudioBufferListPointer(inputList(0)!)[0].mData!.assumingMemoryBound(to: Float.self)
        let b = UnsafeMutableAudioBufferListPointer(inputList(1)!)[0].mData!.assumingMemoryBound(to: Float.self)
        let out = UnsafeMutableAudioBufferListPointer(output)[0].mData!.assumingMemoryBound(to: Float.self)
        for i in 0..<Int(frames) { out[i] = a[i] + b[i] }
        return noErr
    }

    static let registered: Component = {
        var d = description
        let handle = AudioComponentRegister(&d, AUHostConstantString("AUHost Isolation Tests: Sum")!.takeUnretainedValue(), 0x0001_0000) {
            d in
            AUBase.makePlugIn(IsolationSumUnit(d.pointee))
        }
        return Component.from(handle)!
    }()
}
