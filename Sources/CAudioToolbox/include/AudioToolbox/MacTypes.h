/* MacTypes.h — the scalar types and status codes the Core Audio API is written in. */
#ifndef AUHOST_MACTYPES_H
#define AUHOST_MACTYPES_H
/* Apple's guard: CoreFoundation's CFBase.h (the toolchain's, included by
   <CoreFoundation/CoreFoundation.h> under clang -fblocks) then takes these types from here instead
   of declaring its own (its Linux Boolean is bool; Apple's, and this API's, is unsigned char). */
#define __MACTYPES__ 1

/* As Apple's CFBase.h: stdint and stdbool always (ported code writes `false` and `uint8_t` with
   only AudioToolbox.h included); the rest of the C library through CoreFoundationLite.h. */
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#if !defined(__cplusplus)
#include <stdbool.h>
#endif

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

/* Option sets, declared the way Apple's CF_OPTIONS does: clang (and so Swift) sees a flag enum
   with a fixed type, which Swift imports as an OptionSet (`timeStamp.mFlags = .sampleTimeValid`);
   C++ sees the integer typedef and fixed-type constants; other C compilers see the plain integer
   typedef. Same ABI. */
#if defined(__cplusplus)
#define AU_OPTIONS(type, name) type name; enum : type
#elif defined(__clang__)
/* The typedef of the fixed-type enum before its body is the CF_OPTIONS form Swift recognises. */
#pragma clang diagnostic ignored "-Welaborated-enum-base"
#define AU_OPTIONS(type, name) enum __attribute__((flag_enum, enum_extensibility(open))) name : type name; \
    enum __attribute__((flag_enum, enum_extensibility(open))) name : type
#else
#define AU_OPTIONS(type, name) type name; enum
#endif

/* Named enumerations, declared the way Apple's CF_ENUM does (typedef CF_ENUM(UInt32, Name)):
   clang (and so Swift) sees an open fixed-type enum, which Swift imports as a Swift enum
   (`eventType: .parameterEvent_Ramped`, as on Apple); other C compilers see the integer typedef. */
#if defined(__cplusplus)
#define AU_NAMED_ENUM(type, name) type name; enum : type
#elif defined(__clang__)
#define AU_NAMED_ENUM(type, name) enum __attribute__((enum_extensibility(open))) name : type name; \
    enum __attribute__((enum_extensibility(open))) name : type
#else
#define AU_NAMED_ENUM(type, name) type name; enum
#endif

/* Nullability as Apple annotates it: pointers in an assume-nonnull region are non-null unless
   marked _Nullable, so Swift imports Apple's shapes (a non-optional inRefCon, an optional ioData).
   Only clang knows these keywords; other compilers see plain pointers. */
#if defined(__clang__)
#define AU_ASSUME_NONNULL_BEGIN _Pragma("clang assume_nonnull begin")
#define AU_ASSUME_NONNULL_END _Pragma("clang assume_nonnull end")
#else
#define AU_ASSUME_NONNULL_BEGIN
#define AU_ASSUME_NONNULL_END
#define _Nullable
#define _Nonnull
#define _Null_unspecified
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
typedef FourCharCode ResType;

/* The rest of Apple's MacTypes.h that its C headers (CoreFoundation's among them) are written in.
   Apple's Duration, Point and Rect are left out: Swift code that imports AudioToolbox would see
   them beside Swift.Duration and its own geometry types. */
typedef UInt8    Byte;
typedef SInt8    SignedByte;
typedef SInt16   OSErr;
typedef UInt32   OptionBits;
typedef unsigned long ItemCount;
typedef unsigned long ByteCount;
typedef unsigned long ByteOffset;
typedef long     Size;
typedef char    *Ptr;
typedef Ptr     *Handle;
typedef UInt8   *BytePtr;
typedef void    *LogicalAddress;
typedef const void *ConstLogicalAddress;
typedef long (*ProcPtr)(void);
typedef SInt32   Fixed;
typedef Fixed   *FixedPtr;
typedef SInt32   Fract;
typedef UInt32   UnsignedFixed;
typedef SInt16   ShortFixed;
typedef SInt16   ScriptCode;
typedef SInt16   LangCode;
typedef SInt16   RegionCode;
typedef UInt16   UniChar;
typedef UniChar *UniCharPtr;
typedef unsigned long UniCharCount;
typedef UniCharCount *UniCharCountPtr;
typedef UInt32   UTF32Char;
typedef UInt16   UTF16Char;
typedef UInt8    UTF8Char;
typedef unsigned char Str255[256];
typedef unsigned char Str63[64];
typedef unsigned char Str32[33];
typedef unsigned char Str31[32];
typedef unsigned char Str27[28];
typedef unsigned char Str15[16];
typedef unsigned char *StringPtr;
typedef StringPtr *StringHandle;
typedef const unsigned char *ConstStringPtr;
typedef const unsigned char *ConstStr255Param;
typedef const unsigned char *ConstStr63Param;
typedef const unsigned char *ConstStr31Param;
/* Big-endian field order on Apple's PowerPC past; little-endian here, as Apple's x86/arm64. */
typedef struct wide { UInt32 lo; SInt32 hi; } wide;
typedef struct UnsignedWide { UInt32 lo; UInt32 hi; } UnsignedWide;
typedef UnsignedWide AbsoluteTime;
typedef struct NumVersion { UInt8 nonRelRev; UInt8 stage; UInt8 minorAndBugRev; UInt8 majorRev; } NumVersion;
typedef struct Float32Point { Float32 x; Float32 y; } Float32Point;
typedef SInt32   TimeValue;
typedef SInt32   TimeScale;
typedef SInt64   TimeValue64;

AU_ENUM(OSStatus) {
    noErr = 0,
    /* A handle that is NULL where one is required, or that names no live instance. */
    badComponentInstance = (OSStatus)0x80008001,
    /* The unit does not implement the requested selector. */
    badComponentSelector = (OSStatus)0x80008002
};

#endif
