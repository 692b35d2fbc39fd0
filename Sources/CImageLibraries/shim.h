// The system's libjpeg(-turbo) and libpng 1.6, for SproutImaging and CImageCodecs.
// jpeglib.h uses FILE and size_t without including their headers, so stdio.h comes first.
#include <stdio.h>
#include <stddef.h>
#include <jpeglib.h>
#include <png.h>
