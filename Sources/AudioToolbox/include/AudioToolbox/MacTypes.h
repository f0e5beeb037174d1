/* MacTypes.h — the scalar types and status codes the Core Audio API is written in. */
#ifndef AUHOST_MACTYPES_H
#define AUHOST_MACTYPES_H

#include <stdint.h>
#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
#define AUHOST_EXTERN_C_BEGIN extern "C" {
#define AUHOST_EXTERN_C_END }
#else
#define AUHOST_EXTERN_C_BEGIN
#define AUHOST_EXTERN_C_END
#endif

/* Four-char literals ('aufx') are the documented spelling of types and codes. */
#pragma GCC diagnostic ignored "-Wmultichar"
#ifdef __clang__
#pragma clang diagnostic ignored "-Wfour-char-constants"
#endif

/* An enum with a fixed underlying type where the compiler has them (clang, C23, C++), so that
   Swift imports each constant with the documented type; a plain enum elsewhere (gcc's C17). */
#if defined(__clang__) || defined(__cplusplus) || (defined(__STDC_VERSION__) && __STDC_VERSION__ > 201710L)
#define AU_ENUM(type) enum : type
#else
#define AU_ENUM(type) enum
#endif

typedef uint8_t  UInt8;
typedef int8_t   SInt8;
typedef uint16_t UInt16;
typedef int16_t  SInt16;
typedef uint32_t UInt32;
typedef int32_t  SInt32;
typedef uint64_t UInt64;
typedef int64_t  SInt64;
typedef float    Float32;
typedef double   Float64;
typedef unsigned char Boolean;
typedef SInt32   OSStatus;
typedef UInt32   FourCharCode;
typedef FourCharCode OSType;

AU_ENUM(OSStatus) {
    noErr = 0,
    /* A handle that is NULL where one is required, or that names no live instance. */
    badComponentInstance = (OSStatus)0x80008001,
    /* The unit does not implement the requested selector. */
    badComponentSelector = (OSStatus)0x80008002
};

#endif
