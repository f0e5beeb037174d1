// `import AVFAudio` brings in AudioToolbox's declarations (AudioBufferList, AudioTimeStamp,
// AudioComponentDescription, OSStatus …) as Apple's AVFAudio headers do.
@_exported import AudioToolbox
