/*
 * CoreFoundationLite.h — the few CoreFoundation types the Audio Unit API passes values in.
 *
 * On Apple's platforms names, presets and ClassInfo state travel as CFString, CFArray and
 * CFDictionary. Linux has no CoreFoundation, so AUHost implements the small subset hosting code
 * uses, with the documented names and ownership rules: "Copy"/"Create" results are released with
 * CFRelease; "Get" results are borrowed. ClassInfo is a CFDictionary with the documented keys, and
 * CFPropertyListCreateData / CFPropertyListCreateWithData read and write it as an XML property
 * list, the format of .aupreset files. In Swift, `String(cfString:)` and `CFString.make(_:)` in the
 * AudioTypes module bridge these values; see docs/PORTING.md.
 *
 * Thread class: [setup] for every function here (they allocate).
 */
#ifndef AUHOST_COREFOUNDATIONLITE_H
#define AUHOST_COREFOUNDATIONLITE_H

#include <AudioToolbox/MacTypes.h>

AUHOST_EXTERN_C_BEGIN

typedef long CFIndex;
typedef const void *CFTypeRef;
typedef const void *CFAllocatorRef;
typedef const struct __CFString *CFStringRef;
typedef const struct __CFData *CFDataRef;
typedef const struct __CFNumber *CFNumberRef;
typedef const struct __CFArray *CFArrayRef;
typedef const struct __CFDictionary *CFDictionaryRef;
typedef struct __CFDictionary *CFMutableDictionaryRef;
typedef const struct __CFError *CFErrorRef;
typedef CFTypeRef CFPropertyListRef;
typedef UInt32 CFStringEncoding;
typedef unsigned long CFTypeID;
typedef unsigned long CFOptionFlags;

#define kCFAllocatorDefault ((CFAllocatorRef)NULL)

AU_ENUM(CFStringEncoding) { kCFStringEncodingUTF8 = 0x08000100, kCFStringEncodingASCII = 0x0600 };

typedef AU_ENUM(CFIndex) {
    kCFNumberSInt32Type = 3,
    kCFNumberSInt64Type = 4,
    kCFNumberFloat32Type = 5,
    kCFNumberFloat64Type = 6
} CFNumberType;

typedef AU_ENUM(CFIndex) {
    kCFPropertyListOpenStepFormat = 1,
    kCFPropertyListXMLFormat_v1_0 = 100,
    kCFPropertyListBinaryFormat_v1_0 = 200
} CFPropertyListFormat;

AU_ENUM(CFOptionFlags) { kCFPropertyListImmutable = 0 };

CFTypeRef CFRetain(CFTypeRef cf);
void CFRelease(CFTypeRef cf);
CFIndex CFGetRetainCount(CFTypeRef cf);
CFTypeID CFGetTypeID(CFTypeRef cf);
CFTypeID CFStringGetTypeID(void);
CFTypeID CFDataGetTypeID(void);
CFTypeID CFNumberGetTypeID(void);
CFTypeID CFArrayGetTypeID(void);
CFTypeID CFDictionaryGetTypeID(void);

CFStringRef CFStringCreateWithCString(CFAllocatorRef alloc, const char *cStr, CFStringEncoding encoding);
CFIndex CFStringGetLength(CFStringRef string);
Boolean CFStringGetCString(CFStringRef string, char *buffer, CFIndex bufferSize, CFStringEncoding encoding);
const char *CFStringGetCStringPtr(CFStringRef string, CFStringEncoding encoding);
/* CFSTR("literal"): an immortal string, as on Apple's platforms (releasing it is harmless). */
CFStringRef __AUHostCFSTR(const char *cStr);
#define CFSTR(cStr) __AUHostCFSTR("" cStr "")

CFDataRef CFDataCreate(CFAllocatorRef alloc, const UInt8 *bytes, CFIndex length);
CFIndex CFDataGetLength(CFDataRef data);
const UInt8 *CFDataGetBytePtr(CFDataRef data);

CFNumberRef CFNumberCreate(CFAllocatorRef alloc, CFNumberType type, const void *valuePtr);
Boolean CFNumberGetValue(CFNumberRef number, CFNumberType type, void *valuePtr);

CFIndex CFArrayGetCount(CFArrayRef array);
const void *CFArrayGetValueAtIndex(CFArrayRef array, CFIndex index);

CFIndex CFDictionaryGetCount(CFDictionaryRef dict);
/* Keys are CFStrings (the only keys ClassInfo uses). Returns a borrowed value or NULL. */
const void *CFDictionaryGetValue(CFDictionaryRef dict, const void *key);
CFMutableDictionaryRef CFDictionaryCreateMutable(CFAllocatorRef alloc, CFIndex capacity,
                                                 const void *keyCallBacks, const void *valueCallBacks);
void CFDictionarySetValue(CFMutableDictionaryRef dict, const void *key, const void *value);

CFDataRef CFPropertyListCreateData(CFAllocatorRef alloc, CFPropertyListRef propertyList,
                                   CFPropertyListFormat format, CFOptionFlags options, CFErrorRef *error);
CFPropertyListRef CFPropertyListCreateWithData(CFAllocatorRef alloc, CFDataRef data, CFOptionFlags options,
                                               CFPropertyListFormat *format, CFErrorRef *error);

/* Accepted for source compatibility; AUHost dictionaries always retain CF keys and values. */
#define kCFTypeDictionaryKeyCallBacks (*(const char *)"")
#define kCFTypeDictionaryValueCallBacks (*(const char *)"")

AUHOST_EXTERN_C_END

#endif
