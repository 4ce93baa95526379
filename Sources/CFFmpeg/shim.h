#ifndef MARBLE_CFFMPEG_SHIM_H
#define MARBLE_CFFMPEG_SHIM_H
// FFmpeg headers plus static inline wrappers for the macros Swift cannot import.
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/cpu.h>
#include <libavutil/channel_layout.h>
#include <libavutil/error.h>
#include <libavutil/tx.h>
#include <libavutil/mem.h>
#include <libavutil/pixdesc.h>
#include <libavutil/audio_fifo.h>
#include <libavutil/hash.h>
#include <libswscale/swscale.h>
#include <libswresample/swresample.h>

static inline int64_t marble_av_nopts_value(void) { return AV_NOPTS_VALUE; }
static inline int marble_averror_eof(void) { return AVERROR_EOF; }
static inline int marble_averror_eagain(void) { return AVERROR(EAGAIN); }

/// AVFrame.data / linesize import as 8-tuples; these return one plane.
static inline uint8_t *marble_frame_data(const AVFrame *f, int plane) { return f->data[plane]; }
static inline int marble_frame_linesize(const AVFrame *f, int plane) { return f->linesize[plane]; }
static inline uint8_t **marble_frame_data_array(AVFrame *f) { return f->data; }
static inline int *marble_frame_linesize_array(AVFrame *f) { return f->linesize; }
static inline const uint8_t **marble_frame_const_data(AVFrame *f) { return (const uint8_t **)f->data; }

static inline void marble_channel_layout_mono(AVChannelLayout *l) { AVChannelLayout m = AV_CHANNEL_LAYOUT_MONO; *l = m; }
static inline void marble_channel_layout_stereo(AVChannelLayout *l) { AVChannelLayout s = AV_CHANNEL_LAYOUT_STEREO; *l = s; }
#endif
