// Music Sequencing Services (MusicPlayer.h): sequences, tracks, events, Standard MIDI Files, and
// the player that delivers events to a graph's instruments sample-accurately. C and Swift code
// reach it through the header; `StandardMIDIFile` is the Swift face of the file reader.
