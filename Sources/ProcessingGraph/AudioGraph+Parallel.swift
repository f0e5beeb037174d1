import AUHostCore
import CAUHostAtomics
import CAUHostWorkers
import Foundation

// Compiling the parallel part of a schedule, and the worker threads (setup side; the render side
// is ParallelRender.swift).
//
// Which nodes become tasks: every node the head pulls (directly or not) whose render the head's
// time stamp drives, except
//  - nodes fed (directly or not) by the head's own output (the I/O unit's input bus 1): they need
//    the head to be rendering, so the head's pull renders them, serially, as before;
//  - nodes a converting unit pulls (a format converter, or a unit whose input and output rates
//    differ): it pulls them with time stamps and sizes of its own, so the converting unit's task
//    renders them within its own render, serially. When such a node also feeds anything else,
//    two threads could render it: the whole graph then renders serially.
// A task that runs an application callback (its own input or one of the nodes it pulls) is pinned
// to the head's thread, in the order the serial pull reaches it.
// A graph with nothing to gain — fewer than two unpinned tasks, or all of them on one chain —
// gets no plan and renders serially without waking a worker.

extension AudioGraph {
    /// The number of threads that render the graph, the head's own included: 0 renders serially
    /// (as Apple's AUGraph does), 1 uses the parallel scheduler on the head's thread alone, N adds
    /// N − 1 worker threads. AUHost extension; the default is the number of CPU cores.
    ///
    /// Thread: any.
    public var renderThreads: Int {
        lock.lock()
        defer { lock.unlock() }
        return threadCount
    }

    /// The most threads a graph may render on.
    public static let maximumRenderThreads = WorkerPool.capacity

    /// Sets ``renderThreads``; an initialized graph adopts it at once (a new schedule, published
    /// as AUGraphUpdate publishes one). Refuses a count over ``maximumRenderThreads`` with
    /// kAudio_ParamError.
    ///
    /// Thread: setup.
    public func setRenderThreads(_ count: Int) throws {
        guard count >= 0, count <= Self.maximumRenderThreads else {
            throw AudioError(
                kAudio_ParamError,
                "A graph renders on 0 (serially) to \(Self.maximumRenderThreads) threads; \(count) is out of range.")
        }
        lock.lock()
        defer { lock.unlock() }
        guard count != threadCount else { return }
        threadCount = count
        guard isInitialized else { return }
        // A plan asking for more workers than run (or fewer) is harmless: the head's thread works too.
        resizeWorkers(to: workersWanted)
        publish(try compileSchedule())
        waitForRetired()
    }

    /// Why the schedule in use renders serially (nil when it renders in parallel).
    ///
    /// Thread: setup.
    public var serialReason: String? {
        lock.lock()
        defer { lock.unlock() }
        return published == nil ? "the graph is not initialized" : lastSerialReason
    }

    /// Workers the current thread count asks for.
    var workersWanted: Int { max(threadCount - 1, 0) }

    /// The default thread count: one per CPU core.
    static var defaultRenderThreads: Int { min(max(ProcessInfo.processInfo.activeProcessorCount, 1), maximumRenderThreads) }

    // MARK: The plan

