#ifndef MARBLE_CHARFBUZZ_SHIM_H
#define MARBLE_CHARFBUZZ_SHIM_H
// HarfBuzz: turns a run of characters into positioned glyphs (kerning, ligatures, Arabic joining),
// reading the font through FreeType (hb-ft).
#include <hb.h>
#include <hb-ft.h>
#endif
