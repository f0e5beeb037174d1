import AUHostCore
import Foundation
import LV2Host

/// An LV2 unit's plug-in UI, shown by an `auhost-ui-host` child through suil (AUHostLV2UI.h).
/// A UI that crashes ends only its child: ``idle()`` then throws `kAUHostLV2UIErr_Crashed` and
/// the unit keeps rendering; open it again with a new `LV2PluginUI`.
///
/// The port protocol runs in ``idle()``, on the caller's thread, never on the render thread:
/// values the UI writes become `AudioUnitSetParameter` calls (and ``onEvent`` events), values
/// changed on the host's side reach the UI. Atoms cross both ways (LV2PluginUIAtoms; for a unit
/// out of process, through its child: LV2PluginUIRemoteAtoms): what the UI writes reaches the
/// plug-in at its next run, what the plug-in writes on its atom outputs reaches the UI at the next
/// `idle()`. Call `idle()` regularly
/// (every 30 ms, as jalv does).
///
/// ```swift
/// let ui = try unit.openLV2UI(index: 0)
/// while (try? ui.idle()) == .open { usleep(30_000) }
/// ui.close()
/// ```
///
/// Thread: setup; one thread at a time.
public final class LV2PluginUI {
    /// What ``idle()`` found.
    public enum State: Equatable, Sendable {
        case open
        /// The user closed the window (or the UI asked to close).
        case closed
    }

    /// A UI event, numbered as AUHostLV2UI.h's `kAUHostLV2UIEvent_…` (Apple's AudioUnitEventType).
    public enum Event: Equatable, Sendable {
        case valueChange(AudioUnitParameterID, AudioUnitParameterValue)
        case beginGesture(AudioUnitParameterID)
        case endGesture(AudioUnitParameterID)
    }

    /// The UI being shown.
    public let descriptor: LV2PluginUIDescriptor
    /// The X11 window the UI shows in (the child's top-level, or the UI's widget when embedded).
    public private(set) var window: UInt64 = 0
    /// Called from ``idle()`` after a value the UI wrote was set on the unit.
    public var onEvent: ((Event) -> Void)?

    /// A UI's ui:requestValue: it asks the host for a value of patch parameter `key` (a URI) of
    /// `type` (a URI such as atom:Path or atom:Float: the UI's, else the parameter's range). The
    /// answer is the value as text (a path, a string, a number in the C locale, true/false), or
    /// nil to decline (the user cancelled).
    public typealias ValueRequestHandler = (_ key: String, _ type: String) -> String?

    private let unit: AudioUnit
    private let child: LV2UIChildProcess
    /// Control ports (parameter ID = port index) and the value the UI last saw or sent.
    private var controls: [(id: AudioUnitParameterID, isInput: Bool, shown: Float)]
    /// The plug-in's patch parameters, and who answers the UI's requests for the writable ones.
    private let patchParameters: [LV2PatchParameter]
    private let requestValue: ValueRequestHandler?
    /// Requests the handler declined or whose answer the unit refused.
    public private(set) var unansweredRequests = 0
    private var state = State.open
    /// Atoms to and from the unit (in this process or out of it; nil for a unit without atom
    /// ports, or whose atoms another open UI holds), and the UI's atom lines refused for want of it.
    private var atoms: LV2UIAtomCarrier?
    private var atomsRefused = 0
    private var atomsDroppedAtEnd = (toPlugin: 0, toUI: 0)
    /// Atom lines that arrived before the rings were taken, applied once they are.
    private var early: [String] = []

    /// Keeps an atom line from before the rings were taken: 256 at most (a UI asks for its state
    /// once; one that floods while opening has the rest refused and counted).
    private func keepEarly(_ line: String) {
        if early.count < 256 { early.append(line) } else { atomsRefused += 1 }
    }

    /// Gives the unit's atom rings back (another UI may take them), keeping the counts.
    private func endAtoms() {
        if let atoms { atomsDroppedAtEnd = atoms.dropped }
        atoms = nil
    }

