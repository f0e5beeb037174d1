import AudioToolbox
import Foundation
import Synchronization

extension PlayerEngine {
    /// Fills `frames` frames of the player's output: every scheduled buffer overlapping this
    /// stretch of player time is added in at its sample; finished buffers are handed to the
    /// delivery thread. No allocation, no lock, no wait.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    func render(frames: Int, into list: UnsafeMutablePointer<AudioBufferList>) -> Bool {
        let (ioData, bufferCount) = renderBuffers(list)
        for b in 0..<bufferCount {
            guard let data = ioData[b].mData?.assumingMemoryBound(to: Float.self) else { continue }
            data.update(repeating: 0, count: frames)
        }
        let nodeT = nodeSample.load(ordering: .relaxed)
        nodeSample.store(nodeT + Int64(frames), ordering: .releasing)
        let stopGen = stopGeneration.load(ordering: .acquiring)
        if stopGen != stopGenerationSeen {
            stopGenerationSeen = stopGen
            playerSample.store(0, ordering: .releasing)
            nodeAtPlayerZero.store(-1, ordering: .releasing)
            wasPlaying = false
        }
        let cancel = cancelBelow.load(ordering: .acquiring)
        let first = head.load(ordering: .relaxed), last = tail.load(ordering: .acquiring)
        var posted = false
        var sounded = false
        // Where in this call playback runs, and from which player sample.
        var offset = 0
        var count = 0
        let isPlaying = playing.load(ordering: .acquiring) != 0
        var t = playerSample.load(ordering: .relaxed)
        if isPlaying {
            let startAt = startAtNodeSample.load(ordering: .acquiring)
            offset = startAt > nodeT ? Int(min(startAt - nodeT, Int64(frames))) : 0
            count = frames - offset
            if count > 0, !wasPlaying {
                wasPlaying = true
                nodeAtPlayerZero.store(nodeT + Int64(offset) - t, ordering: .releasing)
            }
        } else if wasPlaying {
            wasPlaying = false  // paused: the player's time stops here
        }
        var i = first
        while i < last {
            let item = items + (i % slotCount)
            i += 1
            if item.pointee.done { continue }
            if item.pointee.id < cancel {
                item.pointee.done = true
                posted = pushFinished(item.pointee.id) || posted
                continue
            }
            guard count > 0, let channels = item.pointee.channels else { continue }
            let start = item.pointee.start, length = item.pointee.frames
            let from = max(start, t), to = item.pointee.loops ? t + Int64(count) : min(start + length, t + Int64(count))
            if from < to {
                let n = Int(to - from)
                let outStart = offset + Int(from - t)
                for b in 0..<bufferCount {
                    guard let out = ioData[b].mData?.assumingMemoryBound(to: Float.self) else { continue }
                    let source = channels[min(b, item.pointee.channelCount - 1)]
                    var k = Int(from - start)
                    if item.pointee.loops { k %= Int(length) }
                    for j in 0..<n {
                        out[outStart + j] += source[k]
                        k += 1
                        if k == Int(length) { k = 0 }
                    }
                }
                sounded = true
            }
            if !item.pointee.loops, start + length <= t + Int64(count) {
                item.pointee.done = true
                posted = pushFinished(item.pointee.id) || posted
            }
        }
        if count > 0 { t += Int64(count) }
        playerSample.store(t, ordering: .releasing)
        var h = first
        while h < last, items[h % slotCount].done { h += 1 }
        head.store(h, ordering: .releasing)
        let semaphore = wake
        if posted { _unsafePerformance { _ = sem_post(semaphore) } }  // sem_post never blocks nor allocates
        return sounded
    }
}

extension PlayerEngine {
    /// Hands a finished id to the delivery thread; false when the ring is full (cannot happen:
    /// it holds twice the items that can be scheduled).
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    func pushFinished(_ id: UInt64) -> Bool {
        let t = finishedTail.load(ordering: .relaxed)
        if t - finishedHead.load(ordering: .acquiring) > finishedMask { return false }
        finishedSlots[t & finishedMask] = id
        finishedTail.store(t + 1, ordering: .releasing)
        return true
    }
}

/// The converter unit's input callback: the player's render. The engine is reached unretained
/// (the node keeps it and removes the callback before it goes).
///
/// Thread: render.
let playerRenderCallback: AURenderCallback = { refCon, flags, _, _, frames, ioData in
    guard let ioData else { return kAudio_ParamError }
    let sounded = Unmanaged<PlayerEngine>.fromOpaque(refCon)._withUnsafeGuaranteedRef {
        $0.render(frames: Int(frames), into: ioData)
    }
    if !sounded { flags.pointee.insert(.unitRenderAction_OutputIsSilence) }
    return noErr
}
