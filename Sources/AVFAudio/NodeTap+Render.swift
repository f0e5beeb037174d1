import AudioToolbox
import Foundation

/// A tap's render notification: after each render of its bus, the output goes into the tap's
/// ring and the delivery thread is woken. No allocation, no lock, no reference counting (the tap
/// is reached unretained; removal waits until this is not running).
///
/// Thread: render.
let nodeTapRenderNotify: AURenderCallback = { refCon, flags, timeStamp, bus, frames, ioData in
    guard flags.pointee.contains(.unitRenderAction_PostRender), let ioData else { return noErr }
    Unmanaged<NodeTap>.fromOpaque(refCon)._withUnsafeGuaranteedRef { tap in
        guard Int(bus) == tap.bus else { return }
        tap.ring.write(ioData, frames: Int(frames), sampleTime: timeStamp.pointee.mSampleTime)
        sem_post(tap.wake)
    }
    return noErr
}
