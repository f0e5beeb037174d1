import ArgumentParser
import AUHost
import Foundation

/// `auhost info UNIT`: everything a host needs to know before using a unit, like lv2info.
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Describe a unit: origin, formats, channel configurations, parameters, presets, latency, tail.")

    @Argument(help: "A triple (\"aufx dely AUHs\"), an LV2 URI, or a unique fragment of the unit's name.")
    var unit: String

    func run() throws {
        let component = try UnitLookup.component(unit)
        let instance = try AudioUnitInstance(component)
        let facts = UnitFacts(instance)
        let v = component.version
        print("\(component.name)")
        print("  description: \(component.description.tripleString)")
        print("  version:     \(v >> 16).\((v >> 8) & 0xFF).\(v & 0xFF)")
        print("  origin:      \(component.origin)")
        for (i, f) in facts.inputFormats.enumerated() { print("  input \(i):     \(f)") }
        for (i, f) in facts.outputFormats.enumerated() { print("  output \(i):    \(f)") }
        if facts.inputFormats.isEmpty { print("  inputs:      none") }
        if facts.channelConfigurations.isEmpty {
            print("  channels:    any in → same count out (SupportedNumChannels not declared)")
        } else {
            print("  channels:    " + facts.channelConfigurations.map(UnitFacts.describe).joined(separator: "; "))
        }
        print("  latency:     \(facts.latency) s")
        print("  tail:        \(facts.tailTime) s")
        print("  parameters:  \(facts.parameters.count)")
        for p in facts.parameters {
            print("    \(p.id)  \(p.name)  [\(p.minValue) … \(p.maxValue)] default \(p.defaultValue) \(p.unit)")
            if !p.valueStrings.isEmpty {
                print("        values: " + p.valueStrings.enumerated().map { "\($0.offset)=\($0.element)" }.joined(separator: ", "))
            }
        }
        print("  presets:     \(facts.presets.count)")
        for p in facts.presets { print("    \(p.number)  \(p.name)") }
    }
}
