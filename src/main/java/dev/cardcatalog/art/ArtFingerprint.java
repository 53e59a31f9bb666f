package dev.cardcatalog.art;

import dev.cardcatalog.image.RgbImage;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.List;

/**
 * The art fingerprint of a card image, bit for bit as plainprogrammer/Collector computes it (FINGERPRINT.md §3–§7,
 * SERVICE.md §5.5).
 *
 * <p>The art box of the {@link FingerprintSettings#FROZEN frozen settings}, moved by one
 * {@link FingerprintSettings.Offset}, is area-resampled to a grid 17 cells wide and 16 high. Each cell yields the means of R, G and B and a grey value.
 * Per plane (grey, blue, green, red) and grid row, bit {@code i} is 1 when cell {@code i + 1} is strictly greater
 * than cell {@code i}. The result is 128 bytes (1,024 bits): bytes 0–31 grey, 32–63 blue, 64–95 green, 96–127 red,
 * most significant bit first.
 *
 * <p>All arithmetic is IEEE-754 double in exactly the order of FINGERPRINT.md §3–§5: cell edges are computed from
 * the box edge each time, a pixel's weight is {@code wx * wy}, the four sums are kept apart in row-outer,
 * column-inner order, and nothing is rounded. Reordering "equal" expressions changes hundreds of bits (§11), so do
 * not refactor the arithmetic without the known-answer vectors.
 *
 * <p>The class is stateless and thread-safe. A call allocates a few small arrays per image, none per pixel.
 */
public final class ArtFingerprint {

    /** Length of a fingerprint in bytes (four planes of 16 rows × 16 bits). */
    public static final int BYTES = 128;

    /** Length of a fingerprint in bits; the largest possible Hamming distance. */
    public static final int BITS = BYTES * 8;

    /** Length of a fingerprint in 64-bit words, as {@link #toLongs(byte[])} gives it. */
    public static final int LONGS = BYTES / 8;

    private static final VarHandle LONG_BE =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private ArtFingerprint() {
    }

    /**
     * The fingerprint of {@code image} at one offset of the frozen settings.
     *
     * @param image  the card image (for the index: the whole Scryfall {@code small} image; for a query: the capture,
     *               treated as the card); any size
     * @param offset one of {@link FingerprintSettings#offsets()} (or any other offset)
     * @return a new 128-byte fingerprint
     */
    public static byte[] compute(RgbImage image, FingerprintSettings.Offset offset) {
        return compute(image, offset, FingerprintSettings.FROZEN);
    }

    /**
     * The six query fingerprints of {@code image}, at the offsets of {@link FingerprintSettings#offsets()} in order
     * (FINGERPRINT.md §7). Element 0 is the zero-offset fingerprint, the one an index record holds.
     *
     * @return six new 128-byte arrays
     */
    public static byte[][] queries(RgbImage image) {
        List<FingerprintSettings.Offset> offsets = FingerprintSettings.FROZEN.offsets();
        byte[][] result = new byte[offsets.size()][];
        for (int k = 0; k < result.length; k++) {
            result[k] = compute(image, offsets.get(k), FingerprintSettings.FROZEN);
        }
        return result;
    }

    /**
     * The Hamming distance between two fingerprints: the number of differing bits of 1,024 (FINGERPRINT.md §8).
     *
     * @return 0 to 1,024
     * @throws IllegalArgumentException if either array is not 128 bytes long
     */
    public static int hamming(byte[] a, byte[] b) {
        requireFingerprint(a);
        requireFingerprint(b);
        int distance = 0;
        for (int off = 0; off < BYTES; off += 8) {
            distance += Long.bitCount((long) LONG_BE.get(a, off) ^ (long) LONG_BE.get(b, off));
        }
        return distance;
    }

    /**
     * The fingerprint as 16 big-endian 64-bit words (word {@code k} holds bytes {@code 8k .. 8k+7}, the first byte
     * in the high bits). Hamming distances over these words equal those over the bytes.
     */
    public static long[] toLongs(byte[] fingerprint) {
        requireFingerprint(fingerprint);
        long[] words = new long[LONGS];
        for (int k = 0; k < LONGS; k++) {
            words[k] = (long) LONG_BE.get(fingerprint, k * 8);
        }
        return words;
    }

    /** Writes the 16 words of a fingerprint starting at {@code dst[dstPos]}; see {@link #toLongs(byte[])}. */
    static void toLongs(byte[] fingerprint, long[] dst, int dstPos) {
        for (int k = 0; k < LONGS; k++) {
            dst[dstPos + k] = (long) LONG_BE.get(fingerprint, k * 8);
        }
    }

    private static void requireFingerprint(byte[] fingerprint) {
        if (fingerprint == null || fingerprint.length != BYTES) {
            throw new IllegalArgumentException("a fingerprint is " + BYTES + " bytes");
        }
    }

