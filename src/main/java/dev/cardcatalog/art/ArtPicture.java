package dev.cardcatalog.art;

import dev.cardcatalog.image.RgbImage;
import java.nio.charset.StandardCharsets;

/**
 * A small colour picture of a card's art box: the server's own per-artwork data for the match's second look
 * (FINGERPRINT.md §13, SERVICE.md §5.11 item 14). The index file and the fingerprint are not changed by it.
 *
 * <p>The box is the fingerprint's (FINGERPRINT.md §3, {@link FingerprintSettings#FROZEN}), at one of its offsets,
 * area-resampled to {@value #COLS} × {@value #ROWS} cells; each cell is the mean of R, G and B over the pixels it
 * covers (a partly covered pixel in proportion), rounded to 0–255. {@link #BYTES} bytes, row-major, top row first,
 * three bytes (R, G, B) a cell. At 146 × 204 pixels (Scryfall's {@code small} image) a cell is about 3.3 × 3.3
 * pixels: five times as many cells as the fingerprint's grid, and each keeps its colour, not only its order against
 * its neighbour.
 *
 * <p>Two pictures are compared ({@link #similarity}) on the cells a photo's glare leaves readable
 * ({@link #readable}): found from the photo alone, so that every candidate artwork is judged on the same cells.
 * Stateless and thread-safe.
 */
public final class ArtPicture {

    /** Cells across. */
    public static final int COLS = 32;

    /** Cells down (the box is 105 × 69 pixels of a 146 × 204 image: 32 × 21 keeps cells about square). */
    public static final int ROWS = 21;

    /** Cells in a picture. */
    public static final int CELLS = COLS * ROWS;

    /** Length of a picture: three bytes a cell. */
    public static final int BYTES = CELLS * 3;

    /**
     * The settings digest of pictures made by this class: data made with other settings is never compared, and an
     * art build makes every picture again when it changes (the first 16 hex characters of SHA-256 of the settings'
     * canonical text, as for fingerprints, FINGERPRINT.md §2).
     */
    public static final String DIGEST = FingerprintSettings.digestOf(
            ("{\"picture\":\"art box mean RGB\",\"box\":\"" + FingerprintSettings.FROZEN.digest()
                    + "\",\"grid\":[" + COLS + "," + ROWS + "],\"imageSize\":\"small\"}")
                    .getBytes(StandardCharsets.UTF_8));

    /**
     * A cell whose lowest channel is at least this much above the picture's median lowest channel, and at least
     * {@value #GLARE_FLOOR}, is glare: light reflected by a sleeve or a slab is brighter than the art around it and
     * greyer (a mix towards white raises the lowest channel most).
     */
    static final int GLARE_RISE = 45;

    /** The least lowest channel of a glare cell. */
    static final int GLARE_FLOOR = 150;

    private ArtPicture() {
    }

    /**
     * The picture of {@code image}'s art box at {@code offset}.
     *
     * @param image a card image, upright (the {@code small} image, or a card warped from a photo), at least one pixel
     * @param offset one of {@link FingerprintSettings#offsets()} of the frozen settings
     * @return a new array of {@link #BYTES} bytes
     */
    public static byte[] of(RgbImage image, FingerprintSettings.Offset offset) {
        int w = image.width();
        int h = image.height();
        double[] box = FingerprintSettings.FROZEN.box().edges(offset, w, h);
        int[] columnStart = new int[COLS];
        int[] rowStart = new int[ROWS];
        double[][] columns = weights(box[0], box[2], COLS, w, columnStart);
        double[][] rows = weights(box[1], box[3], ROWS, h, rowStart);
        int[] pixels = image.pixels();
        byte[] picture = new byte[BYTES];
        for (int j = 0; j < ROWS; j++) {
            double[] wy = rows[j];
            for (int i = 0; i < COLS; i++) {
                double[] wx = columns[i];
                double r = 0;
                double g = 0;
                double b = 0;
                double weight = 0;
                for (int dy = 0; dy < wy.length; dy++) {
                    if (wy[dy] <= 0) {
                        continue;
                    }
                    int row = (rowStart[j] + dy) * w + columnStart[i];
                    for (int dx = 0; dx < wx.length; dx++) {
                        double pw = wx[dx] * wy[dy];
                        if (pw <= 0) {
                            continue;
                        }
                        int p = pixels[row + dx];
                        r += ((p >> 16) & 0xFF) * pw;
                        g += ((p >> 8) & 0xFF) * pw;
                        b += (p & 0xFF) * pw;
                        weight += pw;
                    }
                }
                int c = 3 * (j * COLS + i);
                if (weight > 0) {
                    picture[c] = (byte) Math.round(r / weight);
                    picture[c + 1] = (byte) Math.round(g / weight);
                    picture[c + 2] = (byte) Math.round(b / weight);
                }
            }
        }
        return picture;
    }

