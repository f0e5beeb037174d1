#include "AUHostHooks.h"

/* Weak: a program that links only the core has no providers, and that is not an error. */
extern void AUHostInstallDefaultProviders(void) __attribute__((weak));

int AUHostCallInstallDefaultProviders(void) {
    if (!AUHostInstallDefaultProviders) return 0;
    AUHostInstallDefaultProviders();
    return 1;
}

/* Weak: libauhost has Core MIDI without JACK (it links no libjack); the CoreMIDI product adds it. */
extern void AUHostCoreMIDIInstallJACKBackend(void) __attribute__((weak));

int AUHostCoreMIDICallInstallBackends(void) {
    if (!AUHostCoreMIDIInstallJACKBackend) return 0;
    AUHostCoreMIDIInstallJACKBackend();
    return 1;
}
