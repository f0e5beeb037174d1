import AUHostCore
import CAUHostAtomics
import CAUHostWorkers
import Glibc

// Everything the render thread and the graph's worker threads touch when a graph renders in
// parallel, in one file (see AudioGraph+Render.swift).
//
// The pull model stays: the head renders and pulls its input through `graphInputTrampoline`. At the
// head's first pull of a cycle, when the schedule carries a ParallelPlan, the head's thread and
// the workers first render every task (a node upstream of the head) in dependency order into its
// memoised outputs; the head's pull then finds its sources rendered, as does every other pull.
// Per task: how many tasks it waits for and which it releases. Per run: the counters are reset,
// the ready tasks go on a lock-free queue, the workers are woken through a futex; whoever finishes
// a task releases its dependents (pushing those now ready). Tasks that run an application
// callback are "pinned": only the head's thread renders them, in the serial pull order, so an
// application's callbacks run on the render thread in the order they always did.

/// One node the parallel phase renders (with, for a converting node, all the nodes it pulls).
///
/// Thread: built on a setup thread, then read-only on the render and worker threads.
public struct ParallelTask {
    /// Index in the schedule's nodes.
    public var node: Int32
    /// Tasks this one waits for.
    public var waitsFor: Int32
    /// Its dependents: `releases[releasesStart ..< releasesStart + releasesCount]`.
    public var releasesStart: Int32
    public var releasesCount: Int32
    /// Its consumed output buses: `buses[busesStart ..< busesStart + busCount]`.
    public var busesStart: Int32
    public var busCount: Int32
    /// Rendered only by the head's thread (it runs an application callback).
    public var pinned: Bool
}

/// A bounded multi-producer multi-consumer queue of ready task indices. Every task is pushed at
/// most once per run, so a slot is written once per run; the run number sits in the high half of
/// both indices, so a thread still holding a previous run's index fails its compare-exchange.
///
/// Thread: render and worker threads (allocated on a setup thread).
public struct ReadyQueue {
    public var slots: UnsafeMutablePointer<Int32>
    /// The run that last wrote each slot (published after the slot: a reader checks it first).
    public var stamps: UnsafeMutablePointer<UInt64>
    public var capacity: Int
    public var head: UInt64 = 0
    public var tail: UInt64 = 0
}

/// The parallel part of a compiled schedule; its counters change per run, the rest is immutable.
///
/// Thread: compiled and freed on setup threads; the counters are the render and worker threads'.
public struct ParallelPlan {
    public var tasks: UnsafeMutablePointer<ParallelTask>
    public var taskCount: Int
    public var releases: UnsafeMutablePointer<Int32>
    public var buses: UnsafeMutablePointer<Int32>
    /// Per run: the tasks each task still waits for.
    public var pending: UnsafeMutablePointer<UInt32>
    /// Pinned tasks in the serial pull order.
    public var pinned: UnsafeMutablePointer<Int32>
    public var pinnedCount: Int
    /// Unpinned tasks that wait for nothing (pushed at the start of a run).
    public var sources: UnsafeMutablePointer<Int32>
    public var sourceCount: Int
    public var queue: ReadyQueue
    /// Tasks not finished in the current run.
    public var remaining: UInt32 = 0
    /// The input port of the head: its first pull in a cycle runs the parallel phase.
    public var headPort: Int
    /// The graph cycle the phase last ran in.
    public var ranCycle: UInt64 = 0
    /// How many workers join a run (render threads − 1).
    public var workers: Int
    public var pool: UnsafeMutablePointer<WorkerPool>
    /// Per-task render time of the last run, in seconds (written only when `timing` is set).
    public var taskSeconds: UnsafeMutablePointer<Double>
    public var timing: Bool = false
}

