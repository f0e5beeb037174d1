/// A group of audio ports that travel together (a stereo pair, a surround group, a sidechain).
public struct LV2Bus: Equatable, Sendable {
    /// The group's `pg:group` URI, or nil for a bus formed by pairing ports in order.
    public let groupURI: String?
    /// The port indices in channel order.
    public let portIndices: [Int]
    /// The port symbols in channel order.
    public let symbols: [String]
    public var channelCount: Int { portIndices.count }

    /// Audio inputs and outputs grouped into buses: ports that declare a `pg:group` form one bus
    /// per group (in order of first appearance); the others are paired in port order into stereo
    /// buses, an odd last port making a mono bus. Thread: any.
    public static func group(_ ports: [LV2PortInfo]) -> (inputs: [LV2Bus], outputs: [LV2Bus]) {
        func buses(_ direction: LV2PortInfo.Direction) -> [LV2Bus] {
            let audio = ports.filter { $0.kind == .audio && $0.direction == direction }
            var groups: [String] = []
            var members: [String: [LV2PortInfo]] = [:]
            for port in audio {
                if let group = port.groupURI {
                    if members[group] == nil { groups.append(group) }
                    members[group, default: []].append(port)
                }
            }
            var result = groups.map { group in
                LV2Bus(groupURI: group, portIndices: members[group]!.map(\.index), symbols: members[group]!.map(\.symbol))
            }
            let loose = audio.filter { $0.groupURI == nil }
            var start = 0
            while start < loose.count {
                let pair = Array(loose[start..<min(start + 2, loose.count)])
                result.append(LV2Bus(groupURI: nil, portIndices: pair.map(\.index), symbols: pair.map(\.symbol)))
                start += 2
            }
            return result
        }
        return (buses(.input), buses(.output))
    }
}
