import AUHostCore
import AudioUnitBase
import Foundation
import LV2Host
import Synchronization

// Patch parameters (issue 31): settings a plug-in takes through patch:Set messages instead of
// control ports (`patch:writable`), and values it only reports (`patch:readable`). Numbers and
// switches are Audio Unit parameters from kLV2UnitPatchParameterBase (the writable ones first,
// then the read-only ones, each in URI order); paths and strings are kLV2UnitProperty_PatchText. Changed values
// are sent as patch:Set at frame 0 of the next run (a number changed by a scheduled parameter
// event, at the run that starts there). The first run after the plug-in starts also asks it for
// every value (patch:Get); what it reports on its event outputs (patch:Set, patch:Put: replies,
// and its own changes, such as a sampler's file after loading it) is read back: a number into
// its parameter (not sent back), a path or string into kLV2UnitProperty_PatchText.

// kLV2UnitPatchParameterBase and kLV2UnitProperty_PatchText are declared in AUHostLV2.h.

/// What the render thread sends: the numbers' slots, URIDs, kinds and the bits last sent; one
/// mailbox per text parameter.
struct LV2UnitPatchState {
    /// Numbers: the writable ones (sent) are the first `writableCount` of `count`.
    var count = 0
    var writableCount = 0
    var slots: UnsafeMutablePointer<UnsafeMutablePointer<Float>>?
    var urids: UnsafeMutablePointer<UInt32>?
    var kinds: UnsafeMutablePointer<LV2PatchParameter.Kind>?
    var sent: UnsafeMutablePointer<UInt64>?
    var textCount = 0
    var mailboxes: UnsafeMutablePointer<LV2PatchMailbox>?
    /// The text values the plug-in reported, on their way from the render thread to setup.
    var replies: UnsafeMutablePointer<LV2PatchMailbox>?
    /// Set until patch:Get was queued for the plug-in's first run.
    var askForValues = false
    /// Per number, then per text: sent in the run under way. A reply in the same run may predate
    /// the value sent (eg-sampler answers patch:Get with its gain before the patch:Set ahead of
    /// it took effect), so the value sent stands.
    var sentThisRun: UnsafeMutablePointer<Bool>?
}

/// One text value on its way from a setup thread to the next run. The setup side writes while
/// the box is empty or holds an unsent value (replacing it); the render side takes a ready value
/// and never waits (a box being written is taken at the next run). A reply box works the other
/// way round: the render thread writes a reported value when the box is not being read (else that
/// report is dropped: the plug-in reports its value again on the next patch:Get), setup takes it.
struct LV2PatchMailbox {
    /// A path of up to 4095 bytes (PATH_MAX) and its NUL.
    static let capacity = 4_096
    enum State: UInt8 { case empty, writing, ready, reading }
    let state: UnsafeMutablePointer<Atomic<UInt8>>
    let bytes: UnsafeMutablePointer<UInt8>
    var length = 0
    let urid: UInt32
    let type: UInt32
}

extension LV2Unit {
    /// The parameters of the plug-in's numbers and switches: writable, or read-only as a meter is
    /// (`patch:readable` only). Thread: setup.
    static func patchDefinitions(_ parameters: [LV2PatchParameter]) -> [ParameterDefinition] {
        parameters.filter { $0.kind.isNumeric }.enumerated().map { k, p in
            let isSwitch = p.kind == .bool
            let isWhole = p.kind == .int || p.kind == .long
            var definition = ParameterDefinition(
                id: kLV2UnitPatchParameterBase + AudioUnitParameterID(k), name: p.label,
                unit: isSwitch
                    ? kAudioUnitParameterUnit_Boolean : isWhole ? kAudioUnitParameterUnit_Indexed : LV2UnitLayout.unitCode(p.unit),
                min: p.minimum, max: p.maximum, default: isSwitch ? (p.defaultValue > 0 ? 1 : 0) : p.defaultValue,
                flags: isSwitch || isWhole ? [] : .flag_CanRamp)
            if !p.isWritable { definition.flags = [.flag_IsReadable, .flag_MeterReadOnly] }
            return definition
        }
    }

    /// The text parameters (paths, strings), writable first, in the mailbox order.
    var textPatchParameters: [LV2PatchParameter] { patchParameters.filter { !$0.kind.isNumeric } }