    /// Opens UI `index` of the LV2 unit `unit` (see the C function AUHostLV2UIOpen). With
    /// `requestValue`, the UI may ask for the values of the plug-in's writable patch parameters
    /// (ui:requestValue, as jalv's file choosers answer it); without, such a request is
    /// unsupported and the UI falls back on its own means. Thread: setup.
    public init(
        unit: AudioUnit, index: Int, parentWindow: UInt64 = 0, display: String? = nil, requestValue: ValueRequestHandler? = nil
    ) throws {
        let data = try LV2PluginUIData(unit: unit, function: "Opening a plug-in UI")
        let (uis, ports, name) = (data.uis, data.ports, data.name)
        guard uis.indices.contains(index) else {
            throw AudioError(kAUHostLV2UIErr_UnknownUI, "\(data.uri) has \(uis.count) UI(s); there is no UI \(index).")
        }
        descriptor = uis[index]
        self.unit = unit
        patchParameters = data.patchParameters
        self.requestValue = requestValue
        controls = ports.filter { $0.kind == .control }.map { (AudioUnitParameterID($0.index), $0.direction == .input, Float.nan) }
        let arguments =
            [data.uri, descriptor.uri, descriptor.kindURI, descriptor.bundlePath, descriptor.binaryPath, String(parentWindow), name]
            + ports.map { "\($0.symbol)=\($0.index)" }
        let requestable = requestValue == nil ? nil : patchParameters.filter(\.isWritable).map(\.uri)
        // A UI that needs the plug-in's instance can only live in the plug-in's process: a unit
        // out of process shows it there; in this process it would bring its toolkit here.
        if let feature = descriptor.instanceFeature {
            guard let host = ComponentInstance.from(unit)?.unit as? UnitProcessUIHosting else {
                throw AudioError(
                    kAUHostLV2UIErr_NeedsInstanceAccess,
                    "The UI \(descriptor.uri) requires \(feature): the plug-in's instance in the UI's process. Open the unit out of process (kAudioComponentInstantiation_LoadOutOfProcess; `auhost … --isolate`) and its UI runs there, beside the plug-in."
                )
            }
            child = LV2UIChildProcess(
                besidePlugin: try host.openUIBesidePlugin(arguments: arguments, display: display, requestable: requestable))
        } else {
            child = try LV2UIChildProcess(arguments: arguments, display: display, requestable: requestable)
        }
        do {
            try awaitReady()
        } catch {
            child.stop(grace: 0)
            throw error
        }
        atoms = LV2PluginUIAtoms(unit: unit) ?? LV2PluginUIRemoteAtoms(unit: unit)
        // Atoms the UI wrote while opening (a patch:Get from its instantiate, as eg-sampler's).
        for line in early { apply(line) }
        early = []
        sendChangedValues()
    }

    deinit {
        if state == .open { child.stop() }
    }

