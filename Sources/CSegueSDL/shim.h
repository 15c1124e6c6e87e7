// SDL2 (Debian package libsdl2-dev): windows, input events and Vulkan surfaces.
#include <SDL2/SDL.h>
#include <SDL2/SDL_vulkan.h>
