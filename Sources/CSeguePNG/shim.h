// libpng (Debian libpng-dev): Segue uses its simplified png_image API.
#include <png.h>
