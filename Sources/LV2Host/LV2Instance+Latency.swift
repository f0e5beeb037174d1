import CLilv

/// Finding out the latency before the first real run.
extension LV2Instance {
    /// Makes the latency port hold the plug-in's latency before any real run, and returns it (nil,
    /// running nothing, when the plug-in has no latency port).
    ///
    /// LV2 has no call that asks for the latency: a plug-in writes it to its latency port in `run`.
    /// lv2.h provides for this: `run` with 0 frames must not crash and should update control
    /// outputs, "so hosts can pre-roll plugins to compute latency". That run processes no audio,
    /// so the plug-in's state and its first real output stay as a fresh instance's. A plug-in that
    /// writes nothing then (the port is set to NaN first to tell), or that needs a fixed block
    /// length, gets what Ardour (`LV2Plugin::latency_compute_run`) and Carla (a "pre-run" on zeroed
    /// buffers) do: one run on silence at the nominal block length, then deactivate and activate
    /// (LV2's reset) so the first real run starts from the state activation gives, and zeroed own
    /// output buffers. (swh fastLookaheadLimiter shows why 0 frames comes first: its activate does
    /// not clear what a silent run leaves, and its output would differ from frame 241 on.) Audio
    /// and CV ports are on the instance's own buffers, inputs silent; control inputs as they
    /// stand. A latency still unwritten reads 0.
    ///
    /// Call it on an active instance. Thread: setup (non-real-time), never concurrent with `run`.
    @discardableResult
    public func runToRevealLatency() -> Float? {
        guard isActive, let latencyPort = descriptor.ports.first(where: { $0.reportsLatency }) else { return nil }
        for port in descriptor.ports where port.kind == .audio || port.kind == .cv {
            guard let buffer = buffers.pointer(for: port.index) else { continue }
            buffer.initializeMemory(as: Float.self, repeating: 0, count: configuration.maxBlockLength)
            lilv_instance_connect_port(lilvInstance, UInt32(port.index), buffer)
        }
        let latency = buffers.controls + latencyPort.index
        latency.pointee = .nan
        if run(frames: 0) != .ok || latency.pointee.isNaN {
            // The nominal length suits every block-length requirement (fixed, power of two).
            _ = run(frames: configuration.nominalBlockLength)
            deactivate()
            activate()
            for output in buffers.audioOutputs + buffers.cvOutputs {
                output.update(repeating: 0, count: configuration.maxBlockLength)
            }
        }
        if latency.pointee.isNaN { latency.pointee = 0 }
        return latency.pointee
    }
}