/// A graph's worker threads and what they share with the head's thread. Fixed in memory for the
/// graph's life (the render side reaches it through schedules).
///
/// Thread: workers started and stopped on setup threads; the words are shared by the head's
/// thread and the workers (atomics only).
public struct WorkerPool {
    public static let capacity = 64
    /// Futex word: bumped to start a run (or to make a worker look at its stop flag).
    public var generation: UInt32 = 0
    /// Workers asleep on `generation` (the head wakes them only when there are any).
    public var sleepers: UInt32 = 0
    /// Futex word: bumped whenever a task becomes ready or the last task of a run finishes.
    public var work: UInt32 = 0
    /// Threads sleeping on `work`.
    public var waiters: UInt32 = 0
    /// Workers inside a run (the head waits for 0 before the schedule may be retired).
    public var busy: UInt32 = 0
    /// The plan of the run in progress (nil between runs).
    public var job: UnsafeMutableRawPointer?
    public var timeStamp = AudioTimeStamp()
    public var frames: UInt32 = 0
    public var cycle: UInt64 = 0
    /// The run number (never 0: stamps start at 0).
    public var run: UInt64 = 0
    /// The schedule of the run.
    public var schedule: UnsafeMutablePointer<Schedule>?
    /// Per worker: 1 asks it to exit.
    public var stop: (UnsafeMutablePointer<UInt32>)
    /// When the head's last run ended (monotonic seconds; head's thread only).
    public var lastRunEnded = -Double.infinity
    /// The head thread's scheduling (policy, priority), copied by each worker onto itself.
    public var policy: Int32 = Int32(SCHED_OTHER)
    public var priority: Int32 = 0
    /// Set when a worker was refused the head's real-time policy (it then runs at normal priority).
    public var fifoRefused: UInt32 = 0
}

/// About 20 µs of polling (a pause is ≈ 40 ns here) before the head sleeps on a futex waiting for
/// workers to leave a finished run: they leave at once unless preempted.
let spinsBeforeSleeping = 500

/// How long a thread inside a run polls for a task to become ready before it sleeps, when runs
/// follow each other back to back (offline): as long as a worker polls between runs. A futex wake
/// brings a sleeping thread back only after tens of µs on a VM (measured: a head asleep on its
/// pinned mixer's last input made whole runs' blocks 291 → 365 µs). Between a device's periods
/// the poll stays short: there the wake costs a sliver of the period, the poll a core's time.
let backToBackDependencyPollSeconds = idlePollSeconds
let dependencyPollSeconds = 20e-6

/// Runs the parallel phase of a cycle on the head's thread: every task rendered into its
/// memoised outputs. Returns when all tasks are done and no worker is still inside the run.
///
/// Thread: render (the head's).
@_noAllocation @_noLocks
func runParallelPhase(
    _ schedule: UnsafeMutablePointer<Schedule>, _ plan: UnsafeMutablePointer<ParallelPlan>, cycle: UInt64,
    _ timeStamp: UnsafePointer<AudioTimeStamp>, _ frames: UInt32
) {
    let pool = plan.pointee.pool
    var run = pool.pointee.run &+ 1
    if run == 0 { run = 1 }
    // Atomic: setup threads read it (AudioGraph.parallelRunCount).
    _unsafePerformance { auhost_atomic_store_u64(&pool.pointee.run, run) }
    // Every run at first (a device thread may be made real-time just after its first cycles),
    // then every 256th.
    if run <= 64 || run & 255 == 1 { adoptHeadScheduling(pool) }
    for t in 0..<plan.pointee.taskCount { plan.pointee.pending[t] = UInt32(plan.pointee.tasks[t].waitsFor) }
    plan.pointee.remaining = UInt32(plan.pointee.taskCount)
    plan.pointee.queue.head = (run & 0xffff_ffff) << 32
    plan.pointee.queue.tail = (run & 0xffff_ffff) << 32
    pool.pointee.timeStamp = timeStamp.pointee
    pool.pointee.frames = frames
    pool.pointee.cycle = cycle
    pool.pointee.schedule = schedule
    for s in 0..<plan.pointee.sourceCount { push(plan, plan.pointee.sources[s], run: run) }
    let workers = plan.pointee.workers > 0
    // The stores above are published by the sequentially consistent store of the job pointer.
    _unsafePerformance {
        auhost_atomic_store_pointer(&pool.pointee.job, UnsafeMutableRawPointer(plan))
        if workers {
            // Both sides' read-modify-writes are full barriers: a worker that counted itself asleep
            // before this bump is woken, and one counted after it sees the new generation.
            _ = auhost_atomic_add_u32(&pool.pointee.generation, 1)
            // A futex wake (one system call, no lock held, nothing allocated) only for a sleeper:
            // workers polling between back-to-back cycles see the bump by themselves.
            if auhost_atomic_load_u32(&pool.pointee.sleepers) > 0 { auhost_futex_wake_all(&pool.pointee.generation) }
        }
    }
    let started = _unsafePerformance { monotonicSeconds() }
    let backToBack = started - pool.pointee.lastRunEnded < idlePollSeconds
    participate(plan, pool, run: run, head: true, backToBack: backToBack)
    _unsafePerformance { auhost_atomic_store_pointer(&pool.pointee.job, nil) }
    plan.pointee.ranCycle = cycle
    // Workers leave as soon as they see no task remaining; one preempted inside the run is waited
    // for on a futex, since the schedule it reads may be retired once this cycle ends. (Checked
    // even when this plan wakes no worker: one woken for an earlier run may still be joining.)
    var spins = 0
    while true {
        let busy = _unsafePerformance { auhost_atomic_load_u32(&pool.pointee.busy) }
        if busy == 0 { break }
        spins += 1
        if spins < spinsBeforeSleeping {
            _unsafePerformance { auhost_cpu_relax() }
        } else {
            _unsafePerformance { auhost_futex_wait(&pool.pointee.busy, busy) }
        }
    }
    pool.pointee.lastRunEnded = _unsafePerformance { monotonicSeconds() }
}

