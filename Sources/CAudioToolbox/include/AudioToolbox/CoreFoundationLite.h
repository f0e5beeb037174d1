/*
 * CoreFoundationLite.h — CoreFoundation for C users of AUHost, the real one where the compiler can
 * read it and a declared subset of it where it cannot.
 *
 * On Apple's platforms names, presets and ClassInfo state travel as CFString, CFArray and
 * CFDictionary, file URLs as CFURL, and callbacks arrive on CFRunLoops. On Linux the Swift
 * toolchain ships the real CoreFoundation (swift-corelibs-foundation) inside libFoundation, with
 * its headers under <toolchain>/usr/lib/swift/CoreFoundation; `pkg-config auhost` links
 * libFoundation and puts that folder last on the include path (-idirafter). Which declarations
 * a program sees depends on its compiler:
 *   - clang with blocks (-fblocks), C or C++: the toolchain's own CoreFoundation.h, whole
 *     (its headers declare block parameters, which only clang with -fblocks parses);
 *   - gcc, and clang without -fblocks: the subset below, with CoreFoundation's exact C
 *     signatures and values (types, strings, data, numbers, arrays, dictionaries, property
 *     lists, file URLs, run loops with their sources and timers, byte order);
 *   - Swift (import AudioToolbox): the subset too, so that the CF types of AudioToolbox are one
 *     set (Foundation on Linux does not re-export its CoreFoundation); in Swift they are
 *     Foundation's objects (NSString, NSDictionary …, bridged in the AudioTypes module).
 * Either way the functions are the same ones in libFoundation, so ownership rules, run loops
 * and .aupreset property lists behave as documented. AUHOST_REAL_COREFOUNDATION says which
 * (1: the toolchain's headers). Define AUHOST_NO_REAL_COREFOUNDATION to keep the subset.
 *
 * Thread class: [setup] for every function here (they allocate or may lock), except
 * CFRunLoopStop, CFRunLoopWakeUp and CFRunLoopSourceSignal, which any thread but a render
 * thread may call (they take CoreFoundation's locks).
 */
#ifndef AUHOST_COREFOUNDATIONLITE_H
#define AUHOST_COREFOUNDATIONLITE_H

#include <AudioToolbox/MacTypes.h>

#if !defined(AUHOST_REAL_COREFOUNDATION)
#if defined(__clang__) && defined(__BLOCKS__) && !defined(__swift__) && !defined(AUHOST_NO_REAL_COREFOUNDATION) && \
    defined(__has_include_next)
#if __has_include_next(<CoreFoundation/CFRunLoop.h>)
#define AUHOST_REAL_COREFOUNDATION 1
#endif
#endif
#endif
#if !defined(AUHOST_REAL_COREFOUNDATION)
#define AUHOST_REAL_COREFOUNDATION 0
#endif

#if AUHOST_REAL_COREFOUNDATION
/* The toolchain's CoreFoundation.h (the next one on the include path after AUHost's own
   <CoreFoundation/CoreFoundation.h>, which brings this header). Its CFBase.h takes Boolean,
   UInt32 … from MacTypes.h above (__MACTYPES__). */
#include_next <CoreFoundation/CoreFoundation.h>
AUHOST_EXTERN_C_BEGIN
CFStringRef AUHostConstantString(const char *cStr);
AUHOST_EXTERN_C_END
#else

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
typedef unsigned long CFHashCode;
typedef double CFTimeInterval;
typedef CFTimeInterval CFAbsoluteTime;

/* As CFBase.h: the spellings Apple's listings pass as Boolean (C only: Swift writes true and
   false, and C libraries other modules import define these too). */
#if !defined(__swift__)
#if !defined(TRUE)
#define TRUE 1
#endif
#if !defined(FALSE)
#define FALSE 0
#endif
#endif

/* Callback tables are opaque here: pass the addresses of the kCFType… constants, or NULL. */
typedef struct CFArrayCallBacks CFArrayCallBacks;
typedef struct CFDictionaryKeyCallBacks CFDictionaryKeyCallBacks;
typedef struct CFDictionaryValueCallBacks CFDictionaryValueCallBacks;
extern const CFArrayCallBacks kCFTypeArrayCallBacks;
extern const CFDictionaryKeyCallBacks kCFTypeDictionaryKeyCallBacks;
extern const CFDictionaryValueCallBacks kCFTypeDictionaryValueCallBacks;
extern const CFAllocatorRef kCFAllocatorDefault;

/* A Swift enum, as on Apple: CFStringBuiltInEncodings.UTF8.rawValue. */
typedef AU_NAMED_ENUM(CFStringEncoding, CFStringBuiltInEncodings) {
    kCFStringEncodingMacRoman = 0,
    kCFStringEncodingWindowsLatin1 = 0x0500,
    kCFStringEncodingISOLatin1 = 0x0201,
    kCFStringEncodingNextStepLatin = 0x0B01,
    kCFStringEncodingASCII = 0x0600,
    kCFStringEncodingUnicode = 0x0100,
    kCFStringEncodingUTF8 = 0x08000100,
    kCFStringEncodingNonLossyASCII = 0x0BFF,
    kCFStringEncodingUTF16 = 0x0100,
    kCFStringEncodingUTF16BE = 0x10000100,
    kCFStringEncodingUTF16LE = 0x14000100,
    kCFStringEncodingUTF32 = 0x0c000100,
    kCFStringEncodingUTF32BE = 0x18000100,
    kCFStringEncodingUTF32LE = 0x1c000100
};

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
CFURLRef CFURLCreateWithString(CFAllocatorRef allocator, CFStringRef URLString, CFURLRef baseURL);
CFStringRef CFURLGetString(CFURLRef anURL);
CFStringRef CFURLCopyLastPathComponent(CFURLRef url);
CFStringRef CFURLCopyPathExtension(CFURLRef url);
AU_CF_IMPLICIT_BRIDGING_DISABLED

