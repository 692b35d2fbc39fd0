// Makes the progressive JPEG decode bombs of the security review (point 1), for MarketDecodeBombTests:
//   cc make-jpeg-bombs.c -ljpeg -o make-jpeg-bombs && ./make-jpeg-bombs
// A flat grayscale image written as a progressive JPEG whose script splits every AC coefficient into its own
// band and sends each band bit by bit (successive approximation): hundreds of scans that carry almost no data
// each, but every one of them is a pass over every block of the image when decoded.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>

static void write_bomb(const char *path, int side, int bits_per_band) {
    int scans = 1 + 63 * (bits_per_band + 1);
    jpeg_scan_info *script = calloc((size_t)scans, sizeof *script);
    int n = 0;
    script[n++] = (jpeg_scan_info){1, {0}, 0, 0, 0, 0};  // DC, whole
    for (int k = 1; k <= 63; k++) {
        script[n++] = (jpeg_scan_info){1, {0}, k, k, 0, bits_per_band};  // first pass of band k
        for (int al = bits_per_band; al > 0; al--) {
            script[n++] = (jpeg_scan_info){1, {0}, k, k, al, al - 1};  // one refinement bit
        }
    }
    struct jpeg_compress_struct cinfo;
    struct jpeg_error_mgr jerr;
    cinfo.err = jpeg_std_error(&jerr);
    jpeg_create_compress(&cinfo);
    FILE *out = fopen(path, "wb");
    jpeg_stdio_dest(&cinfo, out);
    cinfo.image_width = (JDIMENSION)side;
    cinfo.image_height = (JDIMENSION)side;
    cinfo.input_components = 1;
    cinfo.in_color_space = JCS_GRAYSCALE;
    jpeg_set_defaults(&cinfo);
    cinfo.scan_info = script;
    cinfo.num_scans = n;
    jpeg_start_compress(&cinfo, TRUE);
    unsigned char *row = malloc((size_t)side);
    memset(row, 128, (size_t)side);
    while (cinfo.next_scanline < cinfo.image_height) {
        JSAMPROW rows[1] = {row};
        jpeg_write_scanlines(&cinfo, rows, 1);
    }
    jpeg_finish_compress(&cinfo);
    fclose(out);
    jpeg_destroy_compress(&cinfo);
    free(row);
    free(script);
    printf("%s: %dx%d, %d scans\n", path, side, side, n);
}

int main(void) {
    write_bomb("progressive-40mp-505-scans.jpg", 6324, 7);    // the review's: 6324×6324, ~500 scans
    write_bomb("progressive-9mp-127-scans.jpg", 3000, 1);     // under the progressive pixel limit, over the scan budget
    return 0;
}