/// Takes and renders tasks until the run has none left. The head's thread also renders the
/// pinned tasks, in order, each once its dependencies are done.
///
/// Thread: render (the head's or a worker).
@_noAllocation @_noLocks
func participate(
    _ plan: UnsafeMutablePointer<ParallelPlan>, _ pool: UnsafeMutablePointer<WorkerPool>, run: UInt64, head: Bool, backToBack: Bool
) {
    let pollSeconds = backToBack ? backToBackDependencyPollSeconds : dependencyPollSeconds
    var nextPinned = 0
    var spins = 0
    var idleSince = 0.0
    while _unsafePerformance({ auhost_atomic_load_u32(&plan.pointee.remaining) }) > 0 {
        let seen = _unsafePerformance { auhost_atomic_load_u32(&pool.pointee.work) }
        if head, nextPinned < plan.pointee.pinnedCount {
            let task = plan.pointee.pinned[nextPinned]
            if _unsafePerformance({ auhost_atomic_load_u32(plan.pointee.pending + Int(task)) }) == 0 {
                renderTask(plan, pool, task, run: run)
                nextPinned += 1
                spins = 0
                continue
            }
        }
        if let task = pop(plan, run: run) {
            renderTask(plan, pool, task, run: run)
            spins = 0
            continue
        }
        spins += 1
        if spins == 1 { idleSince = _unsafePerformance { monotonicSeconds() } }
        // The clock is read once every 32 pauses, as in awaitRun.
        if spins & 31 != 0 || _unsafePerformance({ monotonicSeconds() }) - idleSince < pollSeconds {
            _unsafePerformance { auhost_cpu_relax() }
            continue
        }
        spins = 0
        _unsafePerformance {
            _ = auhost_atomic_add_u32(&pool.pointee.waiters, 1)
            // Sleeps only if nothing became ready (and nothing finished) since `seen` was read.
            if auhost_atomic_load_u32(&plan.pointee.remaining) > 0 { auhost_futex_wait(&pool.pointee.work, seen) }
            _ = auhost_atomic_sub_u32(&pool.pointee.waiters, 1)
        }
    }
}