    /// Builds the parallel plan of a schedule being compiled, or nil (with the reason kept) when
    /// the graph renders serially.
    func compileParallelPlan(joined: [Node], index: [AUNode: Int]) -> UnsafeMutablePointer<ParallelPlan>? {
        lastSerialReason = nil
        planOrder = []
        guard threadCount > 0 || profiling else {
            lastSerialReason = "the graph's thread count is 0"
            return nil
        }
        guard let head, index[head.id] != nil else {
            lastSerialReason = "the graph has no initialized head"
            return nil
        }
        let edges = dependencies.filter { index[$0.sourceNode] != nil && index[$0.destNode] != nil }
        var sources: [AUNode: [AUNode]] = [:], consumers: [AUNode: [AUNode]] = [:]
        for e in edges {
            sources[e.destNode, default: []].append(e.sourceNode)
            consumers[e.sourceNode, default: []].append(e.destNode)
        }
        func closure(from start: [AUNode], along next: [AUNode: [AUNode]]) -> Set<AUNode> {
            var seen = Set<AUNode>(), stack = start
            while let n = stack.popLast() {
                for m in next[n] ?? [] where seen.insert(m).inserted { stack.append(m) }
            }
            return seen
        }
        var upstream = closure(from: [head.id], along: sources)
        upstream.remove(head.id)
        // Fed by the head's own output (the device input): rendered in the head's pull.
        let fromHead = connections.filter { $0.sourceNode == head.id }.map(\.destNode)
        upstream.subtract(Set(fromHead).union(closure(from: fromHead, along: consumers)))
        // Converting nodes render what they pull themselves.
        let converting = upstream.filter { isConverting($0) }
        var owned: [AUNode: Set<AUNode>] = [:]
        var swallowed = Set<AUNode>()
        for k in converting {
            let up = closure(from: [k], along: sources)
            owned[k] = up
            swallowed.formUnion(up)
        }
        let tasks = upstream.subtracting(swallowed)
        for (k, up) in owned where tasks.contains(k) {
            for x in up {
                for c in consumers[x] ?? [] where !up.contains(c) && c != k {
                    lastSerialReason = "\(describe(x)) feeds both the converting \(describe(k)) and \(describe(c))"
                    return nil
                }
                if connections.contains(where: {
                    $0.sourceNode == x && index[$0.destNode] != nil && !up.contains($0.destNode) && $0.destNode != k
                }) {
                    lastSerialReason = "\(describe(x)) feeds both the converting \(describe(k)) and another node"
                    return nil
                }
            }
        }
        let callbackFed = Set(
            interactions.filter { $0.nodeInteractionType == kAUNodeInteraction_InputCallback }.map(\.nodeInteraction.inputCallback.destNode)
        )
        func isPinned(_ t: AUNode) -> Bool {
            callbackFed.contains(t) || (owned[t]?.contains(where: callbackFed.contains) ?? false)
        }

        // The serial pull order: depth first from the head, inputs in bus order.
        var order: [AUNode] = []
        var visited = Set<AUNode>()
        func visit(_ n: AUNode) {
            guard visited.insert(n).inserted else { return }
            for c in edges.filter({ $0.destNode == n }).sorted(by: { $0.destInputNumber < $1.destInputNumber }) { visit(c.sourceNode) }
            if tasks.contains(n) { order.append(n) }
        }
        visit(head.id)

        // Enough to gain? Longest chain of unpinned tasks versus their number.
        let unpinned = order.filter { !isPinned($0) }
        var longest: [AUNode: Int] = [:]
        for n in order {  // sources come before consumers in `order`
            let before = (sources[n] ?? []).filter(tasks.contains).map { longest[$0] ?? 0 }.max() ?? 0
            longest[n] = before + (isPinned(n) ? 0 : 1)
        }
        let critical = longest.values.max() ?? 0
        guard profiling || (unpinned.count >= 2 && critical < unpinned.count) else {
            lastSerialReason =
                unpinned.count < 2
                ? "fewer than two of its nodes can render on a worker"
                : "its nodes form one chain (the critical path is all the work)"
            return nil
        }

        guard let headPort = ports[BusKey(node: head.id, bus: 0)] else {
            lastSerialReason = "the head's input is not fed by the graph"
            return nil
        }

        // Tables.
        let slot = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
        let count = order.count
        var releaseTable: [Int32] = [], busTable: [Int32] = []
        let taskTable = UnsafeMutablePointer<ParallelTask>.allocate(capacity: count)
        for (i, n) in order.enumerated() {
            let waits = Set((sources[n] ?? []).filter(tasks.contains))
            let dependents = Set((consumers[n] ?? []).filter(tasks.contains)).map { slot[$0]! }.sorted()
            let buses = Set(connections.filter { $0.sourceNode == n && index[$0.destNode] != nil }.map(\.sourceOutputNumber)).sorted()
            (taskTable + i).initialize(
                to: ParallelTask(
                    node: Int32(index[n]!), waitsFor: Int32(waits.count),
                    releasesStart: Int32(releaseTable.count), releasesCount: Int32(dependents.count),
                    busesStart: Int32(busTable.count), busCount: Int32(buses.count), pinned: isPinned(n)))
            releaseTable += dependents.map(Int32.init)
            busTable += buses.map { Int32($0) }
        }
        func table<T>(_ values: [T], _ filler: T) -> UnsafeMutablePointer<T> {
            let p = UnsafeMutablePointer<T>.allocate(capacity: max(values.count, 1))
            p.initialize(repeating: filler, count: max(values.count, 1))
            for (i, v) in values.enumerated() { p[i] = v }
            return p
        }
        let pinnedOrder = order.enumerated().filter { isPinned($0.element) }.map { Int32($0.offset) }
        let readySources = order.enumerated().filter { !isPinned($0.element) && taskTable[$0.offset].waitsFor == 0 }.map {
            Int32($0.offset)
        }
        planOrder = order
        planSources = sources.mapValues { $0.filter(tasks.contains) }
        let plan = UnsafeMutablePointer<ParallelPlan>.allocate(capacity: 1)
        plan.initialize(
            to: ParallelPlan(
                tasks: taskTable, taskCount: count, releases: table(releaseTable, 0), buses: table(busTable, 0),
                pending: table([UInt32](repeating: 0, count: count), 0),
                pinned: table(pinnedOrder, 0), pinnedCount: pinnedOrder.count,
                sources: table(readySources, 0), sourceCount: readySources.count,
                queue: ReadyQueue(
                    slots: table([Int32](repeating: 0, count: count), 0), stamps: table([UInt64](repeating: 0, count: count), 0),
                    capacity: count),
                headPort: headPort.pointee.id, workers: workersWanted, pool: workerPool,
                taskSeconds: table([Double](repeating: 0, count: count), 0), timing: profiling))
        return plan
    }

