/*
 * CoreFoundationLite.h — the CoreFoundation subset the Audio Unit API passes values in.
 *
 * On Apple's platforms names, presets and ClassInfo state travel as CFString, CFArray and
 * CFDictionary. On Linux the Swift toolchain ships the real CoreFoundation inside libFoundation
 * (swift-corelibs-foundation), but its own headers need clang with blocks and private headers.
 * This header declares, with CoreFoundation's exact signatures, the part hosting code uses; the
 * implementation is that real CoreFoundation (link -lFoundation; `pkg-config auhost` does). So
 * ownership rules, ClassInfo dictionaries and .aupreset property lists behave as documented, and
 * in Swift the objects are Foundation's (NSString, NSDictionary …, bridged in the AudioTypes module).
 *
 * Thread class: [setup] for every function here (they allocate or may lock).
 */
#ifndef AUHOST_COREFOUNDATIONLITE_H
#define AUHOST_COREFOUNDATIONLITE_H

#include <AudioToolbox/MacTypes.h>

/* As Apple's CoreFoundation.h: the C standard headers come along unless the includer defines
   CF_EXCLUDE_CSTD_HEADERS, since Apple's sample code calls malloc, printf and sinf with only
   <AudioToolbox/AudioToolbox.h> included. */
#if !defined(CF_EXCLUDE_CSTD_HEADERS)
#include <sys/types.h>
#include <stdarg.h>
#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <inttypes.h>
#endif

AUHOST_EXTERN_C_BEGIN

#if defined(__clang__)
#define AU_CF_IMPLICIT_BRIDGING_ENABLED _Pragma("clang arc_cf_code_audited begin")
#define AU_CF_IMPLICIT_BRIDGING_DISABLED _Pragma("clang arc_cf_code_audited end")
#else
#define AU_CF_IMPLICIT_BRIDGING_ENABLED
#define AU_CF_IMPLICIT_BRIDGING_DISABLED
#endif

typedef long CFIndex;
typedef const void *CFTypeRef;
typedef const struct __CFAllocator *CFAllocatorRef;
typedef const struct __CFString *CFStringRef;
typedef struct __CFString *CFMutableStringRef;
typedef const struct __CFData *CFDataRef;
typedef const struct __CFNumber *CFNumberRef;
typedef const struct __CFArray *CFArrayRef;
typedef struct __CFArray *CFMutableArrayRef;
typedef const struct __CFDictionary *CFDictionaryRef;
typedef struct __CFDictionary *CFMutableDictionaryRef;
typedef struct __CFError *CFErrorRef;
typedef CFTypeRef CFPropertyListRef;
typedef UInt32 CFStringEncoding;
typedef unsigned long CFTypeID;
typedef unsigned long CFOptionFlags;

/* Callback tables are opaque here: pass the addresses of the kCFType… constants, or NULL. */
typedef struct CFArrayCallBacks CFArrayCallBacks;
typedef struct CFDictionaryKeyCallBacks CFDictionaryKeyCallBacks;
typedef struct CFDictionaryValueCallBacks CFDictionaryValueCallBacks;
extern const CFArrayCallBacks kCFTypeArrayCallBacks;
extern const CFDictionaryKeyCallBacks kCFTypeDictionaryKeyCallBacks;
extern const CFDictionaryValueCallBacks kCFTypeDictionaryValueCallBacks;
extern const CFAllocatorRef kCFAllocatorDefault;

/* A Swift enum, as on Apple: CFStringBuiltInEncodings.UTF8.rawValue. */
typedef AU_NAMED_ENUM(CFStringEncoding, CFStringBuiltInEncodings) { kCFStringEncodingUTF8 = 0x08000100, kCFStringEncodingASCII = 0x0600 };

typedef AU_NAMED_ENUM(CFIndex, CFNumberType) {
    kCFNumberSInt32Type = 3,
    kCFNumberSInt64Type = 4,
    kCFNumberFloat32Type = 5,
    kCFNumberFloat64Type = 6,
    kCFNumberIntType = 9,
    kCFNumberDoubleType = 13
};

typedef AU_NAMED_ENUM(CFIndex, CFPropertyListFormat) {
    kCFPropertyListOpenStepFormat = 1,
    kCFPropertyListXMLFormat_v1_0 = 100,
    kCFPropertyListBinaryFormat_v1_0 = 200
};

AU_ENUM(CFOptionFlags) { kCFPropertyListImmutable = 0, kCFPropertyListMutableContainers = 1 };

CFTypeRef CFRetain(CFTypeRef cf);
void CFRelease(CFTypeRef cf);
CFTypeID CFGetTypeID(CFTypeRef cf);
void CFShow(CFTypeRef obj);
CFTypeID CFStringGetTypeID(void);
CFTypeID CFDataGetTypeID(void);
CFTypeID CFNumberGetTypeID(void);
CFTypeID CFArrayGetTypeID(void);
CFTypeID CFDictionaryGetTypeID(void);

