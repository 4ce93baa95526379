#ifndef MARBLE_CFRIBIDI_SHIM_H
#define MARBLE_CFRIBIDI_SHIM_H
// GNU FriBidi: the Unicode bidirectional algorithm (embedding levels of mixed left-to-right and
// right-to-left text, and the visual order of its runs).
#include <fribidi.h>

static inline FriBidiParType marble_fribidi_par_on(void) { return FRIBIDI_PAR_ON; }
static inline FriBidiParType marble_fribidi_par_ltr(void) { return FRIBIDI_PAR_LTR; }
static inline FriBidiParType marble_fribidi_par_rtl(void) { return FRIBIDI_PAR_RTL; }
#endif