    /// Frees a plan no run can reach any more.
    func freeParallelPlan(_ plan: UnsafeMutablePointer<ParallelPlan>) {
        let p = plan.pointee
        p.tasks.deallocate()
        p.releases.deallocate()
        p.buses.deallocate()
        p.pending.deallocate()
        p.pinned.deallocate()
        p.sources.deallocate()
        p.queue.slots.deallocate()
        p.queue.stamps.deallocate()
        p.taskSeconds.deallocate()
        plan.deallocate()
    }

    /// Whether a unit pulls its inputs with time stamps or sizes of its own: a format converter
    /// (resampling, varispeed, time-pitch), or a unit whose input and output sample rates differ.
    func isConverting(_ id: AUNode) -> Bool {
        guard let n = nodes.first(where: { $0.id == id }), let unit = n.unit else { return true }
        if n.component.description.componentType == kAudioUnitType_FormatConverter { return true }
        guard
            let out = try? property(
                unit, kAudioUnitProperty_StreamFormat, scope: kAudioUnitScope_Output, element: 0, as: AudioStreamBasicDescription.self)
        else { return false }
        for c in connections where c.destNode == id {
            if let input = try? property(
                unit, kAudioUnitProperty_StreamFormat, scope: kAudioUnitScope_Input, element: c.destInputNumber,
                as: AudioStreamBasicDescription.self), input.mSampleRate != out.mSampleRate
            {
                return true
            }
        }
        return false
    }

    // MARK: Profiling

