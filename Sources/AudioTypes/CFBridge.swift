import AudioToolbox
import Foundation

// The CoreFoundation values of the C API are real CoreFoundation objects (libFoundation's), which
// swift-corelibs-foundation bridges toll-free with NSString, NSDictionary … as on Apple's platforms.
// The importer sees CFStringRef as the foreign class CFString; these helpers cross between them.

extension String {
    /// The string a CFString holds (nil for nil).
    ///
    /// Thread: setup.
    public init?(cfString: CFString?) {
        guard let cfString else { return nil }
        self = unsafeBitCast(cfString, to: NSString.self) as String
    }
}

/// Makes C API values from Swift values and reads them back.
public enum CFBridge {
    /// A new CFString, +1 (for "Copy" results and out-parameters).
    ///
    /// Thread: setup.
    public static func string(_ s: String) -> Unmanaged<CFString> {
        Unmanaged.passRetained(unsafeBitCast(NSString(string: s), to: CFString.self))
    }

    /// A new property-list object, +1: a CFDictionary for `.dictionary`, and so on.
    ///
    /// Thread: setup.
    public static func propertyList(_ value: PropertyListValue) -> Unmanaged<AnyObject> {
        Unmanaged.passRetained(value.foundationValue as AnyObject)
    }

    /// The value behind a CF property-list object (a ClassInfo CFDictionary, a CFString …).
    ///
    /// Thread: setup.
    public static func value(_ object: AnyObject?) -> PropertyListValue? {
        guard let object else { return nil }
        return PropertyListValue(foundation: object)
    }

    /// The value behind a raw CF reference, borrowed.
    ///
    /// Thread: setup.
    public static func value(_ ref: UnsafeRawPointer?) -> PropertyListValue? {
        guard let ref else { return nil }
        return value(Unmanaged<AnyObject>.fromOpaque(ref).takeUnretainedValue())
    }
}

private let constantStringsLock = NSLock()
nonisolated(unsafe) private var constantStrings: [String: CFString] = [:]

/// CFSTR: one immortal CFString per distinct literal (held by this table for the process).
@_cdecl("AUHostConstantString")
public func _AUHostConstantString(_ cStr: UnsafePointer<CChar>) -> Unmanaged<CFString> {
    let s = String(cString: cStr)
    constantStringsLock.lock()
    defer { constantStringsLock.unlock() }
    if let existing = constantStrings[s] { return Unmanaged.passUnretained(existing) }
    let made = CFBridge.string(s).takeRetainedValue()
    constantStrings[s] = made
    return Unmanaged.passUnretained(made)
}
