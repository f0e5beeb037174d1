import AUHostCore
import Foundation
import LV2Host

// The C face of LV2PluginUI (AUHostLV2UI.h). An AUHostLV2UIRef is a retained LV2PluginUI.

private func pluginUI(_ ref: OpaquePointer?) throws -> LV2PluginUI {
    guard let ref else { throw AudioError(kAudio_ParamError, "The AUHostLV2UIRef is NULL.") }
    return Unmanaged<LV2PluginUI>.fromOpaque(UnsafeRawPointer(ref)).takeUnretainedValue()
}

/// AUHostLV2UIGetCount (AUHostLV2UI.h). Thread: setup.
@_cdecl("AUHostLV2UIGetCount")
public func _AUHostLV2UIGetCount(_ unit: AudioUnit?, _ outCount: UnsafeMutablePointer<UInt32>?) -> OSStatus {
    LastErrorMessage.status {
        guard let outCount else { throw AudioError(kAudio_ParamError, "AUHostLV2UIGetCount needs outCount.") }
        outCount.pointee = UInt32(try LV2PluginUIData(unit: unit, function: "AUHostLV2UIGetCount").uis.count)
    }
}

/// AUHostLV2UICopyInfo (AUHostLV2UI.h). Thread: setup.
@_cdecl("AUHostLV2UICopyInfo")
public func _AUHostLV2UICopyInfo(
    _ unit: AudioUnit?, _ index: UInt32, _ outURI: UnsafeMutablePointer<UnsafeRawPointer?>?,
    _ outKind: UnsafeMutablePointer<UnsafeRawPointer?>?, _ outSupported: UnsafeMutablePointer<UInt8>?
) -> OSStatus {
    LastErrorMessage.status {
        let data = try LV2PluginUIData(unit: unit, function: "AUHostLV2UICopyInfo")
        let uis = data.uis
        guard Int(index) < uis.count else {
            throw AudioError(kAUHostLV2UIErr_UnknownUI, "\(data.uri) has \(uis.count) UI(s); there is no UI \(index).")
        }
        outURI?.pointee = UnsafeRawPointer(CFBridge.string(uis[Int(index)].uri).toOpaque())
        outKind?.pointee = UnsafeRawPointer(CFBridge.string(uis[Int(index)].kindURI).toOpaque())
        outSupported?.pointee = data.canShow(uis[Int(index)]) ? 1 : 0
    }
}

/// AUHostLV2UIOpen (AUHostLV2UI.h). Thread: setup.
@_cdecl("AUHostLV2UIOpen")
public func _AUHostLV2UIOpen(
    _ unit: AudioUnit?, _ index: UInt32, _ parent: UInt64, _ display: UnsafePointer<CChar>?, _ outUI: UnsafeMutablePointer<OpaquePointer?>?
) -> OSStatus {
    LastErrorMessage.status {
        guard let outUI else { throw AudioError(kAudio_ParamError, "AUHostLV2UIOpen needs outUI.") }
        outUI.pointee = nil
        guard let unit else { throw AudioError(kAudio_ParamError, "AUHostLV2UIOpen needs a unit.") }
        let ui = try LV2PluginUI(unit: unit, index: Int(index), parentWindow: parent, display: display.map { String(cString: $0) })
        outUI.pointee = OpaquePointer(Unmanaged.passRetained(ui).toOpaque())
    }
}

/// AUHostLV2UIOpenWithValueRequests (AUHostLV2UI.h). Thread: setup.
@_cdecl("AUHostLV2UIOpenWithValueRequests")
public func _AUHostLV2UIOpenWithValueRequests(
    _ unit: AudioUnit?, _ index: UInt32, _ parent: UInt64, _ display: UnsafePointer<CChar>?, _ proc: AUHostLV2UIRequestValueProc?,
    _ userData: UnsafeMutableRawPointer?, _ outUI: UnsafeMutablePointer<OpaquePointer?>?
) -> OSStatus {
    LastErrorMessage.status {
        guard let outUI else { throw AudioError(kAudio_ParamError, "AUHostLV2UIOpenWithValueRequests needs outUI.") }
        outUI.pointee = nil
        guard let unit, let proc else { throw AudioError(kAudio_ParamError, "AUHostLV2UIOpenWithValueRequests needs a unit and a proc.") }
        nonisolated(unsafe) let context = userData
        // The proc writes a C string into a buffer of the documented size.
        let answer: LV2PluginUI.ValueRequestHandler = { key, type in
            var value = [CChar](repeating: 0, count: Int(kAUHostLV2UIRequestValueCapacity))
            guard proc(context, key, type, &value, UInt32(value.count)) != 0 else { return nil }
            value[value.count - 1] = 0
            return String(cString: value)
        }
        let ui = try LV2PluginUI(
            unit: unit, index: Int(index), parentWindow: parent, display: display.map { String(cString: $0) }, requestValue: answer)
        outUI.pointee = OpaquePointer(Unmanaged.passRetained(ui).toOpaque())
    }
}

