@_weakLinked import CAudioToolbox

// Apple's AudioComponentInstantiate takes a block; Swift on Apple's platforms passes a closure:
// `AudioComponentInstantiate(component, []) { unit, status in … }`. The C function here takes a
// function pointer and user data (C has no blocks without -fblocks), so this overlay carries the
// closure through the user data, as Apple's block would capture it. SDK plug-ins compile this
// module in and must not need host functions they never call, so the function is emitted into its
// callers (@_alwaysEmitIntoClient) and this module's own references to the C API are weak
// (@_weakLinked, in every file of the module: debug builds still emit the body here).

/// Boxes the closure for the trip through C.
@usableFromInline
final class InstantiationCompletion {
    @usableFromInline let handler: (AudioComponentInstance?, OSStatus) -> Void
    @usableFromInline init(_ handler: @escaping (AudioComponentInstance?, OSStatus) -> Void) { self.handler = handler }
}

/// Creates an instance of `inComponent` and calls `inCompletionHandler` with it (or nil) and the
/// status, as Apple's block-based AudioComponentInstantiate does; here the handler runs before
/// this returns.
///
/// Thread: setup.
@_alwaysEmitIntoClient
public func AudioComponentInstantiate(
    _ inComponent: AudioComponent, _ inOptions: AudioComponentInstantiationOptions,
    _ inCompletionHandler: @escaping (AudioComponentInstance?, OSStatus) -> Void
) {
    let completion = Unmanaged.passRetained(InstantiationCompletion(inCompletionHandler)).toOpaque()
    CAudioToolbox.AudioComponentInstantiate(
        inComponent, inOptions,
        { instance, status, userData in
            guard let userData else { return }
            Unmanaged<InstantiationCompletion>.fromOpaque(userData).takeRetainedValue().handler(instance, status)
        }, completion)
}
