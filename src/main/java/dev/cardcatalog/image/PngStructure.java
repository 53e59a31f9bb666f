package dev.cardcatalog.image;

import java.util.Locale;

/**
 * What a decoder needs to know of a PNG before decoding it, from one walk over its chunks (PNG, ISO/IEC 15948 §5):
 * the IHDR chunk's declared size, bit depth, colour type and interlace method, how many chunks the file has, and
 * whether an IEND chunk ends it. The chunks' data is skipped (not inflated, CRCs not checked), so the walk costs a
 * few operations a chunk and allocates nothing.
 *
 * @param width      the declared width, in pixels (1 to 2³¹ - 1; larger values are read as they are)
 * @param height     the declared height, in pixels
 * @param bitDepth   bits a sample: 1, 2, 4, 8 or 16
 * @param colourType 0 grey, 2 RGB, 3 palette, 4 grey and alpha, 6 RGBA
 * @param interlaced whether the image is Adam7-interlaced
 * @param chunks     the chunks from IHDR to IEND (or to the end of the body), both counted
 * @param complete   whether an IEND chunk was reached within the body
 */
public record PngStructure(long width, long height, int bitDepth, int colourType, boolean interlaced, int chunks,
        boolean complete) {

    /** Bytes of the PNG signature. */
    private static final int SIGNATURE = 8;

    /** Samples a pixel holds: 1 grey or palette index, 2 grey and alpha, 3 RGB, 4 RGBA. */
    public int channels() {
        return switch (colourType) {
            case 2 -> 3;
            case 4 -> 2;
            case 6 -> 4;
            default -> 1;
        };
    }

    /**
     * The work the header declares: width × height × channels, doubled for 16-bit samples: the bytes a reader
     * inflates and unfilters (for 8- and 16-bit images exactly, less for 1-, 2- and 4-bit ones).
     */
    public long declaredWork() {
        return width * height * channels() * (bitDepth == 16 ? 2 : 1);
    }

    /** The bytes of one row of the image as stored, its filter byte included. */
    public long rowBytes() {
        return 1 + (width * channels() * bitDepth + 7) / 8;
    }

    /**
     * Walks the chunks of {@code b}, a PNG from its signature on.
     *
     * @param maxChunks the most chunks accepted
     * @throws ImageDecodeException {@code TOO_MANY_SEGMENTS} as soon as the walk finds one chunk more than
     *                              accepted; {@code TRUNCATED} when the body ends inside the signature or the IHDR
     *                              chunk; {@code CORRUPT} when the first chunk is not a 13-byte IHDR
     */
    public static PngStructure scan(byte[] b, int maxChunks) throws ImageDecodeException {
        if (b.length < SIGNATURE + 8 + 13) {
            throw new ImageDecodeException(ImageDecodeException.Kind.TRUNCATED, "the PNG ends inside its header");
        }
        if (readU32(b, SIGNATURE) != 13 || b[12] != 'I' || b[13] != 'H' || b[14] != 'D' || b[15] != 'R') {
            throw new ImageDecodeException(ImageDecodeException.Kind.CORRUPT, "the PNG does not start with IHDR");
        }
        long width = readU32(b, 16);
        long height = readU32(b, 20);
        int bitDepth = b[24] & 0xFF;
        int colourType = b[25] & 0xFF;
        boolean interlaced = b[28] != 0;
        int chunks = 0;
        long pos = SIGNATURE;
        while (pos + 8 <= b.length) {
            if (++chunks > maxChunks) {
                throw new ImageDecodeException(ImageDecodeException.Kind.TOO_MANY_SEGMENTS, String.format(Locale.ROOT,
                        "the PNG has more than %,d chunks (an image writer makes a few, or a few hundred for a very "
                                + "large image)", maxChunks));
            }
            long length = readU32(b, (int) pos);
            boolean end = b[(int) pos + 4] == 'I' && b[(int) pos + 5] == 'E' && b[(int) pos + 6] == 'N'
                    && b[(int) pos + 7] == 'D';
            pos += 12 + length;
            if (end) {
                return new PngStructure(width, height, bitDepth, colourType, interlaced, chunks, pos <= b.length);
            }
        }
        return new PngStructure(width, height, bitDepth, colourType, interlaced, chunks, false);
    }

    private static long readU32(byte[] b, int at) {
        return ((b[at] & 0xFFL) << 24) | ((b[at + 1] & 0xFFL) << 16) | ((b[at + 2] & 0xFFL) << 8) | (b[at + 3] & 0xFFL);
    }
}
