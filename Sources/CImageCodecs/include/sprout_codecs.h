// The setjmp-guarded libjpeg calls of SproutImaging.
//
// libjpeg reports fatal errors by longjmp, which Swift cannot survive, so every libjpeg call lives here
// behind a setjmp. Each function is self-contained (one libjpeg object, created and destroyed inside the
// call), keeps no global state and is safe to call from several threads at once.
//
// Every function returns 1 on success and 0 on failure (sprout_jpeg_decode also SPROUT_CODEC_TOO_COSTLY); on failure `message` (which must hold at least
// SPROUT_CODEC_MESSAGE_CAPACITY bytes) receives a NUL-terminated description. libjpeg's corrupt-data
// warnings (a truncated file, a bad Huffman code, extraneous bytes...) count as failures too.
#ifndef SPROUT_CODECS_H
#define SPROUT_CODECS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Room for a libjpeg message (JMSG_LENGTH_MAX).
#define SPROUT_CODEC_MESSAGE_CAPACITY 200

/// Room for the largest possible APP1 payload (a marker segment is at most 65,533 bytes).
#define SPROUT_JPEG_EXIF_CAPACITY 65536

/// Progressive JPEGs with more scans than this are refused: each scan is a pass over every block of the image,
/// however little data it carries (libjpeg's own progressive script writes 10; 500 empty scans over 40
/// megapixels cost 6-7 s even at scale 1/8).
#define SPROUT_JPEG_MAX_SCANS 100

/// And a progressive JPEG may not cost more than this many pixel-scans (pixels × scans read so far): 30 scans of
/// a 12-megapixel image. Baseline JPEGs have one scan per component and are not limited by this.
#define SPROUT_JPEG_MAX_SCAN_PIXELS 360000000LL

/// What sprout_jpeg_decode returns when it stopped at one of the two limits above, rather than at bad data.
#define SPROUT_CODEC_TOO_COSTLY 2

typedef struct sprout_jpeg_header {
    /// Stored size from the SOF marker (before any EXIF orientation).
    int width;
    int height;
    /// 1 (gray) or 3 (RGB) for what sprout_jpeg_decode produces; 0 for colour spaces it refuses (CMYK, YCCK, other).
    int output_components;
    /// libjpeg's J_COLOR_SPACE of the file, for messages.
    int color_space;
    /// 1 for a progressive JPEG (SOF2), 0 for a sequential one.
    int progressive;
    /// Length of the first APP1 "Exif\0\0" payload copied into `exif` (the whole payload, prefix included); 0 if none.
    size_t exif_length;
} sprout_jpeg_header;

/// Reads the markers up to the first scan only: no pixel memory is allocated and no image data decoded.
/// `exif` must hold SPROUT_JPEG_EXIF_CAPACITY bytes.
int sprout_jpeg_read_header(const unsigned char *data, size_t size, sprout_jpeg_header *header,
                            unsigned char *exif, char *message);

/// Decodes the whole image scaled by 1/`scale_denom` (1, 2, 4 or 8, done in the DCT) into `pixels` as rows of
/// gray or RGB bytes, without padding. Fails when the scaled image needs more than `capacity` bytes.
/// On success `*width`, `*height` and `*components` describe what was written. Returns SPROUT_CODEC_TOO_COSTLY
/// (with a message) when a progressive file passes SPROUT_JPEG_MAX_SCANS or SPROUT_JPEG_MAX_SCAN_PIXELS.
int sprout_jpeg_decode(const unsigned char *data, size_t size, int scale_denom,
                       unsigned char *pixels, size_t capacity,
                       int *width, int *height, int *components, char *message);

/// Encodes gray (`components` 1) or RGB (3) rows without padding as a baseline JFIF JPEG with optimized Huffman
/// tables and no other markers. On success `*output` is a malloc'd buffer of `*output_size` bytes that the
/// caller releases with sprout_jpeg_free.
int sprout_jpeg_encode(const unsigned char *pixels, int width, int height, int components, int quality,
                       unsigned char **output, size_t *output_size, char *message);

/// Releases a buffer from sprout_jpeg_encode.
void sprout_jpeg_free(unsigned char *buffer);

#ifdef __cplusplus
}
#endif

#endif
