import LV2Units
import TestSupport
import XCTest

extension XCTestCase {
    /// An initialized unit of the UI fixtures' plug-in `uri` (Tests/LV2UITests/Fixtures).
    func makeFixtureUnit(_ uri: String) throws -> AudioUnitInstance {
        let component = try XCTUnwrap(LV2PluginUITests.fixtures.component(uri: uri))
        let unit = try AudioUnitInstance(component)
        try unit.initialize()
        return unit
    }

    /// Idles `ui` until `condition` holds (30 s at most: a deadline for a stuck UI, not a timing).
    func idle(_ ui: LV2PluginUI, until condition: () -> Bool) throws -> Bool {
        var failure: Error?
        let held = waitUntil(poll: 20_000) {
            do { try ui.idle() } catch {
                failure = error
                return true
            }
            return condition()
        }
        if let failure { throw failure }
        return held
    }
}