    /// Renders `cycles` cycles through `renderCycle` (which pulls the head) with every node that
    /// the parallel phase renders timed, and returns each one's median time and the critical path.
    /// The graph renders with its own thread count while measured (a serial graph on the head's
    /// thread alone, through the parallel scheduler); its schedule is restored afterwards (when
    /// that cannot be compiled, the error is thrown and the timed schedule stays in use).
    /// Nil when no node can be timed (a graph without a head, or one rendered serially for a
    /// reason the scheduler cannot set aside, given in ``serialReason``).
    ///
    /// Thread: setup (the caller renders on its own thread; nothing else may render meanwhile).
    public func profile(cycles: Int, _ renderCycle: () throws -> Void) throws -> RenderProfile? {
        lock.lock()
        guard isInitialized else {
            lock.unlock()
            throw AudioError(kAUGraphErr_CannotDoInCurrentContext, "Profile an initialized graph (AUGraphInitialize first).")
        }
        profiling = true
        let timed: UnsafeMutablePointer<Schedule>
        do { timed = try compileSchedule() } catch {
            profiling = false
            lock.unlock()
            throw error
        }
        publish(timed)
        waitForRetired()
        let order = planOrder, sources = planSources
        let plan = timed.pointee.parallel
        lock.unlock()
        let profile: RenderProfile?
        do {
            profile = try measure(cycles: cycles, plan: plan, order: order, sources: sources, renderCycle)
        } catch {
            // The measurement's error is the one to report; a failed restore is told in its message.
            if let restoreError = restoreScheduleAfterProfiling() {
                throw AudioError(
                    (error as? AudioError)?.status ?? restoreError.status,
                    "\(error) (and afterwards: \(restoreError.message))")
            }
            throw error
        }
        if let restoreError = restoreScheduleAfterProfiling() { throw restoreError }
        return profile
    }

    /// Publishes the schedule the graph renders with when not profiled. The wiring compiled a
    /// moment ago, but a unit may have changed its word since (a latency the delay lines cannot
    /// take): then the timed schedule stays in use (same wiring and output, nodes timed) and the
    /// error says so.
    ///
    /// Thread: setup.
    private func restoreScheduleAfterProfiling() -> AudioError? {
        lock.lock()
        defer { lock.unlock() }
        profiling = false
        defer { waitForRetired() }
        do {
            publish(try compileSchedule())
            return nil
        } catch {
            let cause = error as? AudioError ?? AudioError(kAUGraphErr_CannotDoInCurrentContext, "\(error)")
            return AudioError(
                cause.status,
                "After profiling, the graph could not be compiled again and keeps rendering with the timed schedule: \(cause.message)")
        }
    }

    /// Renders `cycles` cycles and times each node of `plan` (see ``profile(cycles:_:)``).
    private func measure(
        cycles: Int, plan: UnsafeMutablePointer<ParallelPlan>?, order: [AUNode], sources: [AUNode: [AUNode]],
        _ renderCycle: () throws -> Void
    ) throws -> RenderProfile? {
        guard let plan, !order.isEmpty else { return nil }
        var samples = [[Double]](repeating: [], count: order.count)
        for _ in 0..<max(cycles, 1) {
            try renderCycle()
            for t in 0..<order.count { samples[t].append(plan.pointee.taskSeconds[t]) }
        }
        let median = samples.map { $0.sorted()[$0.count / 2] }
        var path: [AUNode: (seconds: Double, previous: AUNode?)] = [:]
        for (t, n) in order.enumerated() {
            let before = (sources[n] ?? []).compactMap { s in path[s].map { (s, $0.seconds) } }.max { $0.1 < $1.1 }
            path[n] = ((before?.1 ?? 0) + median[t], before?.0)
        }
        var critical: [AUNode] = []
        var cursor = path.max { $0.value.seconds < $1.value.seconds }?.key
        while let n = cursor { critical.insert(n, at: 0); cursor = path[n]?.previous }
        lock.lock()
        let names = order.map { describe($0) }
        lock.unlock()
        return RenderProfile(
            nodes: order.enumerated().map { RenderProfile.NodeTime(node: $1, name: names[$0], seconds: median[$0]) },
            criticalPath: critical, criticalSeconds: critical.compactMap { n in order.firstIndex(of: n).map { median[$0] } }.reduce(0, +),
            totalSeconds: median.reduce(0, +))
    }

