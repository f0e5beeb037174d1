@_exported import AudioUnitBase