/* Implicitly bridged, as Apple's CFString.h, CFData.h, CFNumber.h, CFArray.h, CFDictionary.h and
   CFURL.h are (CF_IMPLICIT_BRIDGING_ENABLED): Swift sees Create/Copy results as managed objects
   (`CFURLCreateFromFileSystemRepresentation(…)!` is a CFURL). CFPropertyList.h is not, on Apple
   either: its results stay Unmanaged. */
AU_CF_IMPLICIT_BRIDGING_ENABLED
CFStringRef CFStringCreateWithCString(CFAllocatorRef alloc, const char *cStr, CFStringEncoding encoding);
CFIndex CFStringGetLength(CFStringRef theString);
Boolean CFStringGetCString(CFStringRef theString, char *buffer, CFIndex bufferSize, CFStringEncoding encoding);
const char *CFStringGetCStringPtr(CFStringRef theString, CFStringEncoding encoding);
AU_CF_IMPLICIT_BRIDGING_DISABLED
/* CFSTR("literal"): a string that lives for the whole process, as on Apple's platforms. */
CFStringRef AUHostConstantString(const char *cStr);
#define CFSTR(cStr) AUHostConstantString("" cStr "")

AU_CF_IMPLICIT_BRIDGING_ENABLED
CFDataRef CFDataCreate(CFAllocatorRef allocator, const UInt8 *bytes, CFIndex length);
CFIndex CFDataGetLength(CFDataRef theData);
const UInt8 *CFDataGetBytePtr(CFDataRef theData);

CFNumberRef CFNumberCreate(CFAllocatorRef allocator, CFNumberType theType, const void *valuePtr);
Boolean CFNumberGetValue(CFNumberRef number, CFNumberType theType, void *valuePtr);

CFArrayRef CFArrayCreate(CFAllocatorRef allocator, const void **values, CFIndex numValues,
                         const CFArrayCallBacks *callBacks);
CFIndex CFArrayGetCount(CFArrayRef theArray);
const void *CFArrayGetValueAtIndex(CFArrayRef theArray, CFIndex idx);

CFIndex CFDictionaryGetCount(CFDictionaryRef theDict);
const void *CFDictionaryGetValue(CFDictionaryRef theDict, const void *key);
CFMutableDictionaryRef CFDictionaryCreateMutable(CFAllocatorRef allocator, CFIndex capacity,
                                                 const CFDictionaryKeyCallBacks *keyCallBacks,
                                                 const CFDictionaryValueCallBacks *valueCallBacks);
void CFDictionarySetValue(CFMutableDictionaryRef theDict, const void *key, const void *value);

AU_CF_IMPLICIT_BRIDGING_DISABLED

CFDataRef CFPropertyListCreateData(CFAllocatorRef allocator, CFPropertyListRef propertyList,
                                   CFPropertyListFormat format, CFOptionFlags options, CFErrorRef *error);
CFPropertyListRef CFPropertyListCreateWithData(CFAllocatorRef allocator, CFDataRef data, CFOptionFlags options,
                                               CFPropertyListFormat *format, CFErrorRef *error);

/* File URLs (CFURL.h): the real CoreFoundation functions, for ExtAudioFileOpenURL and friends. */
typedef const struct __CFURL *CFURLRef;
typedef AU_NAMED_ENUM(CFIndex, CFURLPathStyle) {
    kCFURLPOSIXPathStyle = 0,
    kCFURLHFSPathStyle = 1,
    kCFURLWindowsPathStyle = 2
};
AU_CF_IMPLICIT_BRIDGING_ENABLED
CFURLRef CFURLCreateFromFileSystemRepresentation(CFAllocatorRef allocator, const UInt8 *buffer, CFIndex bufLen,
                                                 Boolean isDirectory);
CFURLRef CFURLCreateWithFileSystemPath(CFAllocatorRef allocator, CFStringRef filePath, CFURLPathStyle pathStyle,
                                       Boolean isDirectory);
Boolean CFURLGetFileSystemRepresentation(CFURLRef url, Boolean resolveAgainstBase, UInt8 *buffer, CFIndex maxBufLen);
CFStringRef CFURLCopyFileSystemPath(CFURLRef anURL, CFURLPathStyle pathStyle);
AU_CF_IMPLICIT_BRIDGING_DISABLED

/* Byte order (CFByteOrder.h): AUHost runs on little-endian machines. */
static inline UInt32 CFSwapInt32HostToBig(UInt32 v) { return __builtin_bswap32(v); }
static inline UInt32 CFSwapInt32BigToHost(UInt32 v) { return __builtin_bswap32(v); }
static inline UInt16 CFSwapInt16HostToBig(UInt16 v) { return __builtin_bswap16(v); }
static inline UInt16 CFSwapInt16BigToHost(UInt16 v) { return __builtin_bswap16(v); }

AUHOST_EXTERN_C_END

#endif
