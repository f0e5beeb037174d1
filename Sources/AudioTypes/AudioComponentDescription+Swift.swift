import AudioToolbox

extension AudioComponentDescription {
    /// A description from three four-character strings, e.g. `("aufx", "dely", "appl")`;
    /// nil when one of them is not a valid code.
    ///
    /// Thread: any.
    public init?(_ type: String, _ subType: String, _ manufacturer: String = "\0\0\0\0") {
        let zero = "\0\0\0\0"
        guard let t = type == zero ? 0 : FourCC.code(type),
            let s = subType == zero ? 0 : FourCC.code(subType),
            let m = manufacturer == zero ? 0 : FourCC.code(manufacturer)
        else { return nil }
        self.init(
            componentType: t, componentSubType: s, componentManufacturer: m,
            componentFlags: 0, componentFlagsMask: 0)
    }

    /// A description from codes; flags and mask zero.
    ///
    /// Thread: any.
    public init(type: OSType, subType: OSType = 0, manufacturer: OSType = 0) {
        self.init(
            componentType: type, componentSubType: subType, componentManufacturer: manufacturer,
            componentFlags: 0, componentFlagsMask: 0)
    }

    /// Whether `self`, used as a search description, matches a component's full description:
    /// 0 in type, subtype or manufacturer matches anything; flags are compared under the mask.
    ///
    /// Thread: any.
    public func matches(_ component: AudioComponentDescription) -> Bool {
        (componentType == 0 || componentType == component.componentType)
            && (componentSubType == 0 || componentSubType == component.componentSubType)
            && (componentManufacturer == 0 || componentManufacturer == component.componentManufacturer)
            && (component.componentFlags & componentFlagsMask) == (componentFlags & componentFlagsMask)
    }

    /// The triple as `auval` prints it: "aufx dely AUHs".
    ///
    /// Thread: setup.
    public var tripleString: String {
        [componentType, componentSubType, componentManufacturer].map(FourCC.string).joined(separator: " ")
    }
}

extension AudioComponentDescription: @retroactive Equatable, @retroactive Hashable {
    public static func == (a: Self, b: Self) -> Bool {
        a.componentType == b.componentType && a.componentSubType == b.componentSubType
            && a.componentManufacturer == b.componentManufacturer && a.componentFlags == b.componentFlags
            && a.componentFlagsMask == b.componentFlagsMask
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(componentType)
        hasher.combine(componentSubType)
        hasher.combine(componentManufacturer)
    }
}

extension AudioComponentDescription: @retroactive CustomStringConvertible {
    public var description: String { tripleString }
}