/// Renders one task's consumed outputs into their memos, then releases its dependents.
///
/// Thread: render (the head's or a worker).
@_noAllocation @_noLocks
func renderTask(_ plan: UnsafeMutablePointer<ParallelPlan>, _ pool: UnsafeMutablePointer<WorkerPool>, _ task: Int32, run: UInt64) {
    let t = plan.pointee.tasks + Int(task)
    guard let schedule = pool.pointee.schedule else { return }
    let node = schedule.pointee.nodes + Int(t.pointee.node)
    let frames = pool.pointee.frames
    let started = plan.pointee.timing ? _unsafePerformance { monotonicSeconds() } : 0
    for i in 0..<Int(t.pointee.busCount) {
        let bus = Int(plan.pointee.buses[Int(t.pointee.busesStart) + i])
        guard bus < node.pointee.outputCount else { continue }
        renderMemo(node, bus: bus, cycle: pool.pointee.cycle, &pool.pointee.timeStamp, frames)
    }
    if plan.pointee.timing { plan.pointee.taskSeconds[Int(task)] = _unsafePerformance { monotonicSeconds() } - started }
    // The counters' sequentially consistent decrements publish the memos above to whoever
    // renders a dependent (it reads them after seeing its counter reach 0).
    var woke = false
    for r in 0..<Int(t.pointee.releasesCount) {
        let dependent = plan.pointee.releases[Int(t.pointee.releasesStart) + r]
        guard _unsafePerformance({ auhost_atomic_sub_u32(plan.pointee.pending + Int(dependent), 1) }) == 0 else { continue }
        if plan.pointee.tasks[Int(dependent)].pinned {
            woke = true  // only the head may take it: wake everyone (below)
        } else {
            push(plan, dependent, run: run)
            _unsafePerformance {
                _ = auhost_atomic_add_u32(&pool.pointee.work, 1)
                if auhost_atomic_load_u32(&pool.pointee.waiters) > 0 { auhost_futex_wake(&pool.pointee.work, 1) }
            }
        }
    }
    let last = _unsafePerformance { auhost_atomic_sub_u32(&plan.pointee.remaining, 1) } == 0
    if woke || last {
        _unsafePerformance {
            _ = auhost_atomic_add_u32(&pool.pointee.work, 1)
            if auhost_atomic_load_u32(&pool.pointee.waiters) > 0 { auhost_futex_wake_all(&pool.pointee.work) }
        }
    }
}

/// Thread: render.
@_noAllocation @_noLocks
func push(_ plan: UnsafeMutablePointer<ParallelPlan>, _ task: Int32, run: UInt64) {
    let index = Int(_unsafePerformance { auhost_atomic_fetch_add_u64(&plan.pointee.queue.tail, 1) } & 0xffff_ffff)
    guard index < plan.pointee.queue.capacity else { return }  // cannot happen: each task is pushed once per run
    plan.pointee.queue.slots[index] = task
    _unsafePerformance { auhost_atomic_store_u64(plan.pointee.queue.stamps + index, run) }
}

/// Thread: render.
@_noAllocation @_noLocks
func pop(_ plan: UnsafeMutablePointer<ParallelPlan>, run: UInt64) -> Int32? {
    while true {
        var head = _unsafePerformance { auhost_atomic_load_u64(&plan.pointee.queue.head) }
        guard head >> 32 == run & 0xffff_ffff else { return nil }
        let index = Int(head & 0xffff_ffff)
        guard index < plan.pointee.queue.capacity,
            _unsafePerformance({ auhost_atomic_load_u64(plan.pointee.queue.stamps + index) }) == run
        else { return nil }  // empty, or the pusher has not yet written the slot it took
        let task = plan.pointee.queue.slots[index]
        if _unsafePerformance({ auhost_atomic_compare_exchange_u64(&plan.pointee.queue.head, &head, head + 1) }) { return task }
    }
}

/// Records the head thread's scheduling policy for the workers to copy (SCHED_FIFO when the
/// device thread has it). Two system calls, no lock; done on a pool's first 64 runs, then every
/// 256th.
///
/// Thread: render (the head's).
@_noAllocation @_noLocks
func adoptHeadScheduling(_ pool: UnsafeMutablePointer<WorkerPool>) {
    _unsafePerformance {
        let policy = sched_getscheduler(0)
        var param = sched_param()
        guard policy >= 0, sched_getparam(0, &param) == 0 else { return }
        pool.pointee.policy = policy
        pool.pointee.priority = param.sched_priority
    }
}

