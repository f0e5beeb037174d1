import AudioTypes

/// Current parameter values, found by (scope, element, id) without allocating or locking:
/// an open-addressing hash table built at setup, read and written in place from any thread
/// (32-bit float stores are atomic on the machines AUHost runs on).
///
/// A table is rebuilt only when the set of parameters changes (element counts, which change only
/// while uninitialized); the unit keeps retired tables until it is disposed, so a reader on
/// another thread never sees freed memory.
public final class ParameterTable {
    public struct Entry {
        public var key: UInt64
        public var definition: Int
    }

    /// Slot per parameter instance; the value the render thread reads.
    public let values: UnsafeMutablePointer<Float>
    public let count: Int
    /// Per slot: the lowest and highest value the parameter takes (its declared range).
    public let minima: UnsafeMutablePointer<Float>
    public let maxima: UnsafeMutablePointer<Float>
    private let entries: UnsafeMutablePointer<Entry>
    private let mask: Int
    /// Definitions, indexed by Entry.definition.
    public let definitions: [ParameterDefinition]
    /// (scope, element, definition index) per slot, in declaration order.
    public let instances: [(scope: AudioUnitScope, element: AudioUnitElement, definition: Int)]

    /// Builds slots for every definition: global ones once, input/output ones per element.
    ///
    /// Thread: setup.
    public init(
        definitions: [ParameterDefinition], inputCount: Int, outputCount: Int,
        previous: ParameterTable? = nil
    ) {
        self.definitions = definitions
        var instances: [(AudioUnitScope, AudioUnitElement, Int)] = []
        for (index, d) in definitions.enumerated() {
            let elements = d.scope == kAudioUnitScope_Input ? inputCount : d.scope == kAudioUnitScope_Output ? outputCount : 1
            for e in 0..<elements { instances.append((d.scope, AudioUnitElement(e), index)) }
        }
        self.instances = instances
        count = instances.count
        var capacity = 8
        while capacity < count * 2 { capacity <<= 1 }
        mask = capacity - 1
        entries = .allocate(capacity: capacity)
        entries.initialize(repeating: Entry(key: emptyParameterKey, definition: -1), count: capacity)
        values = .allocate(capacity: max(count, 1))
        minima = .allocate(capacity: max(count, 1))
        maxima = .allocate(capacity: max(count, 1))
        for (slot, instance) in instances.enumerated() {
            let key = parameterKey(instance.0, instance.1, definitions[instance.2].id)
            var i = parameterHash(key) & mask
            while entries[i].key != emptyParameterKey { i = (i + 1) & mask }
            entries[i] = Entry(key: key, definition: slot)
            let old = previous?.slot(definitions[instance.2].id, instance.0, instance.1)?.pointee
            (values + slot).initialize(to: old ?? definitions[instance.2].defaultValue)
            (minima + slot).initialize(to: definitions[instance.2].minValue)
            (maxima + slot).initialize(to: definitions[instance.2].maxValue)
        }
    }

    deinit {
        entries.deallocate()
        values.deallocate()
        minima.deallocate()
        maxima.deallocate()
    }

    /// What `slot` takes for `value`: a finite value clamped into the parameter's declared range,
    /// as Apple's units keep a value outside it and clamp where they use it (docs/PORTING.md); nil
    /// for NaN and infinities, which are refused. A bound that is not a number, or a range whose
    /// ends are swapped, clamps nothing.
    ///
    /// Thread: any (render-safe).
    @_noAllocation @_noLocks
    public func clamp(_ value: Float, at slot: UnsafeMutablePointer<Float>) -> Float? {
        guard value.isFinite else { return nil }
        let i = slot - values
        let low = minima[i], high = maxima[i]
        guard low <= high else { return value }
        return min(max(value, low), high)
    }

    /// The value slot of a parameter instance, or nil when there is none.
    ///
    /// Thread: any (render-safe).
    @_noAllocation @_noLocks
    public func slot(_ id: AudioUnitParameterID, _ scope: AudioUnitScope, _ element: AudioUnitElement) -> UnsafeMutablePointer<Float>? {
        let key = parameterKey(scope, element, id)
        var i = parameterHash(key) & mask
        while entries[i].key != emptyParameterKey {
            if entries[i].key == key { return values + entries[i].definition }
            i = (i + 1) & mask
        }
        return nil
    }

    /// The definition behind a parameter instance.
    ///
    /// Thread: setup.
    public func definition(_ id: AudioUnitParameterID, _ scope: AudioUnitScope, _ element: AudioUnitElement) -> ParameterDefinition? {
        guard let slot = slot(id, scope, element) else { return nil }
        return definitions[instances[slot - values].definition]
    }
}

private let emptyParameterKey = UInt64.max

@inline(__always)
private func parameterKey(_ scope: AudioUnitScope, _ element: AudioUnitElement, _ id: AudioUnitParameterID) -> UInt64 {
    (UInt64(scope & 0xFF) << 56) | (UInt64(element & 0xFF_FFFF) << 32) | UInt64(id)
}

@inline(__always)
private func parameterHash(_ key: UInt64) -> Int {
    // A 64-bit mix (splitmix64's finaliser): spreads sequential ids and elements.
    var x = key
    x = (x ^ (x >> 30)) &* 0xBF58_476D_1CE4_E5B9
    x = (x ^ (x >> 27)) &* 0x94D0_49BB_1331_11EB
    return Int(truncatingIfNeeded: x ^ (x >> 31))
}
