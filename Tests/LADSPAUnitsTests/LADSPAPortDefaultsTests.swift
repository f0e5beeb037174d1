import CLADSPA
import LADSPAHost
import XCTest

/// Ranges and defaults as ladspa.h defines them, on ports made here (no library needed).
final class LADSPAPortDefaultsTests: XCTestCase {
    private func port(_ hints: Int32, _ low: Float, _ high: Float) -> LADSPAPortInfo {
        LADSPAPortInfo(descriptor: LADSPA_PORT_INPUT | LADSPA_PORT_CONTROL, hints: hints, lowerBound: low, upperBound: high, name: "p")
    }
    private let bounded = LADSPA_HINT_BOUNDED_BELOW | LADSPA_HINT_BOUNDED_ABOVE

    func testLowMiddleHighAreQuartersLinearlyAndOnALogScale() {
        XCTAssertEqual(port(bounded | LADSPA_HINT_DEFAULT_LOW, 0, 100).defaultValue(sampleRate: 44_100), 25)
        XCTAssertEqual(port(bounded | LADSPA_HINT_DEFAULT_MIDDLE, 0, 100).defaultValue(sampleRate: 44_100), 50)
        XCTAssertEqual(port(bounded | LADSPA_HINT_DEFAULT_HIGH, 0, 100).defaultValue(sampleRate: 44_100), 75)
        let log = bounded | LADSPA_HINT_LOGARITHMIC
        XCTAssertEqual(port(log | LADSPA_HINT_DEFAULT_LOW, 1, 10_000).defaultValue(sampleRate: 44_100), 10)
        XCTAssertEqual(port(log | LADSPA_HINT_DEFAULT_MIDDLE, 1, 10_000).defaultValue(sampleRate: 44_100), 100)
        XCTAssertEqual(port(log | LADSPA_HINT_DEFAULT_HIGH, 1, 10_000).defaultValue(sampleRate: 44_100), 1000)
        // A log scale through 0 is undefined: linear, as hosts do.
        XCTAssertEqual(port(log | LADSPA_HINT_DEFAULT_MIDDLE, 0, 10).defaultValue(sampleRate: 44_100), 5)
    }

    func testFixedDefaultsMinimumMaximumAndNone() {
        XCTAssertEqual(port(bounded | LADSPA_HINT_DEFAULT_MINIMUM, -3, 7).defaultValue(sampleRate: 44_100), -3)
        XCTAssertEqual(port(bounded | LADSPA_HINT_DEFAULT_MAXIMUM, -3, 7).defaultValue(sampleRate: 44_100), 7)
        XCTAssertEqual(port(LADSPA_HINT_DEFAULT_0, 0, 0).defaultValue(sampleRate: 44_100), 0)
        XCTAssertEqual(port(LADSPA_HINT_DEFAULT_1, 0, 0).defaultValue(sampleRate: 44_100), 1)
        XCTAssertEqual(port(LADSPA_HINT_DEFAULT_100, 0, 0).defaultValue(sampleRate: 44_100), 100)
        XCTAssertEqual(port(LADSPA_HINT_DEFAULT_440, 0, 0).defaultValue(sampleRate: 44_100), 440)
        // Kept to the range: 440 above a bound of 100 is 100.
        XCTAssertEqual(port(bounded | LADSPA_HINT_DEFAULT_440, 0, 100).defaultValue(sampleRate: 44_100), 100)
        // No default: the lower bound, else 0.
        XCTAssertEqual(port(LADSPA_HINT_BOUNDED_BELOW, 3, 0).defaultValue(sampleRate: 44_100), 3)
        XCTAssertEqual(port(0, 0, 0).defaultValue(sampleRate: 44_100), 0)
        XCTAssertEqual(port(0, 0, 0).range(sampleRate: 44_100), -Float.greatestFiniteMagnitude...Float.greatestFiniteMagnitude)
    }

    func testSampleRateBoundsIntegerAndToggled() {
        let nyquist = port(bounded | LADSPA_HINT_SAMPLE_RATE | LADSPA_HINT_DEFAULT_MAXIMUM, 0, 0.5)
        XCTAssertEqual(nyquist.range(sampleRate: 48_000), 0...24_000)
        XCTAssertEqual(nyquist.defaultValue(sampleRate: 48_000), 24_000)
        XCTAssertEqual(nyquist.defaultValue(sampleRate: 44_100), 22_050)
        let integer = port(bounded | LADSPA_HINT_INTEGER | LADSPA_HINT_DEFAULT_MIDDLE, 0, 5)
        XCTAssertEqual(integer.defaultValue(sampleRate: 44_100), 3)  // 2.5 rounds away from zero
        XCTAssertEqual(port(bounded | LADSPA_HINT_INTEGER, 0.5, 4.5).range(sampleRate: 44_100), 1...4)
        let toggle = port(LADSPA_HINT_TOGGLED | LADSPA_HINT_DEFAULT_1, 0, 0)
        XCTAssertEqual(toggle.range(sampleRate: 44_100), 0...1)
        XCTAssertEqual(toggle.defaultValue(sampleRate: 44_100), 1)
        XCTAssertEqual(port(LADSPA_HINT_TOGGLED | LADSPA_HINT_DEFAULT_0, 0, 0).defaultValue(sampleRate: 44_100), 0)
    }
}
