/*
 * AudioToolbox.h — AUHost's implementation of the documented Core Audio hosting API.
 *
 * Include this one header (C: #include <AudioToolbox/AudioToolbox.h>; Swift: import AudioToolbox).
 * Names, signatures and numbers follow Apple's documentation so that code written from it
 * compiles here. Every function states its thread class:
 *   [any thread]    may be called from any thread, including the render thread;
 *   [setup]         non-real-time: may allocate, lock and wait; never call it from a render callback;
 *   [render]        the render thread: allocates nothing, takes no lock, never waits.
 */
#ifndef AUHOST_AUDIOTOOLBOX_H
#define AUHOST_AUDIOTOOLBOX_H

#include <AudioToolbox/MacTypes.h>
#include <AudioToolbox/CoreFoundationLite.h>
#include <AudioToolbox/CoreAudioTypes.h>
#include <AudioToolbox/HostTime.h>
#include <AudioToolbox/AudioComponent.h>
#include <AudioToolbox/AUComponent.h>
#include <AudioToolbox/AudioUnitProperties.h>
#include <AudioToolbox/AudioUnitParameters.h>
#include <AudioToolbox/AudioOutputUnit.h>
#include <AudioToolbox/AUHostALSA.h>
#include <AudioToolbox/AUHostJACK.h>
#include <AudioToolbox/MusicDevice.h>
#include <AudioToolbox/AUGraph.h>
#include <AudioToolbox/CAShow.h>
#include <AudioToolbox/AudioFile.h>
#include <AudioToolbox/AudioQueue.h>
#include <AudioToolbox/ExtendedAudioFile.h>
#include <AudioToolbox/AudioUnitFilePlayer.h>
#include <AudioToolbox/MusicPlayer.h>
#include <AudioToolbox/AudioConverter.h>
#include <AudioToolbox/AudioFileStream.h>
#include <AudioToolbox/AudioServices.h>
#include <AudioToolbox/AudioFormat.h>
#include <AudioToolbox/AudioSession.h>
#include <AudioToolbox/AUHostIsolation.h>
#include <AudioToolbox/AUHostDSSI.h>
#include <AudioToolbox/AUHostLV2.h>
#include <AudioToolbox/AUHostLV2UI.h>
#include <AudioToolbox/AUHostMIDI.h>
#include <AudioToolbox/AUHostTime.h>

#endif