/// AUHostLV2UISetEventCallback (AUHostLV2UI.h). Thread: setup.
@_cdecl("AUHostLV2UISetEventCallback")
public func _AUHostLV2UISetEventCallback(_ ref: OpaquePointer?, _ proc: AUHostLV2UIEventProc?, _ userData: UnsafeMutableRawPointer?)
    -> OSStatus
{
    LastErrorMessage.status {
        let ui = try pluginUI(ref)
        guard let proc else {
            ui.onEvent = nil
            return
        }
        nonisolated(unsafe) let context = userData
        ui.onEvent = { event in
            switch event {
            case .valueChange(let id, let value): proc(context, UInt32(kAUHostLV2UIEvent_ParameterValueChange), id, value)
            case .beginGesture(let id): proc(context, UInt32(kAUHostLV2UIEvent_BeginParameterChangeGesture), id, 0)
            case .endGesture(let id): proc(context, UInt32(kAUHostLV2UIEvent_EndParameterChangeGesture), id, 0)
            }
        }
    }
}

/// AUHostLV2UIIdle (AUHostLV2UI.h). Thread: setup, never the render thread.
@_cdecl("AUHostLV2UIIdle")
public func _AUHostLV2UIIdle(_ ref: OpaquePointer?) -> OSStatus {
    LastErrorMessage.status {
        if try pluginUI(ref).idle() == .closed {
            throw AudioError(kAUHostLV2UIErr_Closed, "The UI's window was closed.")
        }
    }
}

/// AUHostLV2UIShow (AUHostLV2UI.h). Thread: setup.
@_cdecl("AUHostLV2UIShow")
public func _AUHostLV2UIShow(_ ref: OpaquePointer?) -> OSStatus {
    LastErrorMessage.status { try pluginUI(ref).show() }
}

/// AUHostLV2UIHide (AUHostLV2UI.h). Thread: setup.
@_cdecl("AUHostLV2UIHide")
public func _AUHostLV2UIHide(_ ref: OpaquePointer?) -> OSStatus {
    LastErrorMessage.status { try pluginUI(ref).hide() }
}

/// AUHostLV2UIResize (AUHostLV2UI.h). Thread: setup.
@_cdecl("AUHostLV2UIResize")
public func _AUHostLV2UIResize(_ ref: OpaquePointer?, _ width: UInt32, _ height: UInt32) -> OSStatus {
    LastErrorMessage.status { try pluginUI(ref).resize(width: Int(width), height: Int(height)) }
}

/// AUHostLV2UIGetWindow (AUHostLV2UI.h). Thread: any.
@_cdecl("AUHostLV2UIGetWindow")
public func _AUHostLV2UIGetWindow(_ ref: OpaquePointer?, _ outWindow: UnsafeMutablePointer<UInt64>?) -> OSStatus {
    LastErrorMessage.status {
        let ui = try pluginUI(ref)
        guard let outWindow else { throw AudioError(kAudio_ParamError, "AUHostLV2UIGetWindow needs outWindow.") }
        outWindow.pointee = ui.window
    }
}

/// AUHostLV2UIClose (AUHostLV2UI.h). Thread: setup.
@_cdecl("AUHostLV2UIClose")
public func _AUHostLV2UIClose(_ ref: OpaquePointer?) -> OSStatus {
    LastErrorMessage.status {
        let ui = try pluginUI(ref)
        ui.close()
        Unmanaged.passUnretained(ui).release()
    }
}
