import AudioUnitBase
import Foundation

/// The CAShow text of a unit: identity, name, elements and formats, parameters.
///
/// Thread: setup.
public func unitDescription(_ instance: ComponentInstance) -> String {
    var lines = ["AudioUnit \(instance.component.description.tripleString) — \(instance.component.name)"]
    if let unit = instance.unit {
        lines.append("  initialized: \(unit.isInitialized ? "yes" : "no"), max frames per slice: \(unit.maxFramesPerSlice)")
        for (i, f) in unit.inputFormats.enumerated() { lines.append("  input \(i): \(f)") }
        for (i, f) in unit.outputFormats.enumerated() { lines.append("  output \(i): \(f)") }
        for d in unit.parameterDefinitions {
            lines.append(
                "  parameter \(d.id) \"\(d.name)\" [\(d.minValue) … \(d.maxValue)] default \(d.defaultValue), \(scopeName(d.scope)) scope")
        }
    }
    return lines.joined(separator: "\n") + "\n"
}

/// Describers for other objects (the graph registers one for AUGraph handles).
public enum CAShowRegistry {
    nonisolated(unsafe) static var describers: [(UnsafeMutableRawPointer) -> String?] = []
    private static let lock = NSLock()

    /// Adds a describer returning text for the objects it knows, nil otherwise.
    ///
    /// Thread: setup.
    public static func add(_ describer: @escaping (UnsafeMutableRawPointer) -> String?) {
        lock.lock(); describers.append(describer); lock.unlock()
    }

    static func describe(_ object: UnsafeMutableRawPointer) -> String {
        if let instance = ComponentInstance.from(OpaquePointer(object)) { return unitDescription(instance) }
        lock.lock(); let all = describers; lock.unlock()
        for d in all { if let text = d(object) { return text } }
        return "CAShow: \(object) is not an AUHost object.\n"
    }
}

@_cdecl("CAShow")
public func _CAShow(_ object: UnsafeMutableRawPointer?) {
    _CAShowFile(object, stdout)
}

@_cdecl("CAShowFile")
public func _CAShowFile(_ object: UnsafeMutableRawPointer?, _ file: UnsafeMutablePointer<FILE>?) {
    guard let file else { return }
    let text = object.map(CAShowRegistry.describe) ?? "CAShow: NULL\n"
    fputs(text, file)
    fflush(file)
}
