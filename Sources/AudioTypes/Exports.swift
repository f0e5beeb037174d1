@_exported import AudioToolbox
