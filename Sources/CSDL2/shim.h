#ifndef MARBLE_CSDL2_SHIM_H
#define MARBLE_CSDL2_SHIM_H
// <SDL2/SDL.h> rather than <SDL.h> with -I/usr/include/SDL2 (what `pkg-config sdl2` says): SDL's headers
// include each other with quotes, so they are found next to SDL.h either way.
#include <SDL2/SDL.h>
#include <SDL2/SDL_syswm.h>

// Macros Swift cannot import (function-like), as functions.

/// SDL_WINDOWPOS_CENTERED: centre the new window on the first display.
static inline int marble_sdl_windowpos_centered(void) { return SDL_WINDOWPOS_CENTERED; }

/// The Xlib display SDL drew `window` on (`SDL_GetWindowWMInfo`), or NULL when it is not on X11
/// (Wayland, the offscreen driver) or SDL cannot say.
static inline Display *marble_sdl_x11_display(SDL_Window *window) {
    SDL_SysWMinfo info;
    SDL_VERSION(&info.version);
    if (!SDL_GetWindowWMInfo(window, &info) || info.subsystem != SDL_SYSWM_X11) return NULL;
    return info.info.x11.display;
}

/// Xlib ends the process (`exit(1)`) when its connection to the X server breaks: its fatal I/O error
/// handler (process-wide, `XSetIOErrorHandler`) exits, and so does the display's exit handler
/// (`XSetIOErrorExitHandler`, libX11 1.7 and later) that runs after it. Both are replaced for `display`
/// by handlers that return; Xlib then marks the display dead, the call in progress returns and later
/// calls on that display return at once. `lost` is called from the first handler (on the thread whose
/// call found the connection broken) and must return.
static inline void marble_x11_survive_lost_display(Display *display, int (*lost)(Display *),
                                                   void (*exit_handler)(Display *, void *)) {
    XSetIOErrorHandler(lost);
    XSetIOErrorExitHandler(display, exit_handler, NULL);
}
#endif