    /// Builds the render side's patch state for `instance`, posting the text values set so far.
    /// Thread: setup.
    func makePatchState(_ instance: LV2Instance) -> LV2UnitPatchState {
        let numbers = patchParameters.filter { $0.kind.isNumeric }
        let map = plugin.world.uridMap
        var state = LV2UnitPatchState()
        state.count = numbers.count
        state.writableCount = numbers.filter(\.isWritable).count
        state.slots = .allocate(capacity: max(numbers.count, 1))
        state.urids = .allocate(capacity: max(numbers.count, 1))
        state.kinds = .allocate(capacity: max(numbers.count, 1))
        state.sent = .allocate(capacity: max(numbers.count, 1))
        for (k, p) in numbers.enumerated() {
            // Declared by this unit, so the slot exists.
            (state.slots! + k).initialize(
                to: parameters.slot(kLV2UnitPatchParameterBase + AudioUnitParameterID(k), kAudioUnitScope_Global, 0)!)
            (state.urids! + k).initialize(to: map.map(p.uri))
            (state.kinds! + k).initialize(to: p.kind)
            (state.sent! + k).initialize(to: lv2UnitControlUnwritten)  // every number is sent at the first run
        }
        let texts = textPatchParameters
        let types = instance.renderContext.patchURIDs
        state.textCount = texts.count
        state.mailboxes = .allocate(capacity: max(texts.count, 1))
        state.replies = .allocate(capacity: max(texts.count, 1))
        for (k, p) in texts.enumerated() {
            for boxes in [state.mailboxes!, state.replies!] {
                let box = UnsafeMutablePointer<Atomic<UInt8>>.allocate(capacity: 1)
                box.initialize(to: Atomic(LV2PatchMailbox.State.empty.rawValue))
                (boxes + k).initialize(
                    to: LV2PatchMailbox(
                        state: box, bytes: .allocate(capacity: LV2PatchMailbox.capacity), urid: map.map(p.uri),
                        type: types.type(of: p.kind)))
            }
            if p.isWritable, let text = patchText[p.uri] { post(text, to: state.mailboxes! + k) }
        }
        state.askForValues = !patchParameters.isEmpty
        state.sentThisRun = .allocate(capacity: max(numbers.count + texts.count, 1))
        state.sentThisRun!.initialize(repeating: false, count: max(numbers.count + texts.count, 1))
        return state
    }

    /// Thread: setup (the render state is no longer read).
    static func freePatchState(_ state: LV2UnitPatchState) {
        [state.slots.map(UnsafeMutableRawPointer.init), state.urids.map(UnsafeMutableRawPointer.init)].forEach { $0?.deallocate() }
        state.kinds?.deallocate()
        state.sent?.deallocate()
        state.sentThisRun?.deallocate()
        for boxes in [state.mailboxes, state.replies] {
            for k in 0..<state.textCount {
                boxes![k].state.deallocate()
                boxes![k].bytes.deallocate()
            }
            boxes?.deallocate()
        }
    }

    /// Hands `text` to the render thread through `box`, replacing a value not yet sent.
    /// Thread: setup.
    private func post(_ text: String, to box: UnsafeMutablePointer<LV2PatchMailbox>) {
        let state = box.pointee.state
        while true {
            let empty = LV2PatchMailbox.State.empty.rawValue, ready = LV2PatchMailbox.State.ready.rawValue
            let writing = LV2PatchMailbox.State.writing.rawValue
            if state.pointee.compareExchange(expected: empty, desired: writing, ordering: .acquiring).exchanged
                || state.pointee.compareExchange(expected: ready, desired: writing, ordering: .acquiring).exchanged
            {
                break
            }
            usleep(50)  // the render thread is copying the previous value out: microseconds
        }
        let utf8 = Array(text.utf8.prefix(LV2PatchMailbox.capacity - 1))
        box.pointee.bytes.update(from: utf8, count: utf8.count)
        box.pointee.bytes[utf8.count] = 0
        box.pointee.length = utf8.count + 1
        state.pointee.store(LV2PatchMailbox.State.ready.rawValue, ordering: .releasing)
    }

