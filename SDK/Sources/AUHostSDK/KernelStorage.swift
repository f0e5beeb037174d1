import AudioUnitBase

// What the SDK's two unit classes (KernelEffectUnit, KernelInstrumentUnit) share: the kernel they
// run, made at initialize and freed at uninitialize in memory the render thread reads without
// retaining anything, and the defaults and presets their kernel type declares.

/// What the render thread reads: the kernel and its parameters (both nil while uninitialized),
/// and the musical time it follows through each render call.
struct LiveKernel<Kernel> {
    var kernel: UnsafeMutablePointer<Kernel>?
    var parameters: KernelRenderState?
    var time = MusicalTimeline()
}

/// The parameter identifiers and value slots the render thread reads, in declaration order.
struct KernelRenderState {
    let ids: UnsafeMutablePointer<AudioUnitParameterID>
    let slots: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    let count: Int

    /// Thread: setup.
    init(ids: [AudioUnitParameterID], slots: [UnsafeMutablePointer<Float>]) {
        count = ids.count
        self.ids = .allocate(capacity: max(count, 1))
        self.ids.initialize(from: ids, count: count)
        self.slots = .allocate(capacity: max(count, 1))
        self.slots.initialize(from: slots, count: count)
    }

    /// Thread: setup.
    func free() {
        ids.deallocate()
        slots.deallocate()
    }
}

/// A unit's kernel while initialized, in memory allocated once with the unit (`live`, which the
/// render thread reads). Thread: setup for every method.
struct KernelStorage<Kernel: UnitDeclaration> {
    let live: UnsafeMutablePointer<LiveKernel<Kernel>>

    init() {
        live = .allocate(capacity: 1)
        live.initialize(to: LiveKernel())
    }

    /// Resolves the slots of the parameters the kernel declares and makes the kernel with
    /// `make(sampleRate, channels, maxFrames)` for the unit's rate, output channels and slice size.
    func start(for unit: AUBase, making make: (_ sampleRate: Double, _ channels: Int, _ maxFrames: Int) -> Kernel) throws {
        let ids = Kernel.parameters.map(\.id)
        let slots = try ids.map { id -> UnsafeMutablePointer<Float> in
            guard let slot = unit.parameters.slot(id, kAudioUnitScope_Global, 0) else {
                throw AudioError(kAudioUnitErr_InvalidParameter, "Parameter \(id) has no value slot.")
            }
            return slot
        }
        let k = UnsafeMutablePointer<Kernel>.allocate(capacity: 1)
        k.initialize(to: make(unit.sampleRate, Int(unit.outputFormats[0].mChannelsPerFrame), Int(unit.maxFramesPerSlice)))
        live.pointee = LiveKernel(kernel: k, parameters: KernelRenderState(ids: ids, slots: slots))
    }

    /// Releases (a ReleasableKernel) and frees the kernel and its parameter table.
    func stop() {
        if let k = live.pointee.kernel {
            (k.pointee as? ReleasableKernel)?.release()
            k.deinitialize(count: 1)
            k.deallocate()
        }
        live.pointee.parameters?.free()
        live.pointee = LiveKernel()
    }

    /// Runs `body` on the kernel, if there is one (AudioUnitReset).
    func reset(_ body: (inout Kernel) -> Void) {
        if let k = live.pointee.kernel { body(&k.pointee) }
    }

    /// Stops the kernel and frees the storage (the unit's deinit).
    func free() {
        stop()
        live.deinitialize(count: 1)
        live.deallocate()
    }
}

extension AUBase {
    /// Sets every parameter the kernel declares to its default. Thread: setup.
    func setDefaultParameters<Kernel: UnitDeclaration>(of _: Kernel.Type) {
        for p in Kernel.parameters { _ = setParameter(p.id, value: p.defaultValue) }
    }

    /// Sets the parameters of the kernel's factory preset `number`. Thread: setup.
    func applyFactoryPreset<Kernel: UnitDeclaration>(_ number: Int32, of _: Kernel.Type) throws {
        guard let preset = Kernel.factoryPresets.first(where: { $0.number == number }) else {
            throw AudioError(kAudioUnitErr_InvalidPropertyValue, "This unit has no factory preset \(number).")
        }
        for (id, value) in preset.values { _ = setParameter(id, value: value) }
    }
}
