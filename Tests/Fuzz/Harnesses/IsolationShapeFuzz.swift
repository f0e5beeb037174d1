import AudioToolbox
import AUHost
import UnitIsolation

/// What an out-of-process unit's child says about its unit (UnitShape, the first reply the host
/// trusts nothing of): every input decodes to a shape or an IsolationProtocolError. A shape
/// that decodes holds only what the proxy can be built from (formats inside the API's bounds,
/// a finite latency and tail, parameters with finite ordered ranges and their defaults inside),
/// and encodes to bytes that decode to the same encoding again. The same bytes are read as the
/// atom lines of an exchangeUIAtoms reply (the child's words for an open UI): decoded or refused
/// with an IsolationProtocolError, and what decodes encodes to lines that decode the same.
public enum IsolationShapeFuzz {
    /// Thread: any (one call at a time).
    public static func run(_ data: UnsafeRawBufferPointer) {
        checkAtomLines(Array(data))
        let shape: UnitShape
        do { shape = try UnitShape(decoding: Array(data)) } catch {
            precondition(error is IsolationProtocolError, "UnitShape threw \(error), not an IsolationProtocolError")
            return
        }
        for f in shape.inputFormats + shape.outputFormats {
            precondition(f.boundaryProblem == nil, "a decoded format is out of bounds: \(f)")
        }
        precondition(shape.latency.isFinite && shape.latency >= 0 && shape.tailTime.isFinite && shape.tailTime >= 0)
        for (d, value) in shape.parameters {
            precondition(d.minValue <= d.maxValue && d.minValue.isFinite && d.maxValue.isFinite && value.isFinite)
            precondition((d.minValue...d.maxValue).contains(d.defaultValue), "parameter \(d.id)'s default is outside its range")
        }
        let encoded = shape.encoded
        guard let again = try? UnitShape(decoding: encoded) else { preconditionFailure("a decoded shape's encoding does not decode") }
        precondition(again.encoded == encoded, "a shape's encoding changes when decoded again")
    }

    static func checkAtomLines(_ bytes: [UInt8]) {
        var reader = ByteReader(bytes)
        let lines: [UIAtomLine]
        do { lines = try reader.atomLines() } catch {
            precondition(error is IsolationProtocolError, "atomLines threw \(error), not an IsolationProtocolError")
            return
        }
        var writer = ByteWriter()
        writer.atomLines(lines)
        var again = ByteReader(writer.bytes)
        precondition((try? again.atomLines()) == lines, "atom lines change when encoded and decoded again")
    }
}
