"""Writes a WIDTH x HEIGHT RGB PNG to stdout (a blue field with a red top-left quarter): a real image for scripts
that upload one (the fuzzer's product, the bench's uploads), made with the standard library only."""
import random, struct, sys, zlib

def png(width, height, seed=0, noise=False):
    """With noise, every pixel is random: the PNG cannot compress, so its size is about width × height × 3 bytes,
    as large as a photo of that size at the upload limit."""
    rng = random.Random(seed)
    rows = bytearray()
    for y in range(height):
        rows.append(0)  # filter: none
        if noise:
            rows += rng.randbytes(width * 3)
            continue
        for x in range(width):
            if x < width // 4 and y < height // 4:
                rows += bytes((230, 20, 20))
            else:
                rows += bytes(((20 + seed * 37) % 256, 40, 220))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(bytes(rows), 6)) + chunk(b"IEND", b""))

if __name__ == "__main__":
    width, height = int(sys.argv[1]), int(sys.argv[2])
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    sys.stdout.buffer.write(png(width, height, seed))
