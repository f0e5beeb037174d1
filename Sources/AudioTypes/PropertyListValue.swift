import AudioToolbox
import Foundation

/// A property-list value: what ClassInfo state, preset files and names are made of.
///
/// This is the Swift side of the CoreFoundation subset AUHost implements (CoreFoundationLite.h):
/// every CF object handed across the C API wraps one of these.
public indirect enum PropertyListValue: Equatable {
    case string(String)
    case data([UInt8])
    case integer(Int64)
    case real(Double)
    case boolean(Bool)
    case array([PropertyListValue])
    case dictionary([String: PropertyListValue])

    /// The value for `key` when this is a dictionary.
    public subscript(key: String) -> PropertyListValue? {
        if case .dictionary(let d) = self { return d[key] }
        return nil
    }

    public var stringValue: String? { if case .string(let s) = self { return s }; return nil }
    public var dataValue: [UInt8]? { if case .data(let d) = self { return d }; return nil }
    public var integerValue: Int64? {
        switch self {
        case .integer(let i): return i
        case .real(let r) where r.rounded() == r && abs(r) < 9.0e18: return Int64(r)
        case .boolean(let b): return b ? 1 : 0
        default: return nil
        }
    }
    public var realValue: Double? {
        switch self {
        case .real(let r): return r
        case .integer(let i): return Double(i)
        default: return nil
        }
    }

    /// Serializes as an XML property list (the .aupreset format) or a binary one.
    ///
    /// Thread: setup.
    public func propertyListData(binary: Bool = false) throws -> [UInt8] {
        let data = try PropertyListSerialization.data(
            fromPropertyList: foundationValue,
            format: binary ? .binary : .xml, options: 0)
        return [UInt8](data)
    }

    /// Parses an XML or binary property list.
    ///
    /// Thread: setup.
    public init(propertyListData bytes: [UInt8]) throws {
        let object = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
        guard let value = PropertyListValue(foundation: object) else {
            throw AudioError(kAudioUnitErr_InvalidPropertyValue, "The property list holds a value type AUHost does not read.")
        }
        self = value
    }

    var foundationValue: Any {
        switch self {
        case .string(let s): return s
        case .data(let d): return Data(d)
        case .integer(let i): return NSNumber(value: i)
        case .real(let r): return NSNumber(value: r)
        case .boolean(let b): return NSNumber(value: b)
        case .array(let a): return a.map(\.foundationValue)
        case .dictionary(let d): return d.mapValues(\.foundationValue)
        }
    }

    init?(foundation object: Any) {
        switch object {
        case let s as String: self = .string(s)
        case let d as Data: self = .data([UInt8](d))
        case let b as Bool where type(of: object) == Bool.self: self = .boolean(b)
        case let n as NSNumber:
            if String(cString: n.objCType) == "d" || String(cString: n.objCType) == "f" {
                self = .real(n.doubleValue)
            } else {
                self = .integer(n.int64Value)
            }
        case let i as Int: self = .integer(Int64(i))
        case let r as Double: self = .real(r)
        case let a as [Any]:
            var out: [PropertyListValue] = []
            for e in a { guard let v = PropertyListValue(foundation: e) else { return nil }; out.append(v) }
            self = .array(out)
        case let d as [String: Any]:
            var out: [String: PropertyListValue] = [:]
            for (k, e) in d { guard let v = PropertyListValue(foundation: e) else { return nil }; out[k] = v }
            self = .dictionary(out)
        default: return nil
        }
    }
}
