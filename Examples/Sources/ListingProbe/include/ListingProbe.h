/* ListingProbe: counts what a listing run exactly as written calls, without changing its code. The
 * listing is linked with -Wl,--wrap=AudioServicesDisposeSystemSoundID,--wrap=CFRunLoopStop, so its
 * calls reach the __wrap_ functions here, which count and forward; at exit the counts are printed
 * ("dispose-calls N", "run-loop-stops N") for examples-check. */
#ifndef LISTING_PROBE_H
#define LISTING_PROBE_H
#endif
