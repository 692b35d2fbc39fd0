#!/usr/bin/env python3
"""Makes the PNG decode bomb of the security review (point 1), for MarketDecodeBombTests:
a 6324×6324 8-bit grayscale PNG of zeros (40 megapixels), deflated as far as zlib goes."""
import struct
import zlib

SIDE = 6324


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


compressor = zlib.compressobj(9)
row = b"\x00" * (SIDE + 1)  # filter byte 0, then the row's zeros
data = b"".join(compressor.compress(row) for _ in range(SIDE)) + compressor.flush()
png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", SIDE, SIDE, 8, 0, 0, 0, 0)) + chunk(b"IDAT", data) + chunk(b"IEND", b"")
with open("zeros-40mp.png", "wb") as out:
    out.write(png)
print(f"zeros-40mp.png: {SIDE}x{SIDE}, {len(png)} bytes")
