/*
 * Positional playback with OpenAL, as "Core Audio Essentials" describes it ("Playback with
 * positioning using OpenAL"): a mono sound placed in the listener's space comes out of the side it
 * is on. Written as on a Mac (<OpenAL/al.h>, <OpenAL/alc.h>); on Linux it builds against OpenAL
 * Soft. Usage: openal-positional X — plays half a second of a 440 Hz tone at (X, 0, 0) to the
 * default device (the listener is at the origin facing -Z, so X < 0 is to the left) and waits
 * until the source stops.
 */
#define _POSIX_C_SOURCE 200809L /* nanosleep under -std=c17 */
#include <OpenAL/al.h>
#include <OpenAL/alc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define RATE 48000
#define FRAMES (RATE / 2)

int main(int argc, char **argv) {
    float x = argc > 1 ? strtof(argv[1], NULL) : -1.0f;
    ALCdevice *device = alcOpenDevice(NULL);
    if (!device) { fprintf(stderr, "alcOpenDevice failed\n"); return 1; }
    ALCcontext *context = alcCreateContext(device, NULL);
    if (!context || !alcMakeContextCurrent(context)) { fprintf(stderr, "no OpenAL context\n"); return 1; }

    static short samples[FRAMES];
    for (int i = 0; i < FRAMES; i++) samples[i] = (short)(16000 * sin(2 * 3.14159265358979 * 440 * i / RATE));
    ALuint buffer, source;
    alGenBuffers(1, &buffer);
    alBufferData(buffer, AL_FORMAT_MONO16, samples, sizeof samples, RATE);
    alGenSources(1, &source);
    alSourcei(source, AL_BUFFER, (ALint)buffer);
    alListener3f(AL_POSITION, 0, 0, 0);
    alSource3f(source, AL_POSITION, x, 0, 0);
    alSourcePlay(source);
    ALint state = AL_PLAYING;
    for (int waited = 0; state == AL_PLAYING && waited < 5000; waited += 10) {
        nanosleep(&(struct timespec){.tv_nsec = 10000000}, NULL);
        alGetSourcei(source, AL_SOURCE_STATE, &state);
    }
    ALenum error = alGetError();
    printf("source-x %.2f\nstopped %d\nal-error %d\nrenderer %s\n", x, state == AL_STOPPED, (int)error, alGetString(AL_RENDERER));

    alDeleteSources(1, &source);
    alDeleteBuffers(1, &buffer);
    alcMakeContextCurrent(NULL);
    alcDestroyContext(context);
    alcCloseDevice(device);
    return state == AL_STOPPED && error == AL_NO_ERROR ? 0 : 1;
}
