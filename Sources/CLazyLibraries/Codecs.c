/* The codecs behind Audio Converter and Audio File Stream Services, each opened with its first decoder. */

#include "AUHostLazyLibraries.h"
#include "LazyLibrary.h"

/* As CCodecs/shim.h includes them (the plain names, 64-bit off_t). */
#define MPG123_NO_LARGENAME 1
#include <mpg123.h>
#include <FLAC/stream_decoder.h>
#include <ogg/ogg.h>
#include <vorbis/codec.h>
#include <opus/opus.h>
#include <opus/opus_multistream.h>

#define MPG123_FUNCTIONS(F, V) \
    F(int, mpg123_close, (mpg123_handle *mh), (mh)) \
    F(int, mpg123_decode_frame, \
      (mpg123_handle *mh, off_t *num, unsigned char **audio, size_t *bytes), \
      (mh, num, audio, bytes)) \
    V(mpg123_delete, (mpg123_handle *mh), (mh)) \
    F(int, mpg123_feed, (mpg123_handle *mh, const unsigned char *in, size_t size), (mh, in, size)) \
    F(int, mpg123_format, \
      (mpg123_handle *mh, long rate, int channels, int encodings), \
      (mh, rate, channels, encodings)) \
    F(int, mpg123_format_none, (mpg123_handle *mh), (mh)) \
    F(int, mpg123_getformat, \
      (mpg123_handle *mh, long *rate, int *channels, int *encoding), \
      (mh, rate, channels, encoding)) \
    F(mpg123_handle *, mpg123_new, (const char *decoder, int *error), (decoder, error)) \
    F(int, mpg123_open_feed, (mpg123_handle *mh), (mh)) \
    F(int, mpg123_param2, \
      (mpg123_handle *mh, int type, long value, double fvalue), \
      (mh, type, value, fvalue)) \
    F(const char *, mpg123_plain_strerror, (int errcode), (errcode))

#define LAZY_CURRENT mpg123_library
LAZY_LIBRARY("libmpg123.so.0", LAZY_NONE, MPG123_FUNCTIONS)
#undef LAZY_CURRENT

#define FLAC_FUNCTIONS(F, V) \
    V(FLAC__stream_decoder_delete, (FLAC__StreamDecoder *decoder), (decoder)) \
    F(FLAC__bool, FLAC__stream_decoder_finish, (FLAC__StreamDecoder *decoder), (decoder)) \
    F(FLAC__bool, FLAC__stream_decoder_flush, (FLAC__StreamDecoder *decoder), (decoder)) \
    F(FLAC__StreamDecoderState, FLAC__stream_decoder_get_state, \
      (const FLAC__StreamDecoder *decoder), \
      (decoder)) \
    F(FLAC__StreamDecoderInitStatus, FLAC__stream_decoder_init_stream, \
      (FLAC__StreamDecoder *decoder, FLAC__StreamDecoderReadCallback read_callback, \
       FLAC__StreamDecoderSeekCallback seek_callback, FLAC__StreamDecoderTellCallback tell_callback, \
       FLAC__StreamDecoderLengthCallback length_callback, FLAC__StreamDecoderEofCallback eof_callback, \
       FLAC__StreamDecoderWriteCallback write_callback, \
       FLAC__StreamDecoderMetadataCallback metadata_callback, \
       FLAC__StreamDecoderErrorCallback error_callback, void *client_data), \
      (decoder, read_callback, seek_callback, tell_callback, length_callback, eof_callback, \
       write_callback, metadata_callback, error_callback, client_data)) \
    F(FLAC__StreamDecoder *, FLAC__stream_decoder_new, (void), ()) \
    F(FLAC__bool, FLAC__stream_decoder_process_single, (FLAC__StreamDecoder *decoder), (decoder)) \
    F(FLAC__bool, FLAC__stream_decoder_process_until_end_of_metadata, \
      (FLAC__StreamDecoder *decoder), \
      (decoder))

#define LAZY_CURRENT flac_library
LAZY_LIBRARY("libFLAC.so.12", LAZY_NONE, FLAC_FUNCTIONS)
#undef LAZY_CURRENT