    static byte[] compute(RgbImage image, FingerprintSettings.Offset offset, FingerprintSettings settings) {
        final int w = image.width();
        final int h = image.height();
        final int[] pixels = image.pixels();
        final int cols = settings.cols();
        final int rows = settings.rows();
        final FingerprintSettings.Box box = settings.box();

        // §3: the crop box, unrounded, in this order.
        final double bw = box.x1() - box.x0();
        final double bh = box.y1() - box.y0();
        final double left = ((box.x0() + offset.dx()) + offset.inset() * bw) * w;
        final double top = ((box.y0() + offset.dy()) + offset.inset() * bh) * h;
        final double right = ((box.x1() + offset.dx()) - offset.inset() * bw) * w;
        final double bottom = ((box.y1() + offset.dy()) - offset.inset() * bh) * h;

        // §4: cell edges from the box edge each time (never accumulated).
        final double cellW = (right - left) / cols;
        final double cellH = (bottom - top) / rows;

        // The horizontal weights wx of a column do not depend on the row, so compute them once per column. They are
        // the same expressions as in §4, so the values are identical; only the repetition is saved.
        final int[] colStart = new int[cols];
        final int[] colEnd = new int[cols];
        final int[] colWeightAt = new int[cols + 1];
        for (int i = 0; i < cols; i++) {
            double cx0 = left + i * cellW;
            double cx1 = left + (i + 1) * cellW;
            colStart[i] = clamp(floorInt(cx0), w - 1);
            colEnd[i] = clamp(ceilInt(cx1) - 1, w - 1);
            colWeightAt[i + 1] = colWeightAt[i] + Math.max(0, colEnd[i] - colStart[i] + 1);
        }
        final double[] colWeights = new double[colWeightAt[cols]];
        for (int i = 0; i < cols; i++) {
            double cx0 = left + i * cellW;
            double cx1 = left + (i + 1) * cellW;
            int k = colWeightAt[i];
            for (int px = colStart[i]; px <= colEnd[i]; px++) {
                colWeights[k++] = Math.min(cx1, px + 1) - Math.max(cx0, px);
            }
        }

        final int cells = cols * rows;
        final double[] grey = new double[cells];
        final double[] red = new double[cells];
        final double[] green = new double[cells];
        final double[] blue = new double[cells];

        for (int j = 0; j < rows; j++) {
            final double cy0 = top + j * cellH;
            final double cy1 = top + (j + 1) * cellH;
            final int pyStart = clamp(floorInt(cy0), h - 1);
            final int pyEnd = clamp(ceilInt(cy1) - 1, h - 1);
            for (int i = 0; i < cols; i++) {
                final int pxStart = colStart[i];
                final int pxEnd = colEnd[i];
                final int weightBase = colWeightAt[i] - pxStart;
                double sR = 0.0;
                double sG = 0.0;
                double sB = 0.0;
                double weight = 0.0;
                for (int py = pyStart; py <= pyEnd; py++) {
                    final double wy = Math.min(cy1, py + 1) - Math.max(cy0, py);
                    if (wy <= 0) {
                        continue;
                    }
                    final int rowBase = py * w;
                    for (int px = pxStart; px <= pxEnd; px++) {
                        final double wx = colWeights[weightBase + px];
                        if (wx <= 0) {
                            continue;
                        }
                        final double pw = wx * wy;
                        final int p = pixels[rowBase + px];
                        sR += ((p >> 16) & 0xFF) * pw;
                        sG += ((p >> 8) & 0xFF) * pw;
                        sB += (p & 0xFF) * pw;
                        weight += pw;
                    }
                }
                final int c = j * cols + i;
                // A cell with no weight gives 0/0 = NaN, whose comparisons are all false (bit 0), as in §4.
                final double mR = sR / weight;
                final double mG = sG / weight;
                final double mB = sB / weight;
                red[c] = mR;
                green[c] = mG;
                blue[c] = mB;
                // §5: from the unrounded means, left to right.
                grey[c] = 0.299 * mR + 0.587 * mG + 0.114 * mB;
            }
        }

        final byte[] out = new byte[BYTES];
        final int planeBytes = BYTES / 4;
        packPlane(grey, cols, rows, out, 0);
        packPlane(blue, cols, rows, out, planeBytes);
        packPlane(green, cols, rows, out, 2 * planeBytes);
        packPlane(red, cols, rows, out, 3 * planeBytes);
        return out;
    }

    /** §6: bit b = 16j + i is 1 when cell i+1 &gt; cell i (strictly; NaN gives 0); MSB first. */
    private static void packPlane(double[] plane, int cols, int rows, byte[] out, int base) {
        final int pairs = cols - 1;
        for (int j = 0; j < rows; j++) {
            final int row = j * cols;
            for (int i = 0; i < pairs; i++) {
                if (plane[row + i + 1] > plane[row + i]) {
                    final int b = j * pairs + i;
                    out[base + (b >> 3)] |= (byte) (0x80 >>> (b & 7));
                }
            }
        }
    }

    private static int floorInt(double v) {
        return (int) Math.floor(v);
    }

    private static int ceilInt(double v) {
        return (int) Math.ceil(v);
    }

    private static int clamp(int v, int max) {
        return v < 0 ? 0 : Math.min(v, max);
    }
}
