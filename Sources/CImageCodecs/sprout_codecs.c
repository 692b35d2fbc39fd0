// See include/sprout_codecs.h. Follows the pattern of libjpeg's example.c: the error manager longjmps back
// to the setjmp in the calling function, which destroys the libjpeg object and returns 0.
#include "sprout_codecs.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>

typedef struct sprout_error {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
    char *message;
    /// Set when decoding stopped at a work limit, so the caller can tell it from bad data.
    int too_costly;
} sprout_error;

static void sprout_fail(j_common_ptr cinfo, const char *text) {
    sprout_error *err = (sprout_error *)cinfo->err;
    snprintf(err->message, SPROUT_CODEC_MESSAGE_CAPACITY, "%s", text);
    longjmp(err->jump, 1);
}

static void sprout_error_exit(j_common_ptr cinfo) {
    char text[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, text);
    sprout_fail(cinfo, text);
}

// libjpeg calls this with msg_level -1 for warnings, which it raises on corrupt data and then carries on
// (a truncated file is padded with gray). Treat every warning as an error; drop trace messages.
static void sprout_emit_message(j_common_ptr cinfo, int msg_level) {
    if (msg_level < 0) {
        sprout_error_exit(cinfo);
    }
}

// Never print to stderr.
static void sprout_output_message(j_common_ptr cinfo) {
    (void)cinfo;
}

static struct jpeg_error_mgr *sprout_error_manager(sprout_error *err, char *message) {
    jpeg_std_error(&err->pub);
    err->pub.error_exit = sprout_error_exit;
    err->pub.emit_message = sprout_emit_message;
    err->pub.output_message = sprout_output_message;
    err->message = message;
    err->too_costly = 0;
    message[0] = '\0';
    return &err->pub;
}

// A progressive file may hold any number of scans, each costing a pass over the image: cap them, and cap the
// work they add up to (pixels × scans), so a large progressive image cannot use its allowance of scans either.
static void sprout_progress_monitor(j_common_ptr cinfo) {
    if (!cinfo->is_decompressor) {
        return;
    }
    j_decompress_ptr decompress = (j_decompress_ptr)cinfo;
    long long scans = decompress->input_scan_number;
    long long pixels = (long long)decompress->image_width * (long long)decompress->image_height;
    const char *limit = scans > SPROUT_JPEG_MAX_SCANS ? "too many progressive scans"
        : decompress->progressive_mode && scans * pixels > SPROUT_JPEG_MAX_SCAN_PIXELS ? "progressive scans too costly to decode"
        : NULL;
    if (limit != NULL) {
        ((sprout_error *)cinfo->err)->too_costly = 1;
        sprout_fail(cinfo, limit);
    }
}

static int sprout_output_components(J_COLOR_SPACE space) {
    switch (space) {
    case JCS_GRAYSCALE:
        return 1;
    case JCS_YCbCr:
    case JCS_RGB:
        return 3;
    default:
        return 0;
    }
}

int sprout_jpeg_read_header(const unsigned char *data, size_t size, sprout_jpeg_header *header,
                            unsigned char *exif, char *message) {
    struct jpeg_decompress_struct cinfo;
    sprout_error err;
    cinfo.err = sprout_error_manager(&err, message);
    if (setjmp(err.jump)) {
        jpeg_destroy_decompress(&cinfo);
        return 0;
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, data, (unsigned long)size);
    jpeg_save_markers(&cinfo, JPEG_APP0 + 1, 0xFFFF);
    jpeg_read_header(&cinfo, TRUE);

    header->width = (int)cinfo.image_width;
    header->height = (int)cinfo.image_height;
    header->color_space = (int)cinfo.jpeg_color_space;
    header->progressive = cinfo.progressive_mode ? 1 : 0;
    header->output_components = sprout_output_components(cinfo.jpeg_color_space);
    header->exif_length = 0;
    for (jpeg_saved_marker_ptr marker = cinfo.marker_list; marker != NULL; marker = marker->next) {
        if (marker->marker == JPEG_APP0 + 1 && marker->data_length >= 6 && marker->data_length <= SPROUT_JPEG_EXIF_CAPACITY
            && memcmp(marker->data, "Exif\0\0", 6) == 0) {
            memcpy(exif, marker->data, marker->data_length);
            header->exif_length = marker->data_length;
            break;
        }
    }
    jpeg_destroy_decompress(&cinfo);
    return 1;
}

