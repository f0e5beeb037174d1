/* Late binding from the host core to the composition layer above it, without importing it. */
#ifndef AUHOST_HOOKS_H
#define AUHOST_HOOKS_H

/* Calls AUHostInstallDefaultProviders (defined by the AUHost module) when this program or library
   links it; does nothing otherwise. Returns whether it was linked. Thread class: setup. */
int AUHostCallInstallDefaultProviders(void);

/* Calls AUHostCoreMIDIInstallJACKBackend (defined by the CoreMIDIJACK module) when this program
   links it: Core MIDI then reaches JACK MIDI. Returns whether it was linked. Thread class: setup. */
int AUHostCoreMIDICallInstallBackends(void);

#endif
