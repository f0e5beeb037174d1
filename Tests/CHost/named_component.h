/*
 * The first component whose name contains `wanted`, its name copied into `name` (`size` bytes),
 * or NULL: how check-c's C programs find the unit they drive. Thread class: setup.
 */
#ifndef AUHOST_TESTS_NAMED_COMPONENT_H
#define AUHOST_TESTS_NAMED_COMPONENT_H

#include <AudioToolbox/AudioToolbox.h>
#include <string.h>

static AudioComponent named_component(const char *wanted, char *name, size_t size) {
    AudioComponentDescription any = {0};
    AudioComponent component = NULL;
    while ((component = AudioComponentFindNext(component, &any))) {
        CFStringRef text = NULL;
        if (AudioComponentCopyName(component, &text) != noErr || !text) continue;
        Boolean converted = CFStringGetCString(text, name, (CFIndex)size, kCFStringEncodingUTF8);
        CFRelease(text);
        if (converted && strstr(name, wanted)) return component;
    }
    return NULL;
}

#endif
