import Foundation
import XCTest

/// `auhost validate` on LV2 plug-ins with control outputs (meters, a latency port).
final class LV2MeterValidateCLITests: XCTestCase {
    /// swh SC4 declares its meters' ranges (−40…12 dB, −24…0 dB); AM pitchshifter has a latency
    /// port with no range (±FLT_MAX). Both failed "parameters" and "state round trip": the meters
    /// were ±FLT_MAX wide, the probe value in the middle of that overflowed to infinity and was
    /// refused. Now every check passes, and the parameters check says it left the meters alone.
    func testValidatePassesPlugInsWithMeters() throws {
        for (uri, meters) in [("http://plugin.org.uk/swh-plugins/sc4", 2), ("http://plugin.org.uk/swh-plugins/amPitchshift", 1)] {
            let r = try CLI.run(["validate", uri, "--json"])
            XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
            let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], r.stdout)
            XCTAssertEqual((report["summary"] as? [String: Int])?["failed"], 0, r.stdout)
            let checks = try XCTUnwrap(((report["units"] as? [[String: Any]])?.first)?["checks"] as? [[String: String]])
            for name in ["parameters", "state round trip"] {
                let check = try XCTUnwrap(checks.first { $0["check"] == name }, "\(uri) \(name)")
                XCTAssertEqual(check["outcome"], "PASS", "\(uri) \(name): \(check["reason"] ?? "")")
            }
            let parameters = try XCTUnwrap(checks.first { $0["check"] == "parameters" })
            XCTAssertTrue(parameters["reason"]?.contains("; \(meters) read-only") == true, parameters["reason"] ?? "")
        }
    }
}