int sprout_jpeg_decode(const unsigned char *data, size_t size, int scale_denom,
                       unsigned char *pixels, size_t capacity,
                       int *width, int *height, int *components, char *message) {
    struct jpeg_decompress_struct cinfo;
    struct jpeg_progress_mgr progress;
    sprout_error err;
    cinfo.err = sprout_error_manager(&err, message);
    if (setjmp(err.jump)) {
        jpeg_destroy_decompress(&cinfo);
        // Read through volatile: it was written after setjmp, by the progress monitor, before the longjmp.
        return ((volatile sprout_error *)&err)->too_costly ? SPROUT_CODEC_TOO_COSTLY : 0;
    }
    jpeg_create_decompress(&cinfo);
    memset(&progress, 0, sizeof progress);
    progress.progress_monitor = sprout_progress_monitor;
    cinfo.progress = &progress;
    jpeg_mem_src(&cinfo, data, (unsigned long)size);
    jpeg_read_header(&cinfo, TRUE);

    int out_components = sprout_output_components(cinfo.jpeg_color_space);
    if (out_components == 0) {
        sprout_fail((j_common_ptr)&cinfo, "unsupported colour space");
    }
    if (scale_denom != 1 && scale_denom != 2 && scale_denom != 4 && scale_denom != 8) {
        sprout_fail((j_common_ptr)&cinfo, "unsupported scale");
    }
    cinfo.out_color_space = out_components == 1 ? JCS_GRAYSCALE : JCS_RGB;
    cinfo.scale_num = 1;
    cinfo.scale_denom = (unsigned int)scale_denom;
    jpeg_calc_output_dimensions(&cinfo);
    size_t row_bytes = (size_t)cinfo.output_width * (size_t)cinfo.output_components;
    if (cinfo.output_components != out_components || cinfo.output_height == 0
        || row_bytes > capacity / cinfo.output_height) {
        sprout_fail((j_common_ptr)&cinfo, "decoded image does not fit the buffer");
    }

    jpeg_start_decompress(&cinfo);
    while (cinfo.output_scanline < cinfo.output_height) {
        JSAMPROW rows[16];
        JDIMENSION count = cinfo.output_height - cinfo.output_scanline;
        if (count > 16) {
            count = 16;
        }
        for (JDIMENSION i = 0; i < count; i++) {
            rows[i] = pixels + (size_t)(cinfo.output_scanline + i) * row_bytes;
        }
        if (jpeg_read_scanlines(&cinfo, rows, count) == 0) {
            sprout_fail((j_common_ptr)&cinfo, "no progress decoding scanlines");
        }
    }
    jpeg_finish_decompress(&cinfo);

    *width = (int)cinfo.output_width;
    *height = (int)cinfo.output_height;
    *components = cinfo.output_components;
    jpeg_destroy_decompress(&cinfo);
    return 1;
}

typedef struct sprout_destination {
    unsigned char *buffer;
    unsigned long length;
} sprout_destination;

int sprout_jpeg_encode(const unsigned char *pixels, int width, int height, int components, int quality,
                       unsigned char **output, size_t *output_size, char *message) {
    struct jpeg_compress_struct cinfo;
    sprout_error err;
    sprout_destination destination = { NULL, 0 };
    cinfo.err = sprout_error_manager(&err, message);
    if (setjmp(err.jump)) {
        jpeg_destroy_compress(&cinfo);
        free(destination.buffer);
        return 0;
    }
    jpeg_create_compress(&cinfo);
    if (width <= 0 || height <= 0 || (components != 1 && components != 3)) {
        sprout_fail((j_common_ptr)&cinfo, "bad image for encoding");
    }
    jpeg_mem_dest(&cinfo, &destination.buffer, &destination.length);
    cinfo.image_width = (JDIMENSION)width;
    cinfo.image_height = (JDIMENSION)height;
    cinfo.input_components = components;
    cinfo.in_color_space = components == 1 ? JCS_GRAYSCALE : JCS_RGB;
    jpeg_set_defaults(&cinfo);
    jpeg_set_quality(&cinfo, quality, TRUE);
    cinfo.optimize_coding = TRUE;
    jpeg_start_compress(&cinfo, TRUE);
    size_t row_bytes = (size_t)width * (size_t)components;
    while (cinfo.next_scanline < cinfo.image_height) {
        JSAMPROW row = (JSAMPROW)(pixels + (size_t)cinfo.next_scanline * row_bytes);
        jpeg_write_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    *output = destination.buffer;
    *output_size = (size_t)destination.length;
    return 1;
}

void sprout_jpeg_free(unsigned char *buffer) {
    free(buffer);
}