    /// Takes in the text values the plug-in reported since the last call (kLV2UnitProperty_PatchText
    /// reads them). Thread: setup.
    func takePatchTextReplies() {
        guard let r = renderState, let replies = r.pointee.patch.replies else { return }
        let ready = LV2PatchMailbox.State.ready.rawValue, reading = LV2PatchMailbox.State.reading.rawValue
        for (k, p) in textPatchParameters.enumerated() where k < r.pointee.patch.textCount {
            let box = replies + k
            guard box.pointee.state.pointee.compareExchange(expected: ready, desired: reading, ordering: .acquiring).exchanged else {
                continue
            }
            patchText[p.uri] = String(decoding: UnsafeBufferPointer(start: box.pointee.bytes, count: box.pointee.length), as: UTF8.self)
            box.pointee.state.pointee.store(LV2PatchMailbox.State.empty.rawValue, ordering: .releasing)
        }
    }

    /// kLV2UnitProperty_PatchText's set: each key must name a writable text parameter (a read-only
    /// one is refused by name). Thread: setup.
    func setPatchText(_ values: [String: String]) throws {
        let texts = textPatchParameters
        var resolved: [(Int, String, String)] = []
        for (key, value) in values {
            guard let k = texts.firstIndex(where: { $0.uri == key || $0.label == key }) else {
                let known = texts.filter(\.isWritable).map { "\"\($0.label)\" (\($0.uri))" }.joined(separator: ", ")
                throw AudioError(
                    kAudioUnitErr_InvalidPropertyValue,
                    "LV2 plug-in <\(plugin.uri)> has no writable path or string \"\(key)\"; it has \(known.isEmpty ? "none" : known).")
            }
            guard texts[k].isWritable else {
                throw AudioError(
                    kAudioUnitErr_InvalidPropertyValue,
                    "\"\(key)\" of LV2 plug-in <\(plugin.uri)> is read-only (patch:readable): the plug-in reports it, nobody sets it.")
            }
            guard value.utf8.count < LV2PatchMailbox.capacity else {
                throw AudioError(
                    kAudioUnitErr_InvalidPropertyValue, "The value of \"\(key)\" is longer than \(LV2PatchMailbox.capacity - 1) bytes.")
            }
            // A relative path is the host's: made absolute against the current directory.
            let absolute = texts[k].kind == .path && !value.hasPrefix("/") && !value.isEmpty
            resolved.append((k, texts[k].uri, absolute ? FileManager.default.currentDirectoryPath + "/" + value : value))
        }
        for (k, uri, value) in resolved {
            patchText[uri] = value
            if let mailboxes = renderState?.pointee.patch.mailboxes { post(value, to: mailboxes + k) }
        }
    }
}

/// Sends the numbers that changed since they were last sent and the text values waiting, as
/// patch:Set at frame 0 of the run about to start.
///
/// Thread: render.
@inline(__always) @_noAllocation @_noLocks
func lv2UnitDeliverPatch(_ r: UnsafeMutablePointer<LV2UnitRenderState>) {
    // Inlined check, the work out of line: most plug-ins have no patch parameters.
    guard r.pointee.patch.count + r.pointee.patch.textCount > 0 else { return }
    lv2UnitSendPatch(r)
}

@_noAllocation @_noLocks
private func lv2UnitSendPatch(_ r: UnsafeMutablePointer<LV2UnitRenderState>) {
    let p = r.pointee.patch
    guard let slots = p.slots, let sent = p.sent, let urids = p.urids, let kinds = p.kinds else { return }
    let context = r.pointee.context
    let types = context.patchURIDs
    for k in 0..<p.writableCount {
        let value = slots[k].pointee
        let bits = UInt64(value.bitPattern)
        if bits == sent[k] { continue }
        let kind = kinds[k]
        var word = UInt64(0)
        var size = 4
        switch kind {
        case .float: word = UInt64(value.bitPattern)
        case .double:
            word = Double(value).bitPattern
            size = 8
        case .int, .bool: word = UInt64(UInt32(bitPattern: Int32(kind == .bool ? (value != 0 ? 1 : 0) : lv2UnitWhole(value))))
        case .long:
            word = UInt64(bitPattern: Int64(lv2UnitWhole(value)))
            size = 8
        case .path, .string: continue
        }
        // Little-endian: a 4-byte value is the word's first 4 bytes.
        let queued = withUnsafePointer(to: &word) {
            lv2QueuePatchSet(context, property: urids[k], type: types.type(of: kind), value: $0, size: size)
        }
        if queued {
            sent[k] = bits
            p.sentThisRun![k] = true
        }
    }
    if p.askForValues && lv2QueuePatchGet(context) { r.pointee.patch.askForValues = false }
    guard let mailboxes = p.mailboxes else { return }
    let ready = LV2PatchMailbox.State.ready.rawValue, reading = LV2PatchMailbox.State.reading.rawValue
    for k in 0..<p.textCount {
        let box = mailboxes + k
        guard box.pointee.state.pointee.compareExchange(expected: ready, desired: reading, ordering: .acquiring).exchanged else { continue }
        let queued = lv2QueuePatchSet(
            context, property: box.pointee.urid, type: box.pointee.type, value: box.pointee.bytes, size: box.pointee.length)
        // A full buffer keeps the value for the next run.
        box.pointee.state.pointee.store(queued ? LV2PatchMailbox.State.empty.rawValue : ready, ordering: .releasing)
        if queued { p.sentThisRun![p.count + k] = true }
    }
}

