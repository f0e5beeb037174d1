#include "AUHostHooks.h"

/* Weak: a program that links only the core has no providers, and that is not an error. */
extern void AUHostInstallDefaultProviders(void) __attribute__((weak));

int AUHostCallInstallDefaultProviders(void) {
    if (!AUHostInstallDefaultProviders) return 0;
    AUHostInstallDefaultProviders();
    return 1;
}
