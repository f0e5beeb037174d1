import Foundation
import LV2Host

/// How many audio and control ports a plug-in has in each direction: what the catalog needs to
/// type a unit (effect, generator) and what `auhost list` shows, known without reading the ports.
public struct LADSPAPortCounts: Equatable, Sendable {
    public var audioInputs = 0
    public var audioOutputs = 0
    public var controlInputs = 0
    public var controlOutputs = 0

    /// Thread: any.
    public init(_ ports: [LADSPAPortInfo]) {
        for p in ports {
            if p.isAudio { if p.isInput { audioInputs += 1 } else if p.isOutput { audioOutputs += 1 } }
            if p.isControl { if p.isInput { controlInputs += 1 } else if p.isOutput { controlOutputs += 1 } }
        }
    }

    /// Thread: any.
    public init(audioInputs: Int, audioOutputs: Int, controlInputs: Int, controlOutputs: Int) {
        self.audioInputs = audioInputs; self.audioOutputs = audioOutputs
        self.controlInputs = controlInputs; self.controlOutputs = controlOutputs
    }
}

/// A plug-in's ports, either as described or still as the catalog cache's port lines: those are
/// read the first time a unit or a report asks, since every start reads the cache and LSP's
/// plug-ins alone have ~29,000 ports that a listing never looks at. Immutable once made; the lines
/// are read under a lock. Thread: any.
public final class LADSPAPortTable: @unchecked Sendable {
    public let counts: LADSPAPortCounts
    private let lock = NSLock()
    private var read: [LADSPAPortInfo]?
    private var lines: ArraySlice<UInt8>

    /// Thread: any.
    public init(_ ports: [LADSPAPortInfo]) {
        counts = LADSPAPortCounts(ports)
        read = ports
        lines = []
    }

    /// `lines`: "port" lines as ``LADSPADescriptionLines`` writes them, each ending in a newline.
    /// Thread: any.
    init(lines: ArraySlice<UInt8>, counts: LADSPAPortCounts) {
        self.counts = counts
        self.lines = lines
    }

    /// The ports, in port order. Lines that cannot be read (the cache's checksum passed, so only a
    /// hand-made file has them) give no ports, which the instance refuses as a port count that
    /// differs from its descriptor's. Thread: any (the first call on a cached table allocates).
    public var ports: [LADSPAPortInfo] {
        lock.withLock {
            if let read { return read }
            // The ports go through the description lines' own reading, into a placeholder plug-in.
            let holder = LADSPAPluginInfo(
                library: "", index: 0, uniqueID: 0, label: "", name: "", maker: "", copyright: "", properties: 0, ports: [])
            var plugins = [holder]
            let text = String(decoding: lines, as: UTF8.self)
            let readable = text.split(separator: "\n").allSatisfy { line in
                LADSPADescriptionLines.apply(LADSPADescriptionLines.fields(line), library: "", to: &plugins) && plugins.count == 1
            }
            let ports = readable ? plugins[0].ports : []
            read = ports
            lines = []
            return ports
        }
    }
}

extension LADSPAPortTable: Equatable {
    public static func == (a: LADSPAPortTable, b: LADSPAPortTable) -> Bool { a === b || a.ports == b.ports }
}