#define OGG_FUNCTIONS(F, V) \
    F(int, ogg_page_bos, (const ogg_page *og), (og)) \
    F(int, ogg_page_serialno, (const ogg_page *og), (og)) \
    F(int, ogg_stream_clear, (ogg_stream_state *os), (os)) \
    F(int, ogg_stream_init, (ogg_stream_state *os, int serialno), (os, serialno)) \
    F(int, ogg_stream_packetout, (ogg_stream_state *os, ogg_packet *op), (os, op)) \
    F(int, ogg_stream_pagein, (ogg_stream_state *os, ogg_page *og), (os, og)) \
    F(int, ogg_stream_reset, (ogg_stream_state *os), (os)) \
    F(char *, ogg_sync_buffer, (ogg_sync_state *oy, long size), (oy, size)) \
    F(int, ogg_sync_clear, (ogg_sync_state *oy), (oy)) \
    F(int, ogg_sync_init, (ogg_sync_state *oy), (oy)) \
    F(long, ogg_sync_pageseek, (ogg_sync_state *oy, ogg_page *og), (oy, og)) \
    F(int, ogg_sync_reset, (ogg_sync_state *oy), (oy)) \
    F(int, ogg_sync_wrote, (ogg_sync_state *oy, long bytes), (oy, bytes))

#define LAZY_CURRENT ogg_library
LAZY_LIBRARY("libogg.so.0", LAZY_NONE, OGG_FUNCTIONS)
#undef LAZY_CURRENT

#define VORBIS_FUNCTIONS(F, V) \
    F(int, vorbis_block_clear, (vorbis_block *vb), (vb)) \
    F(int, vorbis_block_init, (vorbis_dsp_state *v, vorbis_block *vb), (v, vb)) \
    V(vorbis_comment_clear, (vorbis_comment *vc), (vc)) \
    V(vorbis_comment_init, (vorbis_comment *vc), (vc)) \
    V(vorbis_dsp_clear, (vorbis_dsp_state *v), (v)) \
    V(vorbis_info_clear, (vorbis_info *vi), (vi)) \
    V(vorbis_info_init, (vorbis_info *vi), (vi)) \
    F(long, vorbis_packet_blocksize, (vorbis_info *vi, ogg_packet *op), (vi, op)) \
    F(int, vorbis_synthesis, (vorbis_block *vb, ogg_packet *op), (vb, op)) \
    F(int, vorbis_synthesis_blockin, (vorbis_dsp_state *v, vorbis_block *vb), (v, vb)) \
    F(int, vorbis_synthesis_headerin, (vorbis_info *vi, vorbis_comment *vc, ogg_packet *op), (vi, vc, op)) \
    F(int, vorbis_synthesis_init, (vorbis_dsp_state *v, vorbis_info *vi), (v, vi)) \
    F(int, vorbis_synthesis_pcmout, (vorbis_dsp_state *v, float ***pcm), (v, pcm)) \
    F(int, vorbis_synthesis_read, (vorbis_dsp_state *v, int samples), (v, samples)) \
    F(int, vorbis_synthesis_restart, (vorbis_dsp_state *v), (v))

#define LAZY_CURRENT vorbis_library
LAZY_LIBRARY("libvorbis.so.0", LAZY_NONE, VORBIS_FUNCTIONS)
#undef LAZY_CURRENT

#define OPUS_FUNCTIONS(F, V) \
    F(int, opus_multistream_decode_float, \
      (OpusMSDecoder *st, const unsigned char *data, opus_int32 len, float *pcm, int frame_size, \
       int decode_fec), \
      (st, data, len, pcm, frame_size, decode_fec)) \
    F(OpusMSDecoder *, opus_multistream_decoder_create, \
      (opus_int32 Fs, int channels, int streams, int coupled_streams, const unsigned char *mapping, \
       int *error), \
      (Fs, channels, streams, coupled_streams, mapping, error)) \
    V(opus_multistream_decoder_destroy, (OpusMSDecoder *st), (st)) \
    F(int, opus_packet_get_nb_samples, \
      (const unsigned char *packet, opus_int32 len, opus_int32 Fs), \
      (packet, len, Fs)) \
    F(const char *, opus_strerror, (int error), (error))

#define LAZY_CURRENT opus_library
LAZY_LIBRARY("libopus.so.0", LAZY_NONE, OPUS_FUNCTIONS)
#undef LAZY_CURRENT

const char *auhost_mpg123_unavailable(void) { return lazy_library_unavailable(&mpg123_library); }
const char *auhost_flac_unavailable(void) { return lazy_library_unavailable(&flac_library); }
const char *auhost_ogg_unavailable(void) { return lazy_library_unavailable(&ogg_library); }
const char *auhost_vorbis_unavailable(void) { return lazy_library_unavailable(&vorbis_library); }
const char *auhost_opus_unavailable(void) { return lazy_library_unavailable(&opus_library); }
