// `import AVFoundation` brings in AVFAudio, as Apple's AVFoundation umbrella does for audio code.
@_exported import AVFAudio
