// libpng (Debian libpng-dev): Segue uses its simplified png_image API, and for interlaced files
// the row API below (the simplified API of the Debian security update decodes interlaced 16-bit
// files wrongly). libpng reports errors by longjmp, which Swift cannot catch, so the row API is
// driven from this small C function that owns the setjmp.
#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

/// Reading state: the bytes, how far libpng has read, and the first error message.
typedef struct {
    const unsigned char *data;
    size_t size;
    size_t offset;
    char message[256];
} segue_png_reader;

static void segue_png_on_error(png_structp png, png_const_charp text) {
    segue_png_reader *reader = (segue_png_reader *)png_get_error_ptr(png);
    strncpy(reader->message, text ? text : "unknown error", sizeof(reader->message) - 1);
    reader->message[sizeof(reader->message) - 1] = 0;
    png_longjmp(png, 1);
}

static void segue_png_on_warning(png_structp png, png_const_charp text) {
    (void)png;
    (void)text;
}

static void segue_png_on_read(png_structp png, png_bytep out, size_t count) {
    segue_png_reader *reader = (segue_png_reader *)png_get_io_ptr(png);
    if (count > reader->size - reader->offset) png_error(png, "the file ends early");
    memcpy(out, reader->data + reader->offset, count);
    reader->offset += count;
}

/// Decodes a PNG of any colour type, bit depth and interlace to 8-bit straight RGBA rows in
/// `out` (width * height * 4 bytes; the header must name exactly `width` x `height`): palettes
/// and grey expanded, tRNS made alpha, 16-bit samples scaled (rounded) to 8 bits, opaque alpha
/// added. Colour-space chunks are not applied (samples are taken as sRGB-encoded).
/// Returns 0, or 1 with the reason in `message`.
static inline int segue_png_decode_rgba8(const unsigned char *data, size_t size, unsigned char *out,
                                         unsigned int width, unsigned int height,
                                         char *message, size_t message_size) {
    segue_png_reader reader;
    memset(&reader, 0, sizeof(reader));
    reader.data = data;
    reader.size = size;
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &reader, segue_png_on_error, segue_png_on_warning);
    if (!png) {
        strncpy(message, "out of memory", message_size - 1);
        return 1;
    }
    png_infop info = png_create_info_struct(png);
    png_bytep *volatile rows = NULL;
    if (!info || setjmp(png_jmpbuf(png))) {
        free(rows);
        png_destroy_read_struct(&png, info ? &info : NULL, NULL);
        strncpy(message, reader.message[0] ? reader.message : "out of memory", message_size - 1);
        message[message_size - 1] = 0;
        return 1;
    }
    png_set_read_fn(png, &reader, segue_png_on_read);
    png_read_info(png, info);
    if (png_get_image_width(png, info) != width || png_get_image_height(png, info) != height) {
        png_error(png, "the image size changed while reading");
    }
    int type = png_get_color_type(png, info);
    int depth = png_get_bit_depth(png, info);
    int transparency = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
    if (type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (type == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (transparency) png_set_tRNS_to_alpha(png);
    if (depth == 16) png_set_scale_16(png);
    if (type == PNG_COLOR_TYPE_GRAY || type == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
    if (!(type & PNG_COLOR_MASK_ALPHA) && !transparency) png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)width * 4) png_error(png, "unexpected row size after conversion");
    rows = (png_bytep *)malloc(sizeof(png_bytep) * (height ? height : 1));
    if (!rows) png_error(png, "out of memory");
    for (unsigned int y = 0; y < height; y++) rows[y] = out + (size_t)y * width * 4;
    png_read_image(png, rows);
    png_read_end(png, NULL);
    free(rows);
    png_destroy_read_struct(&png, &info, NULL);
    return 0;
}
