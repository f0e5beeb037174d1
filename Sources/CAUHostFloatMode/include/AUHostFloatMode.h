#ifndef AUHOST_FLOAT_MODE_H
#define AUHOST_FLOAT_MODE_H

/* 1 when the calling thread computes subnormal results (IEEE), 0 when it flushes them to zero.
   [any thread] */
int auhost_float_mode_keeps_subnormals(void);

/* Flushes subnormals to zero on the calling thread (and the threads it starts afterwards, which
   inherit the mode), as audio hosts do for their render threads. [any thread] */
void auhost_float_mode_flush_subnormals(void);

/* The calling thread's flush-to-zero / denormals-are-zero bits, to put back with
   auhost_float_mode_restore after opening plug-in code: a library built with -ffast-math links
   crtfastmath.o, whose constructor sets both on the thread that dlopens it (Debian's caps and
   zam-plugins do), changing how every later computation on that thread rounds. [any thread] */
unsigned int auhost_float_mode_save(void);
void auhost_float_mode_restore(unsigned int saved);

#endif