    /**
     * For each of {@code cells} cells between {@code from} and {@code to} (pixels, fractional), the share of each
     * pixel it covers, from pixel {@code start[k]} on; pixels outside {@code [0, size)} are not read.
     */
    private static double[][] weights(double from, double to, int cells, int size, int[] start) {
        double cell = (to - from) / cells;
        double[][] weights = new double[cells][];
        for (int k = 0; k < cells; k++) {
            double c0 = from + k * cell;
            double c1 = from + (k + 1) * cell;
            int first = clamp((int) Math.floor(c0), size);
            int last = clamp((int) Math.ceil(c1) - 1, size);
            double[] w = new double[Math.max(0, last - first + 1)];
            for (int p = first; p <= last; p++) {
                w[p - first] = Math.max(0, Math.min(c1, p + 1) - Math.max(c0, p));
            }
            start[k] = first;
            weights[k] = w;
        }
        return weights;
    }

    private static int clamp(int v, int size) {
        return Math.max(0, Math.min(size - 1, v));
    }

    /**
     * The cells of a photo's picture that glare leaves readable: false for a cell whose lowest channel rises
     * {@value #GLARE_RISE} above the picture's median lowest channel to at least {@value #GLARE_FLOOR}, and for its
     * eight neighbours (a glare spot fades out over a cell or two).
     *
     * @param photo a picture of {@link #BYTES} bytes, made from a photo
     * @return {@link #CELLS} flags, row-major
     */
    public static boolean[] readable(byte[] photo) {
        requirePicture(photo);
        int[] lowest = new int[CELLS];
        for (int c = 0; c < CELLS; c++) {
            lowest[c] = Math.min(photo[3 * c] & 0xFF, Math.min(photo[3 * c + 1] & 0xFF, photo[3 * c + 2] & 0xFF));
        }
        int[] sorted = lowest.clone();
        java.util.Arrays.sort(sorted);
        int limit = Math.max(GLARE_FLOOR, sorted[CELLS / 2] + GLARE_RISE);
        boolean[] readable = new boolean[CELLS];
        java.util.Arrays.fill(readable, true);
        for (int j = 0; j < ROWS; j++) {
            for (int i = 0; i < COLS; i++) {
                if (lowest[j * COLS + i] < limit) {
                    continue;
                }
                for (int y = Math.max(0, j - 1); y <= Math.min(ROWS - 1, j + 1); y++) {
                    for (int x = Math.max(0, i - 1); x <= Math.min(COLS - 1, i + 1); x++) {
                        readable[y * COLS + x] = false;
                    }
                }
            }
        }
        return readable;
    }

    /**
     * How alike a photo's picture and an artwork's are on the readable cells: the mean over R, G and B of their
     * correlation (each channel's gain and level taken out, so light and white balance do not count), from −1 to 1.
     * 0 when fewer than a quarter of the cells are readable or either picture is flat over them.
     *
     * @param photo    the photo's picture ({@link #BYTES} bytes)
     * @param artwork  the artwork's stored picture ({@link #BYTES} bytes)
     * @param readable the cells compared ({@link #readable}, of {@code photo})
     * @throws IllegalArgumentException if a picture is not {@link #BYTES} bytes or {@code readable} not
     *     {@link #CELLS} long
     */
    public static double similarity(byte[] photo, byte[] artwork, boolean[] readable) {
        requirePicture(photo);
        requirePicture(artwork);
        if (readable.length != CELLS) {
            throw new IllegalArgumentException("readable flags are " + CELLS + " long");
        }
        int n = 0;
        for (boolean r : readable) {
            n += r ? 1 : 0;
        }
        if (n < CELLS / 4) {
            return 0;
        }
        double total = 0;
        for (int channel = 0; channel < 3; channel++) {
            double sx = 0;
            double sy = 0;
            for (int c = 0; c < CELLS; c++) {
                if (readable[c]) {
                    sx += photo[3 * c + channel] & 0xFF;
                    sy += artwork[3 * c + channel] & 0xFF;
                }
            }
            double mx = sx / n;
            double my = sy / n;
            double sxy = 0;
            double sxx = 0;
            double syy = 0;
            for (int c = 0; c < CELLS; c++) {
                if (readable[c]) {
                    double x = (photo[3 * c + channel] & 0xFF) - mx;
                    double y = (artwork[3 * c + channel] & 0xFF) - my;
                    sxy += x * y;
                    sxx += x * x;
                    syy += y * y;
                }
            }
            if (sxx > 0 && syy > 0) {
                total += sxy / Math.sqrt(sxx * syy);
            }
        }
        return total / 3;
    }

    private static void requirePicture(byte[] picture) {
        if (picture == null || picture.length != BYTES) {
            throw new IllegalArgumentException("a picture is " + BYTES + " bytes");
        }
    }
}