/// `value` rounded to a whole number inside Int32's range (NaN → 0).
@_noAllocation @_noLocks
private func lv2UnitWhole(_ value: Float) -> Int32 {
    guard value.isFinite else { return 0 }
    return Int32(max(min(value + (value < 0 ? -0.5 : 0.5), 2_147_483_520), -2_147_483_520))
}

/// Takes in what the last run reported of the patch parameters: a number is stored in its
/// parameter and counted as sent (so it is not sent back), a path or string goes to its reply box.
///
/// Thread: render.
@inline(__always) @_noAllocation @_noLocks
func lv2UnitTakePatchReplies(_ r: UnsafeMutablePointer<LV2UnitRenderState>) {
    // Inlined check, the work out of line: most plug-ins have no patch parameters.
    guard r.pointee.patch.count + r.pointee.patch.textCount > 0 else { return }
    lv2UnitReadPatchReplies(r)
}

@_noAllocation @_noLocks
private func lv2UnitReadPatchReplies(_ r: UnsafeMutablePointer<LV2UnitRenderState>) {
    let p = r.pointee.patch
    guard let sentThisRun = p.sentThisRun else { return }
    defer { sentThisRun.update(repeating: false, count: p.count + p.textCount) }
    let types = r.pointee.context.patchURIDs
    var replies = LV2PatchReplies(r.pointee.context)
    while let (property, atom) = replies.next() {
        let type = atom.pointee.type, size = Int(atom.pointee.size)
        let bytes = UnsafeRawPointer(atom + 1)
        for k in 0..<p.count where p.urids![k] == property && !sentThisRun[k] {
            let value: Float
            if type == types.type(of: .float) && size >= 4 {
                value = bytes.load(as: Float.self)
            } else if type == types.type(of: .double) && size >= 8 {
                value = Float(bytes.load(as: Double.self))
            } else if (type == types.type(of: .int) || type == types.type(of: .bool)) && size >= 4 {
                value = Float(bytes.load(as: Int32.self))
            } else if type == types.type(of: .long) && size >= 8 {
                value = Float(bytes.load(as: Int64.self))
            } else {
                continue
            }
            p.slots![k].pointee = value
            p.sent![k] = UInt64(value.bitPattern)
        }
        guard type == types.type(of: .path) || type == types.type(of: .string), let replyBoxes = p.replies else { continue }
        for k in 0..<p.textCount where replyBoxes[k].urid == property && !sentThisRun[p.count + k] {
            let box = replyBoxes + k
            let empty = LV2PatchMailbox.State.empty.rawValue, ready = LV2PatchMailbox.State.ready.rawValue
            let writing = LV2PatchMailbox.State.writing.rawValue
            guard
                box.pointee.state.pointee.compareExchange(expected: empty, desired: writing, ordering: .acquiring).exchanged
                    || box.pointee.state.pointee.compareExchange(expected: ready, desired: writing, ordering: .acquiring).exchanged
            else { continue }
            // The atom's bytes up to its NUL (or its end), kept to the box.
            var length = 0
            let text = bytes.assumingMemoryBound(to: UInt8.self)
            while length < size && length < LV2PatchMailbox.capacity - 1 && text[length] != 0 { length += 1 }
            UnsafeMutableRawPointer(box.pointee.bytes).copyMemory(from: text, byteCount: length)
            box.pointee.length = length
            box.pointee.state.pointee.store(ready, ordering: .releasing)
        }
    }
}
