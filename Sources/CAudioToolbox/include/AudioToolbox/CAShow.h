/*
 * CAShow.h — print a human-readable description of a Core Audio object (a unit; a graph once the
 * graph API is present) to stdout or a FILE.
 */
#ifndef AUHOST_CASHOW_H
#define AUHOST_CASHOW_H

#include <AudioToolbox/AUComponent.h>

AUHOST_EXTERN_C_BEGIN
AU_ASSUME_NONNULL_BEGIN

/* [setup] Prints the object's description to stdout. */
void CAShow(void *inObject);
/* [setup] Prints the object's description to a file. */
void CAShowFile(void *inObject, FILE *inFile);

AU_ASSUME_NONNULL_END
AUHOST_EXTERN_C_END

#endif
