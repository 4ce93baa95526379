#ifndef MARBLE_CSDL2_SHIM_H
#define MARBLE_CSDL2_SHIM_H
// <SDL2/SDL.h> rather than <SDL.h> with -I/usr/include/SDL2 (what `pkg-config sdl2` says): SDL's headers
// include each other with quotes, so they are found next to SDL.h either way.
#include <SDL2/SDL.h>

// Macros Swift cannot import (function-like), as functions.

/// SDL_WINDOWPOS_CENTERED: centre the new window on the first display.
static inline int marble_sdl_windowpos_centered(void) { return SDL_WINDOWPOS_CENTERED; }
#endif
