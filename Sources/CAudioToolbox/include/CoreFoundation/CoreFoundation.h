/*
 * CoreFoundation/CoreFoundation.h — the header Apple's listings include, as on Apple's platforms.
 *
 * It brings AudioToolbox/CoreFoundationLite.h, which picks the toolchain's real CoreFoundation.h
 * under clang with -fblocks and a declared subset of it elsewhere (gcc, clang without blocks,
 * Swift); both are the CoreFoundation in libFoundation (`pkg-config auhost` links it).
 */
#ifndef AUHOST_COREFOUNDATION_H
#define AUHOST_COREFOUNDATION_H

#include <AudioToolbox/CoreFoundationLite.h>

#endif