    // MARK: Worker threads

    /// Starts or stops workers so that `count` run (setup thread; never the render thread).
    func resizeWorkers(to count: Int) {
        let pool = workerPool
        while workerThreads.count < count {
            let index = workerThreads.count
            auhost_atomic_store_u32(pool.pointee.stop + index, 0)
            let context = UnsafeMutablePointer<WorkerContext>.allocate(capacity: 1)
            context.initialize(to: WorkerContext(pool: pool, index: index))
            var thread = pthread_t()
            let created = pthread_create(
                &thread, nil,
                { raw in
                    let context = raw!.assumingMemoryBound(to: WorkerContext.self)
                    let (pool, index) = (context.pointee.pool, context.pointee.index)
                    context.deallocate()
                    workerLoop(pool, index: index)
                    return nil
                }, context)
            guard created == 0 else {
                context.deallocate()
                LastErrorMessage.set("A graph render worker could not start (pthread_create: \(String(cString: strerror(created)))).")
                break
            }
            workerThreads.append(thread)
        }
        while workerThreads.count > count {
            let thread = workerThreads.removeLast()
            auhost_atomic_store_u32(pool.pointee.stop + workerThreads.count, 1)
            _ = auhost_atomic_add_u32(&pool.pointee.generation, 1)
            auhost_futex_wake_all(&pool.pointee.generation)
            pthread_join(thread, nil)
        }
    }

    /// Workers running now.
    ///
    /// Thread: setup.
    public var renderWorkerCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return workerThreads.count
    }

    /// Cycles rendered through the parallel phase since the graph was made (tests and tools use it
    /// to tell a parallel graph from one that fell back to the serial pull).
    ///
    /// Thread: any.
    public var parallelRunCount: UInt64 { auhost_atomic_load_u64(&workerPool.pointee.run) }

    /// Whether a worker was refused the head thread's real-time scheduling.
    ///
    /// Thread: any.
    public var renderWorkersRefusedRealTime: Bool { auhost_atomic_load_u32(&workerPool.pointee.fifoRefused) != 0 }
}

struct WorkerContext {
    let pool: UnsafeMutablePointer<WorkerPool>
    let index: Int
}

/// Allocates a graph's worker pool (setup thread).
func makeWorkerPool() -> UnsafeMutablePointer<WorkerPool> {
    let stop = UnsafeMutablePointer<UInt32>.allocate(capacity: WorkerPool.capacity)
    stop.initialize(repeating: 0, count: WorkerPool.capacity)
    let pool = UnsafeMutablePointer<WorkerPool>.allocate(capacity: 1)
    pool.initialize(to: WorkerPool(stop: stop))
    return pool
}

func freeWorkerPool(_ pool: UnsafeMutablePointer<WorkerPool>) {
    pool.pointee.stop.deallocate()
    pool.deallocate()
}

/// What ``AudioGraph/profile(cycles:_:)`` measured.
public struct RenderProfile {
    public struct NodeTime {
        public let node: AUNode
        /// "node 3 (AUHost SDK: Saturator)".
        public let name: String
        /// Median seconds per cycle (a converting node's time includes the nodes it pulls).
        public let seconds: Double
    }
    /// The timed nodes in the serial pull order.
    public var nodes: [NodeTime]
    /// The chain of nodes whose times add up most: no thread count renders a cycle faster.
    public var criticalPath: [AUNode]
    public var criticalSeconds: Double
    /// All the timed work of a cycle.
    public var totalSeconds: Double
    /// The best speed-up threads could give (total work / critical path).
    public var parallelism: Double { criticalSeconds > 0 ? totalSeconds / criticalSeconds : 1 }
}
