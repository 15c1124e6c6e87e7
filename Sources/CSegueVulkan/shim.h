// The only C headers Segue's Vulkan layer sees: the Vulkan API (Debian libvulkan-dev) and
// shaderc's C API (Debian libshaderc-dev), linked statically per shared/ENVIRONMENT.md.
#include <vulkan/vulkan.h>
#include <shaderc/shaderc.h>
