import AudioUnitBase
import Foundation

/// What an AudioComponentInstance (AudioUnit) handle points at: the opened plug-in interface and
/// its methods, looked up once so that render and parameter calls dispatch without a lookup.
public final class ComponentInstance {
    public let component: Component
    let plugIn: UnsafeMutablePointer<AudioComponentPlugInInterface>
    public var me: UnsafeMutableRawPointer { UnsafeMutableRawPointer(plugIn) }
    /// The unit when it is an AUBase made in this process (for the Swift API's direct paths).
    public let unit: AUBase?

    /// The render method and `self` to call it with (for hosts that call it directly, like the graph).
    public let render: AudioUnitRenderProc?
    let getParameter: AudioUnitGetParameterProc?
    let setParameter: AudioUnitSetParameterProc?
    let scheduleParameters: AudioUnitScheduleParametersProc?
    let process: AudioUnitProcessProc?
    /// The AudioUnitProcessMultiple method, when the plug-in has one (the graph renders chains with it).
    public let processMultiple: AudioUnitProcessMultipleProc?
    let midiEvent: MusicDeviceMIDIEventProc?

    /// Serialises setup calls on this instance (recursive: a property listener called during a
    /// set may read the unit back). Render, parameter and MIDI calls never take it.
    let setupLock = NSRecursiveLock()
    /// False once disposal began (under setupLock): a setup call that waited for the lock then
    /// answers badComponentInstance instead of reaching a closed plug-in.
    var isOpen = true

    private static let liveLock = NSLock()
    nonisolated(unsafe) private static var live: Set<UnsafeRawPointer> = []

    /// Makes an instance of `component`, in this process or (`outOfProcess`) in a child process
    /// of its own (see AUHostIsolation.h).
    ///
    /// Thread: setup.
    init(component: Component, outOfProcess: Bool = false) throws {
        self.component = component
        let plugIn: UnsafeMutablePointer<AudioComponentPlugInInterface>
        if outOfProcess {
            guard let factory = Component.outOfProcessFactory else {
                throw AudioError(
                    kAudioComponentErr_NotPermitted, "This program cannot load units out of process (it does not link UnitIsolation).")
            }
            plugIn = try factory(component)
        } else {
            plugIn = try component.makePlugIn()
        }
        self.plugIn = plugIn
        unit = AUBase.unit(fromPlugIn: UnsafeMutableRawPointer(plugIn))
        func look<F>(_ selector: Int16, _: F.Type) -> F? {
            plugIn.pointee.Lookup(selector).map { unsafeBitCast($0, to: F.self) }
        }
        render = look(kAudioUnitRenderSelect, AudioUnitRenderProc.self)
        getParameter = look(kAudioUnitGetParameterSelect, AudioUnitGetParameterProc.self)
        setParameter = look(kAudioUnitSetParameterSelect, AudioUnitSetParameterProc.self)
        scheduleParameters = look(kAudioUnitScheduleParametersSelect, AudioUnitScheduleParametersProc.self)
        process = look(kAudioUnitProcessSelect, AudioUnitProcessProc.self)
        processMultiple = look(kAudioUnitProcessMultipleSelect, AudioUnitProcessMultipleProc.self)
        midiEvent = look(kMusicDeviceMIDIEventSelect, MusicDeviceMIDIEventProc.self)
    }

    /// Looks up a method by selector.
    ///
    /// Thread: any.
    func method<F>(_ selector: Int16, as: F.Type) -> F? {
        if let unit, !unit.answers(selector) { return nil }
        return plugIn.pointee.Lookup(selector).map { unsafeBitCast($0, to: F.self) }
    }

    /// Opens the plug-in with this instance's handle and makes the handle live.
    func open() throws -> AudioComponentInstance {
        let handle = AudioComponentInstance(Unmanaged.passRetained(self).toOpaque())
        // A plug-in in another image records its reasons in its own copy of LastErrorMessage:
        // start clean so that a stale message is never reported as Open's.
        LastErrorMessage.set(nil)
        let status = plugIn.pointee.Open(me, handle)
        guard status == noErr else {
            adoptPlugInErrorMessage(status, during: "open")
            _ = plugIn.pointee.Close(me)
            Unmanaged.passUnretained(self).release()
            throw AudioError(
                status,
                LastErrorMessage.current
                    ?? "The unit \(component.name) (\(component.origin)) failed to open with status \(status).")
        }
        ComponentInstance.liveLock.lock()
        ComponentInstance.live.insert(UnsafeRawPointer(handle))
        ComponentInstance.liveLock.unlock()
        return handle
    }

    /// After a failed setup call on a unit from another image (a run-time plug-in), makes the
    /// plug-in's own sentence this thread's last error message, named with the component and its
    /// file; a plug-in that keeps no sentence gets one saying which call failed. Units of this
    /// image already wrote theirs.
    ///
    /// Thread: setup.
    func adoptPlugInErrorMessage(_ status: OSStatus, during call: String = "a setup call") {
        guard unit == nil else { return }
        var buffer = [CChar](repeating: 0, count: 1024)
        let copy = plugIn.pointee.Lookup(kAUHostCopyLastErrorMessageSelect).map {
            unsafeBitCast($0, to: AUHostCopyLastErrorMessageProc.self)
        }
        if let copy, copy(me, &buffer, UInt32(buffer.count)) == noErr {
            LastErrorMessage.set("\(component.name) (\(component.origin)): \(String(cString: buffer))")
        } else {
            LastErrorMessage.set(
                "The unit \(component.name) (\(component.origin)) failed \(call == "open" ? "to open" : "in \(call)") with status \(status)."
            )
        }
    }

    /// Closes the plug-in and frees the handle.
    static func dispose(_ handle: AudioComponentInstance) -> OSStatus {
        liveLock.lock()
        let wasLive = live.remove(UnsafeRawPointer(handle)) != nil
        liveLock.unlock()
        guard wasLive else { return badComponentInstance }
        let instance = Unmanaged<ComponentInstance>.fromOpaque(UnsafeRawPointer(handle))
        let status = instance._withUnsafeGuaranteedRef { i -> OSStatus in
            // Setup calls in progress on other threads finish first; later ones see it closed.
            // Close itself runs outside the lock: a unit's deinit may wait for the listener
            // thread, whose listener may be waiting for this lock.
            i.setupLock.lock()
            i.isOpen = false
            i.setupLock.unlock()
            return i.plugIn.pointee.Close(i.me)
        }
        instance.release()
        return status
    }

    /// The live instance behind a handle (nil for NULL or a disposed/unknown handle).
    ///
    /// Thread: setup.
    public static func from(_ handle: AudioComponentInstance?) -> ComponentInstance? {
        guard let handle else { return nil }
        liveLock.lock()
        defer { liveLock.unlock() }
        // Retained under the lock, so that a disposal on another thread cannot free it meanwhile.
        guard live.contains(UnsafeRawPointer(handle)) else { return nil }
        return Unmanaged<ComponentInstance>.fromOpaque(UnsafeRawPointer(handle)).takeUnretainedValue()
    }
}
