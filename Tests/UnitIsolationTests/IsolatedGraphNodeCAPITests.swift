import AUHost
import UnitIsolation
import XCTest

/// AUHostGraphAddNodeOutOfProcess (AUGraph.h): the C side of graph files' "isolated": true, which
/// C hosts and the Python door's boards use to put a unit out of process inside an AUGraph.
final class IsolatedGraphNodeCAPITests: XCTestCase {
    func testAddsANodeWhoseUnitLivesOutOfProcess() throws {
        var made: AUGraph?
        XCTAssertEqual(NewAUGraph(&made), noErr)
        let graph = try XCTUnwrap(made)
        defer { DisposeAUGraph(graph) }
        var delay = AudioComponentDescription(
            type: kAudioUnitType_Effect, subType: kAudioUnitSubType_Delay, manufacturer: kAudioUnitManufacturer_Apple)
        var isolated: AUNode = 0, local: AUNode = 0
        XCTAssertEqual(AUHostGraphAddNodeOutOfProcess(graph, &delay, &isolated), noErr)
        XCTAssertEqual(AUGraphAddNode(graph, &delay, &local), noErr)
        XCTAssertEqual(AUGraphOpen(graph), noErr)
        var remoteUnit: AudioUnit?, localUnit: AudioUnit?
        XCTAssertEqual(AUGraphNodeInfo(graph, isolated, nil, &remoteUnit), noErr)
        XCTAssertEqual(AUGraphNodeInfo(graph, local, nil, &localUnit), noErr)
        XCTAssertEqual(AUHostIsolatedUnitIsOutOfProcess(try XCTUnwrap(remoteUnit)), 1)
        XCTAssertEqual(AUHostIsolatedUnitIsOutOfProcess(try XCTUnwrap(localUnit)), 0)
    }
}
