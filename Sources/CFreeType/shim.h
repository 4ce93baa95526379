#ifndef MARBLE_CFREETYPE_SHIM_H
#define MARBLE_CFREETYPE_SHIM_H
// FreeType: opens font files, scales outlines and rasterises glyphs to grayscale coverage.
#include <ft2build.h>
#include FT_FREETYPE_H

/// FT_LOAD_* and FT_RENDER_MODE_* are macros or enums Swift sees awkwardly; these return them as ints.
static inline int marble_ft_load_flags(void) { return FT_LOAD_DEFAULT | FT_LOAD_NO_BITMAP | FT_LOAD_TARGET_LIGHT; }
static inline FT_Render_Mode marble_ft_render_gray(void) { return FT_RENDER_MODE_LIGHT; }
/// Colour fonts (emoji): bitmaps allowed (CBDT strikes), colour layers loaded as BGRA.
static inline int marble_ft_load_color_flags(void) { return FT_LOAD_DEFAULT | FT_LOAD_COLOR; }
#endif