    /// Waits for the child's `ready` (or its error, or its end).
    private func awaitReady() throws {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let lines = child.receiveLines(timeout: 0.1)
            for (k, line) in lines.enumerated() {
                switch LV2UIMessage(line: line) {
                case .ready:
                    lines[(k + 1)...].filter { $0.hasPrefix("a ") }.forEach(keepEarly)
                    return
                case .atom, .malformedAtom: keepEarly(line)
                case .window(let id): window = id
                case .error(let kind, let text): throw openError(kind: kind, text: text)
                default: break
                }
            }
            if child.reachedEnd { try throwEnd(whileOpening: true) }
        }
        throw AudioError(kAUHostLV2UIErr_LoadFailed, "The UI \(descriptor.uri) did not come up within 10 s.\(reasonSuffix)")
    }

    private func openError(kind: String, text: String) -> AudioError {
        let status: OSStatus =
            switch kind {
            case "no-display": kAUHostLV2UIErr_NoDisplay
            case "unsupported": kAUHostLV2UIErr_UnsupportedKind
            default: kAUHostLV2UIErr_LoadFailed
            }
        return AudioError(status, "Could not open the UI \(descriptor.uri): \(text).\(reasonSuffix)")
    }

    private var reasonSuffix: String {
        let tail = child.errorTail.trimmingCharacters(in: .whitespacesAndNewlines)
        return tail.isEmpty ? "" : " The UI said: \(tail.suffix(600))"
    }

    /// Throws for a child that ended: crashed (signal), or closed.
    private func throwEnd(whileOpening: Bool) throws {
        endAtoms()
        if let signal = child.waitForEnd() {
            state = .closed
            let name = strsignal(signal).map { String(cString: $0) } ?? "signal"
            let after =
                child.isBesidePlugin
                ? "took the unit's process with it: the unit outputs silence until restarted (AUHostIsolatedUnitRestart), "
                    + "then the UI can be opened again"
                : "the unit is unharmed and the UI can be opened again"
            throw AudioError(
                kAUHostLV2UIErr_Crashed, "The UI \(descriptor.uri) crashed (signal \(signal), \(name)); \(after).\(reasonSuffix)")
        }
        state = .closed
        if whileOpening { throw AudioError(kAUHostLV2UIErr_LoadFailed, "The UI \(descriptor.uri) ended while opening.\(reasonSuffix)") }
    }

    /// Applies what the UI sent and sends it what changed on the host's side. `.closed` once
    /// the user closed the window; throws `kAUHostLV2UIErr_Crashed` if the UI's process died.
    /// Thread: setup (never the render thread).
    @discardableResult
    public func idle() throws -> State {
        guard state == .open else { return state }
        for line in child.receiveLines() { apply(line) }
        if child.reachedEnd || state == .closed {
            try throwEnd(whileOpening: false)
            return .closed
        }
        sendChangedValues()
        atoms?.toUI { child.send($0) }
        return state
    }

    /// Atoms dropped since the UI opened: on the way to the plug-in (a line naming no atom input
    /// or holding no atom, over 64 KiB, or the unit's ring full; every one when the unit has no
    /// rings for this UI; out of process, also those lost with a child that died) and to the UI
    /// (the ring full while idle was not called, or over 64 KiB).
    /// Thread: setup.
    public var droppedAtoms: (toPlugin: Int, toUI: Int) {
        let counted: (toPlugin: Int, toUI: Int) = atoms?.dropped ?? atomsDroppedAtEnd
        return (counted.toPlugin + atomsRefused, counted.toUI)
    }

    private func apply(_ line: String) {
        switch LV2UIMessage(line: line) {
        case .atom(let port, let text):
            if let atoms { atoms.fromUI(port: port, text: text) } else { atomsRefused += 1 }
        case .malformedAtom:
            atomsRefused += 1
        case .value(let port, let value):
            guard let slot = controls.firstIndex(where: { $0.id == port && $0.isInput }) else { return }
            // Out-of-range values are refused by the unit, as from any other caller.
            guard AudioUnitSetParameter(unit, port, kAudioUnitScope_Global, 0, value, 0) == noErr else { return }
            var stored = value
            AudioUnitGetParameter(unit, port, kAudioUnitScope_Global, 0, &stored)
            controls[slot].shown = stored
            onEvent?(.valueChange(port, stored))
        case .gesture(let port, let begin):
            onEvent?(begin ? .beginGesture(port) : .endGesture(port))
        case .requestValue(let key, let type):
            if !answer(key: key, type: type) { unansweredRequests += 1 }
        case .closed:
            state = .closed
        default:
            break
        }
    }

    /// Asks the handler for a value of `key` and sets it as any caller would: a number on its
    /// patch parameter (kLV2UnitPatchParameterBase + its place among the numeric ones), a path
    /// or string through kLV2UnitProperty_PatchText. The plug-in then gets a patch:Set before
    /// its next run, and its reply reaches the UI as for any other change.
    private func answer(key: String, type: String) -> Bool {
        guard let requestValue, let parameter = patchParameters.first(where: { $0.uri == key && $0.isWritable }),
            let text = requestValue(key, type.isEmpty ? parameter.kind.typeURI : type)
        else { return false }
        guard parameter.kind.isNumeric else {
            let values = CFBridge.propertyList(.dictionary([key: .string(text)]))
            defer { values.release() }
            var ref: UnsafeRawPointer? = UnsafeRawPointer(values.toOpaque())
            let size = UInt32(MemoryLayout<UnsafeRawPointer>.size)
            return AudioUnitSetProperty(unit, kLV2UnitProperty_PatchText, kAudioUnitScope_Global, 0, &ref, size) == noErr
        }
        let switchValue: Float? = ["true", "1"].contains(text) ? 1 : ["false", "0"].contains(text) ? 0 : nil
        guard let k = patchParameters.filter(\.kind.isNumeric).firstIndex(where: { $0.uri == key }),
            let value = parameter.kind == .bool ? switchValue : Float(text)
        else { return false }
        let id = kLV2UnitPatchParameterBase + AudioUnitParameterID(k)
        return AudioUnitSetParameter(unit, id, kAudioUnitScope_Global, 0, value, 0) == noErr
    }

    /// Sends every control value that differs from what the UI last saw (SetParameter, presets,
    /// scheduled and MIDI-mapped changes and meters alike: all end in the parameter).
    private func sendChangedValues() {
        for slot in controls.indices {
            var value: Float = 0
            guard AudioUnitGetParameter(unit, controls[slot].id, kAudioUnitScope_Global, 0, &value) == noErr else { continue }
            if value != controls[slot].shown || controls[slot].shown.isNaN {
                controls[slot].shown = value
                child.send("p \(controls[slot].id) \(value)")
            }
        }
    }

    /// Maps the UI's window. Thread: setup.
    public func show() { child.send("show") }
    /// Unmaps the UI's window. Thread: setup.
    public func hide() { child.send("hide") }

    /// Resizes the UI's window. Thread: setup.
    public func resize(width: Int, height: Int) throws {
        guard (1...16384).contains(width), (1...16384).contains(height) else {
            throw AudioError(kAudio_ParamError, "A UI window is 1…16384 pixels each way, not \(width)×\(height).")
        }
        child.send("size \(width) \(height)")
    }

    /// Writes the UI window's pixels to `path` as a binary PPM (the child reads them back with
    /// XGetImage), for `auhost ui --screenshot` and the UI sweep. Throws if the window is not
    /// viewable or the file cannot be written, or the UI's process is gone. Thread: setup.
    public func screenshot(to path: String) throws {
        guard state == .open, !path.contains("\n"), child.send("shot \(path)") else {
            throw AudioError(kAudio_ParamError, "No screenshot: the UI \(descriptor.uri) is not open.")
        }
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            for line in child.receiveLines(timeout: 0.1) {
                if line == "shot ok" { return }
                if line == "shot failed" {
                    throw AudioError(
                        kAudio_ParamError, "No screenshot of \(descriptor.uri): its window is not viewable, or \(path) cannot be written.")
                }
                apply(line)
            }
            if child.reachedEnd { try throwEnd(whileOpening: false) }
        }
        throw AudioError(kAudio_ParamError, "No screenshot of \(descriptor.uri) within 10 s.")
    }

    /// Closes the UI; its process ends. Thread: setup.
    public func close() {
        if state == .open { child.stop() }
        state = .closed
        endAtoms()
    }
}

extension AudioUnitInstance {
    /// The UIs this LV2 unit's plug-in declares, in or out of process (empty for other units).
    /// Thread: setup.
    public var lv2UIs: [LV2PluginUIDescriptor] {
        (try? LV2PluginUIData(unit: handle, function: "lv2UIs"))?.uis ?? []
    }

    /// Opens UI `index` of this LV2 unit (``LV2PluginUI``). Thread: setup.
    public func openLV2UI(
        index: Int = 0, parentWindow: UInt64 = 0, display: String? = nil, requestValue: LV2PluginUI.ValueRequestHandler? = nil
    ) throws -> LV2PluginUI {
        try LV2PluginUI(unit: handle, index: index, parentWindow: parentWindow, display: display, requestValue: requestValue)
    }
}
