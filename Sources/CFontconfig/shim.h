#ifndef MARBLE_CFONTCONFIG_SHIM_H
#define MARBLE_CFONTCONFIG_SHIM_H
// Fontconfig: finds installed font files by family name, sorted for fallback.
#include <fontconfig/fontconfig.h>

/// The FC_* property names are string macros; Swift imports them, but these keep call sites typed.
static inline const char *marble_fc_file(void) { return FC_FILE; }
static inline const char *marble_fc_index(void) { return FC_INDEX; }
static inline const char *marble_fc_family(void) { return FC_FAMILY; }
static inline const char *marble_fc_charset(void) { return FC_CHARSET; }
static inline const char *marble_fc_scalable(void) { return FC_SCALABLE; }
static inline const char *marble_fc_color(void) { return FC_COLOR; }
#endif