/// How long a worker polls for the next run before it sleeps, when the gap before the last run
/// was shorter than this: back-to-back cycles (offline rendering, a graph pulled in a loop) start
/// the next run sooner than a futex wake brings a sleeping thread back (tens of µs on a VM), while
/// a device's periods (a millisecond and more) leave the worker asleep after a short poll.
let idlePollSeconds = 200e-6
/// The poll after a long gap: catches a run that follows at once without costing a device's period.
let shortIdlePollSeconds = 10e-6

/// Waits until the generation moves past `seen`: polls for `pollSeconds`, then sleeps on the
/// futex. Returns how long it waited (seconds).
///
/// Thread: worker.
@_noAllocation @_noLocks
private func awaitRun(_ pool: UnsafeMutablePointer<WorkerPool>, seen: UInt32, pollSeconds: Double) -> Double {
    let started = _unsafePerformance { monotonicSeconds() }
    var spins = 0
    while _unsafePerformance({ auhost_atomic_load_u32(&pool.pointee.generation) }) == seen {
        spins += 1
        // The clock is read once every 32 pauses: a pause is 10–140 cycles depending on the CPU.
        if spins & 31 != 0 || _unsafePerformance({ monotonicSeconds() }) - started < pollSeconds {
            _unsafePerformance { auhost_cpu_relax() }
            continue
        }
        _unsafePerformance {
            _ = auhost_atomic_add_u32(&pool.pointee.sleepers, 1)
            // Sleeps only if the generation is still `seen` (futex semantics): a run started (or a
            // stop asked) since the poll is not slept through.
            auhost_futex_wait(&pool.pointee.generation, seen)
            _ = auhost_atomic_sub_u32(&pool.pointee.sleepers, 1)
        }
    }
    return _unsafePerformance { monotonicSeconds() } - started
}

/// A worker's life: wait until a run starts, join it, repeat until asked to stop.
///
/// Thread: worker (real-time when the head's thread is).
@_noAllocation @_noLocks
func workerLoop(_ pool: UnsafeMutablePointer<WorkerPool>, index: Int) {
    var seen = _unsafePerformance { auhost_atomic_load_u32(&pool.pointee.generation) }
    var appliedPolicy = Int32(SCHED_OTHER), appliedPriority: Int32 = 0
    var lastGap = Double.infinity
    while _unsafePerformance({ auhost_atomic_load_u32(pool.pointee.stop + index) }) == 0 {
        let generation = _unsafePerformance { auhost_atomic_load_u32(&pool.pointee.generation) }
        if generation == seen {
            lastGap = awaitRun(pool, seen: seen, pollSeconds: lastGap < idlePollSeconds ? idlePollSeconds : shortIdlePollSeconds)
            continue
        }
        seen = generation
        // Joining before looking at the job: the head clears the job before waiting for `busy` to
        // drain, so a worker that sees a job is one the head waits for.
        _ = _unsafePerformance { auhost_atomic_add_u32(&pool.pointee.busy, 1) }
        if let job = _unsafePerformance({ auhost_atomic_load_pointer(&pool.pointee.job) }) {
            if pool.pointee.policy != appliedPolicy || pool.pointee.priority != appliedPriority {
                appliedPolicy = pool.pointee.policy
                appliedPriority = pool.pointee.priority
                _unsafePerformance {
                    var param = sched_param()
                    param.sched_priority = appliedPriority
                    // Refused without RLIMIT_RTPRIO / CAP_SYS_NICE: the worker keeps its priority.
                    if sched_setscheduler(0, appliedPolicy, &param) != 0 { auhost_atomic_store_u32(&pool.pointee.fifoRefused, 1) }
                }
            }
            let plan = job.assumingMemoryBound(to: ParallelPlan.self)
            participate(plan, pool, run: pool.pointee.run, head: false, backToBack: lastGap < idlePollSeconds)
        }
        _unsafePerformance {
            if auhost_atomic_sub_u32(&pool.pointee.busy, 1) == 0 { auhost_futex_wake_all(&pool.pointee.busy) }
        }
    }
}
