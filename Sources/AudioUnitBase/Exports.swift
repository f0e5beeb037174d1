@_exported import AudioTypes
