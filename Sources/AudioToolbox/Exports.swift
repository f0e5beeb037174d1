// `import AudioToolbox`, as on Apple's platforms: the documented C API (the CAudioToolbox headers,
// which C code includes as <AudioToolbox/AudioToolbox.h>) and the Swift overlay Apple's SDK
// carries with it. Nothing else: AUHost's own Swift API is `import AUHost`.
// Weak: SDK plug-ins compile this module in, and the overlay's forwarding functions must not make
// a plug-in need host functions it never calls (the host, which defines them, binds them as usual).
@_exported @_weakLinked import CAudioToolbox