/* Time (CFDate.h): seconds since 2001-01-01 00:00:00 GMT. */
CFAbsoluteTime CFAbsoluteTimeGetCurrent(void);

/* Run loops (CFRunLoop.h), the real ones: a thread's loop runs sources and timers in a mode until
   stopped or timed out. Callbacks that Apple delivers on a run loop (Audio Queue callbacks,
   system-sound completions) arrive on the one passed in, while it runs in the given mode. */
typedef struct __CFRunLoop *CFRunLoopRef;
typedef struct __CFRunLoopSource *CFRunLoopSourceRef;
typedef struct __CFRunLoopTimer *CFRunLoopTimerRef;
typedef CFStringRef CFRunLoopMode;

typedef AU_NAMED_ENUM(SInt32, CFRunLoopRunResult) {
    kCFRunLoopRunFinished = 1,
    kCFRunLoopRunStopped = 2,
    kCFRunLoopRunTimedOut = 3,
    kCFRunLoopRunHandledSource = 4
};

/* A version-0 source: signalled (CFRunLoopSourceSignal, then CFRunLoopWakeUp) from any thread,
   it calls perform(info) on the run loop's thread. */
typedef struct {
    CFIndex version;
    void *info;
    const void *(*retain)(const void *info);
    void (*release)(const void *info);
    CFStringRef (*copyDescription)(const void *info);
    Boolean (*equal)(const void *info1, const void *info2);
    CFHashCode (*hash)(const void *info);
    void (*schedule)(void *info, CFRunLoopRef rl, CFRunLoopMode mode);
    void (*cancel)(void *info, CFRunLoopRef rl, CFRunLoopMode mode);
    void (*perform)(void *info);
} CFRunLoopSourceContext;

typedef struct {
    CFIndex version;
    void *info;
    const void *(*retain)(const void *info);
    void (*release)(const void *info);
    CFStringRef (*copyDescription)(const void *info);
} CFRunLoopTimerContext;
typedef void (*CFRunLoopTimerCallBack)(CFRunLoopTimerRef timer, void *info);

extern const CFRunLoopMode kCFRunLoopDefaultMode;
extern const CFRunLoopMode kCFRunLoopCommonModes;

AU_CF_IMPLICIT_BRIDGING_ENABLED
CFRunLoopRef CFRunLoopGetCurrent(void);
CFRunLoopRef CFRunLoopGetMain(void);
void CFRunLoopRun(void);
CFRunLoopRunResult CFRunLoopRunInMode(CFRunLoopMode mode, CFTimeInterval seconds, Boolean returnAfterSourceHandled);
Boolean CFRunLoopIsWaiting(CFRunLoopRef rl);
void CFRunLoopWakeUp(CFRunLoopRef rl);
void CFRunLoopStop(CFRunLoopRef rl);
CFRunLoopMode CFRunLoopCopyCurrentMode(CFRunLoopRef rl);
void CFRunLoopAddCommonMode(CFRunLoopRef rl, CFRunLoopMode mode);
Boolean CFRunLoopContainsSource(CFRunLoopRef rl, CFRunLoopSourceRef source, CFRunLoopMode mode);
void CFRunLoopAddSource(CFRunLoopRef rl, CFRunLoopSourceRef source, CFRunLoopMode mode);
void CFRunLoopRemoveSource(CFRunLoopRef rl, CFRunLoopSourceRef source, CFRunLoopMode mode);
Boolean CFRunLoopContainsTimer(CFRunLoopRef rl, CFRunLoopTimerRef timer, CFRunLoopMode mode);
void CFRunLoopAddTimer(CFRunLoopRef rl, CFRunLoopTimerRef timer, CFRunLoopMode mode);
void CFRunLoopRemoveTimer(CFRunLoopRef rl, CFRunLoopTimerRef timer, CFRunLoopMode mode);
CFRunLoopSourceRef CFRunLoopSourceCreate(CFAllocatorRef allocator, CFIndex order, CFRunLoopSourceContext *context);
void CFRunLoopSourceInvalidate(CFRunLoopSourceRef source);
Boolean CFRunLoopSourceIsValid(CFRunLoopSourceRef source);
void CFRunLoopSourceSignal(CFRunLoopSourceRef source);
CFRunLoopTimerRef CFRunLoopTimerCreate(CFAllocatorRef allocator, CFAbsoluteTime fireDate, CFTimeInterval interval,
                                       CFOptionFlags flags, CFIndex order, CFRunLoopTimerCallBack callout,
                                       CFRunLoopTimerContext *context);
void CFRunLoopTimerInvalidate(CFRunLoopTimerRef timer);
Boolean CFRunLoopTimerIsValid(CFRunLoopTimerRef timer);
AU_CF_IMPLICIT_BRIDGING_DISABLED

/* Byte order (CFByteOrder.h): AUHost runs on little-endian machines. */
static inline UInt32 CFSwapInt32HostToBig(UInt32 v) { return __builtin_bswap32(v); }
static inline UInt32 CFSwapInt32BigToHost(UInt32 v) { return __builtin_bswap32(v); }
static inline UInt16 CFSwapInt16HostToBig(UInt16 v) { return __builtin_bswap16(v); }
static inline UInt16 CFSwapInt16BigToHost(UInt16 v) { return __builtin_bswap16(v); }

AUHOST_EXTERN_C_END

#endif /* AUHOST_REAL_COREFOUNDATION */

#endif
