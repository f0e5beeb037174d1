import Foundation
import LV2Host
import XCTest

/// A control port whose scale points lack an rdf:value or an rdfs:label: lilv_port_get_scale_points
/// asserted (`!ret || lilv_nodes_size(ret) > 0`) and aborted the host reading the plug-in's
/// parameters (the LV2Descriptor fuzz harness, Tests/Fuzz/Crashes/LV2Descriptor/crash-053f918d…).
/// Points missing either are skipped, as lilv skips them; the others are read.
final class LV2ScalePointTests: XCTestCase {
    func testScalePointsWithoutValueOrLabelAreSkipped() throws {
        let folder = NSTemporaryDirectory() + "lv2-scale-points-\(getpid())/scale.lv2/"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let turtle = """
            @prefix lv2: <http://lv2plug.in/ns/lv2core#> .
            @prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
            @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
            <urn:auhost:test:scale> a lv2:Plugin ; lv2:binary <none.so> ;
                lv2:port [ a lv2:ControlPort, lv2:InputPort ; lv2:index 0 ; lv2:symbol "a" ; lv2:name "A" ;
                    lv2:scalePoint [ rdfs:label "no value" ] , [ rdf:value 2.0 ] ] ,
                  [ a lv2:ControlPort, lv2:InputPort ; lv2:index 1 ; lv2:symbol "b" ; lv2:name "B" ;
                    lv2:scalePoint [ rdfs:label "one" ; rdf:value 1.0 ] , [ rdf:value 3.0 ] ] .
            """
        XCTAssertTrue(FileManager.default.createFile(atPath: folder + "manifest.ttl", contents: Data(turtle.utf8)))
        let world = LV2World(supportBundles: [], lv2Path: nil)
        world.load(bundle: folder)
        let plugin = try world.plugin(uri: "urn:auhost:test:scale")
        let parameters = LV2ParameterDescriptor.read(plugin)
        XCTAssertEqual(parameters.map(\.symbol), ["a", "b"])
        XCTAssertEqual(parameters.map { $0.scalePoints.map(\.label) }, [[], ["one"]])
    }
}
