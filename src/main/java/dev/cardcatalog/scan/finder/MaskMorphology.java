package dev.cardcatalog.scan.finder;

import boofcv.struct.image.GrayU8;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Erosion and dilation of a binary mask (0 or 1 a pixel) by one pixel in all eight directions, the same masks as
 * BoofCV's {@code BinaryImageOps.erode8} and {@code dilate8} with one pass, bit for bit (MaskMorphologyTest): at the
 * image's edge only the neighbours inside it count. Each is the 3 × 3 window's minimum (erosion) or maximum
 * (dilation), taken as a row of three and then a column of three, for a third of BoofCV's reads of each pixel, and
 * eight pixels a step, a {@code long} of eight bytes at a time (the bytewise form was a sixth of a 12 MP photo's
 * match, JFR of {@code bench/match-http-bench.sh}); the card search runs about twenty of them a photo
 * (docs/benchmarks.md, "Why the match runs as it does").
 */
final class MaskMorphology {

    /** A mask's bytes read and written eight at a time, pixel {@code x} in byte {@code x % 8}. */
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    /** Each of a word's eight bytes 1. */
    private static final long ONES = 0x0101010101010101L;

    private MaskMorphology() {
    }

    /**
     * {@code mask} eroded: a pixel is 1 when it and each of its neighbours inside the image are non-zero.
     *
     * @param mask   the mask, 0 or 1 a pixel
     * @param output where the result goes (the same size; not {@code mask}), or null for a new image
     * @return {@code output}, or the new image
     */
    static GrayU8 erode8(GrayU8 mask, GrayU8 output) {
        return apply(mask, output, true);
    }

    /**
     * {@code mask} dilated: a pixel is 1 when it or any of its neighbours inside the image is non-zero.
     *
     * @param mask   the mask, 0 or 1 a pixel
     * @param output where the result goes (the same size; not {@code mask}), or null for a new image
     * @return {@code output}, or the new image
     */
    static GrayU8 dilate8(GrayU8 mask, GrayU8 output) {
        return apply(mask, output, false);
    }

    private static GrayU8 apply(GrayU8 mask, GrayU8 output, boolean erode) {
        int w = mask.width;
        int h = mask.height;
        GrayU8 out = output == null ? new GrayU8(w, h) : output;
        if (out == mask) {
            throw new IllegalArgumentException("the output must be another image than the mask");
        }
        out.reshape(w, h);
        int words = (w + 7) >>> 3;
        long[] loaded = new long[words];
        // three rows of the row-wise result, cycled; beyond the image's top and bottom the row itself stands in
        // (neutral for both the minimum and the maximum)
        long[][] rows = {new long[words], new long[words], new long[words]};
        rowPass(mask, 0, loaded, rows[0], erode);
        if (h > 1) {
            rowPass(mask, 1, loaded, rows[1], erode);
        }
        byte[] d = out.data;
        for (int y = 0; y < h; y++) {
            if (y > 0 && y + 1 < h) {
                rowPass(mask, y + 1, loaded, rows[(y + 1) % 3], erode);
            }
            long[] here = rows[y % 3];
            long[] above = y > 0 ? rows[(y + 2) % 3] : here;
            long[] below = y + 1 < h ? rows[(y + 1) % 3] : here;
            int o = out.startIndex + y * out.stride;
            int whole = w >>> 3;
            for (int i = 0; i < whole; i++) {
                long v = erode ? above[i] & here[i] & below[i] : above[i] | here[i] | below[i];
                LONGS.set(d, o + 8 * i, v);
            }
            if (whole < words) {
                long v = erode ? above[whole] & here[whole] & below[whole] : above[whole] | here[whole] | below[whole];
                for (int x = 8 * whole; x < w; x++) {
                    d[o + x] = (byte) (v >>> (8 * (x - 8 * whole)));
                }
            }
        }
        return out;
    }

    /**
     * Row {@code y} of {@code mask} eroded or dilated along the row only, as 0 or 1 a pixel, eight pixels a word
     * (pixel {@code x} in byte {@code x % 8} of word {@code x / 8}, the lowest first); {@code loaded} is the row as it
     * is, 0 or 1 a pixel, with the neutral value (1 for erosion, 0 for dilation) past its end.
     */
    private static void rowPass(GrayU8 mask, int y, long[] loaded, long[] row, boolean erode) {
        int w = mask.width;
        byte[] d = mask.data;
        int i0 = mask.startIndex + y * mask.stride;
        int whole = w >>> 3;
        for (int i = 0; i < whole; i++) {
            loaded[i] = ones((long) LONGS.get(d, i0 + 8 * i));
        }
        // beyond either end of the row, a neutral pixel: the pixel itself would stand in, to the same effect
        long neutral = erode ? ONES : 0;
        if (whole < loaded.length) {
            long tail = neutral;
            for (int x = 8 * whole; x < w; x++) {
                int shift = 8 * (x - 8 * whole);
                tail = tail & ~(0xFFL << shift) | (long) (d[i0 + x] != 0 ? 1 : 0) << shift;
            }
            loaded[whole] = tail;
        }
        long previous = neutral;
        for (int i = 0; i < loaded.length; i++) {
            long v = loaded[i];
            long next = i + 1 < loaded.length ? loaded[i + 1] : neutral;
            long left = v << 8 | previous >>> 56;
            long right = v >>> 8 | next << 56;
            row[i] = erode ? left & v & right : left | v | right;
            previous = v;
        }
    }

    /** Each byte of {@code v} as 1 when it is not zero, 0 when it is. */
    private static long ones(long v) {
        long t = v | v >>> 4;
        t |= t >>> 2;
        t |= t >>> 1;
        return t & ONES;
    }
}
