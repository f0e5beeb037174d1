/* The codec libraries Audio Converter Services decodes with (one system-library target for all:
   Debian's libmpg123-dev, libflac-dev, libvorbis-dev, libogg-dev, libopus-dev). */
/* The plain names (64-bit off_t on the 64-bit targets AUHost builds for). */
#define MPG123_NO_LARGENAME 1
#include <mpg123.h>
#include <FLAC/stream_decoder.h>
#include <ogg/ogg.h>
#include <vorbis/codec.h>
#include <opus/opus.h>
#include <opus/opus_multistream.h>
