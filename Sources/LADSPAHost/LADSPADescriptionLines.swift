import LV2Host

/// The text form of LADSPA descriptions, shared by the describing child's output and the catalog
/// cache: one tab-separated line per plug-in and per port (fields escaped as the LV2 catalog's
/// are), bounds as the hex bit patterns of their floats so nothing is lost in printing.
///
/// ```
/// plugin INDEX UNIQUE-ID LABEL NAME MAKER COPYRIGHT PROPERTIES KIND(0 LADSPA, 1 DSSI synth, 2 other DSSI)
/// port DESCRIPTOR HINTS LOWER-BITS UPPER-BITS NAME
/// program BANK PROGRAM NAME
/// ```
public enum LADSPADescriptionLines {
    /// The lines of `plugin` (library excluded: the caller's context names it). Thread: any.
    public static func lines(_ plugin: LADSPAPluginInfo) -> [String] {
        var lines = [
            LV2CatalogCacheFile.join([
                "plugin", String(plugin.index), String(plugin.uniqueID), plugin.label, plugin.name, plugin.maker,
                plugin.copyright, String(plugin.properties), plugin.isDSSISynth ? "1" : plugin.isDSSI ? "2" : "0",
            ])
        ]
        for port in plugin.ports {
            lines.append(
                LV2CatalogCacheFile.join([
                    "port", String(port.descriptor), String(port.hints), String(port.lowerBound.bitPattern, radix: 16),
                    String(port.upperBound.bitPattern, radix: 16), port.name,
                ]))
        }
        for p in plugin.programs { lines.append(LV2CatalogCacheFile.join(["program", String(p.bank), String(p.program), p.name])) }
        return lines
    }

    /// Splits a line into its unescaped fields. Thread: any.
    public static func fields(_ line: Substring) -> [String] {
        line.split(separator: "\t", omittingEmptySubsequences: false).map { LV2CatalogCacheFile.unescape($0) }
    }

    /// Adds a "plugin", "port" or "program" line's fields to `plugins` (of `library`); false for a line that
    /// is neither or is malformed. Thread: any.
    public static func apply(_ f: [String], library: String, to plugins: inout [LADSPAPluginInfo]) -> Bool {
        switch (f.first, f.count) {
        case ("plugin", 9):
            guard let index = Int(f[1]), let id = UInt(f[2]), let properties = Int32(f[7]), ["0", "1", "2"].contains(f[8]) else {
                return false
            }
            plugins.append(
                LADSPAPluginInfo(
                    library: library, index: index, uniqueID: id, label: f[3], name: f[4], maker: f[5], copyright: f[6],
                    properties: properties, ports: [], isDSSI: f[8] != "0", isDSSISynth: f[8] == "1"))
        case ("port", 6) where !plugins.isEmpty:
            guard let descriptor = Int32(f[1]), let hints = Int32(f[2]), let low = UInt32(f[3], radix: 16),
                let high = UInt32(f[4], radix: 16)
            else { return false }
            plugins[plugins.count - 1].ports.append(
                LADSPAPortInfo(
                    descriptor: descriptor, hints: hints, lowerBound: Float(bitPattern: low), upperBound: Float(bitPattern: high),
                    name: f[5]))
        case ("program", 4) where !plugins.isEmpty:
            guard let bank = UInt(f[1]), let program = UInt(f[2]) else { return false }
            plugins[plugins.count - 1].programs.append(LADSPAProgram(bank: bank, program: program, name: f[3]))
        default:
            return false
        }
        return true
    }
}
