import Foundation

/// The one lock every read of Turtle data in this process holds, whatever its world. lilv 0.24
/// formats each file's blank-node prefix in one static buffer that all worlds share
/// (`lilv_world_blank_node_prefix`, world.c). A world that parses a file while another world
/// formats its prefix can give two of its own files the same prefix, and their blank nodes (the
/// ports) merge: two catalog worlds on two threads read ZamDynamicEQ with 5 audio inputs and no
/// output. Reads are setup work, so waiting here never holds up a render. Thread: setup.
package enum LV2TurtleReads {
    private static let lock = NSRecursiveLock()

    /// Runs `body` holding the lock (recursive: a world read inside a world read is fine).
    package static func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
