// `import AudioToolbox`, as on Apple's platforms: the documented C API (the CAudioToolbox headers,
// which C code includes as <AudioToolbox/AudioToolbox.h>) and the Swift overlay Apple's SDK
// carries with it. Nothing else: AUHost's own Swift API is `import AUHost`.
@_exported import CAudioToolbox
