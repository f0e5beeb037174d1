import XCTest
@testable import DSPKernels

final class Panner3DTests: XCTestCase {
    func levels(_ panner: Panner3DKernel) -> (left: Float, right: Float) {
        let input = [Float](repeating: 1, count: 4)
        var left = [Float](repeating: 0, count: 4), right = left
        panner.process(input, left: &left, right: &right, frameCount: 4)
        return (left[0], right[0])
    }

    func testRightMinusLeftLevelRisesMonotonicallyWithAzimuth() {
        var panner = Panner3DKernel()
        var previous = -Double.infinity
        for azimuth in stride(from: -85.0, through: 85, by: 5) {
            panner.setParameters(azimuth: azimuth, elevation: 0, distance: 1, gainDecibels: 0)
            let l = levels(panner)
            let difference = 20 * log10(Double(l.right) / Double(l.left))
            XCTAssertGreaterThan(difference, previous, "at \(azimuth)°")
            previous = difference
            XCTAssertEqual(Double(l.left * l.left + l.right * l.right), 1, accuracy: 1e-6, "constant power")
        }
        panner.setParameters(azimuth: 0, elevation: 0, distance: 1, gainDecibels: 0)
        let ahead = levels(panner)
        XCTAssertEqual(ahead.left, ahead.right)
        panner.setParameters(azimuth: 90, elevation: 0, distance: 1, gainDecibels: 0)
        XCTAssertTrue(levels(panner) == (0, 1))
        panner.setParameters(azimuth: 90, elevation: 90, distance: 1, gainDecibels: 0)
        let overhead = levels(panner)
        XCTAssertEqual(overhead.left, overhead.right, accuracy: 1e-7)
    }

    func testDistanceFollowsTheInverseDistanceCurve() {
        var panner = Panner3DKernel()
        for distance in [0.1, 1, 2, 4, 10, 500, 1000, 5000] {
            panner.setParameters(azimuth: -90, elevation: 0, distance: distance, gainDecibels: 0)
            let expected = 1 / min(max(distance, 1), 1000)
            XCTAssertEqual(Double(levels(panner).left), expected, accuracy: expected * 1e-6, "at \(distance) m")
            XCTAssertEqual(Panner3DKernel.distanceAttenuation(distance), expected)
        }
        panner.setParameters(azimuth: -90, elevation: 0, distance: 2, gainDecibels: -6)
        XCTAssertEqual(20 * log10(Double(levels(panner).left)), -6 - 20 * log10(2), accuracy: 1e-5)
    }
}
