package dev.cardcatalog.scan.finder;

import boofcv.alg.misc.PixelMath;
import boofcv.struct.image.GrayF32;
import boofcv.struct.image.GrayU8;

/**
 * The masks that tell a card from the surface it lies on, by colour rather than by edge, and the test that drops a
 * patch of a busy surface's pattern: the colours far from the surface's as seen along the photo's edge
 * ({@link #surfaceMask}), what is far from a smooth surface's fitted light ({@link #smoothSurfaceMask}), the regions of
 * flat colour on a busy surface ({@link #smoothRegionMask}), and how much of an outline's inside is off the surface
 * ({@link #offSurfaceShare}). Each writes a mask the size of the {@link ReducedPhoto} and says whether it applies.
 */
final class SurfaceMasks {

    private SurfaceMasks() {
    }

    /**
     * The share of the points of a grid over {@code outline} (pixel-edge coordinates of the small image), from
     * {@value #OFF_SURFACE_INSET} of its width and height inside each side, that {@code offSurface} marks.
     */
    static double offSurfaceShare(GrayU8 offSurface, Quad outline) {
        int marked = 0;
        int n = OFF_SURFACE_GRID;
        for (int j = 0; j < n; j++) {
            for (int i = 0; i < n; i++) {
                double[] p = outline.at(OFF_SURFACE_INSET + (1 - 2 * OFF_SURFACE_INSET) * (i + 0.5) / n,
                        OFF_SURFACE_INSET + (1 - 2 * OFF_SURFACE_INSET) * (j + 0.5) / n);
                int x = (int) Math.floor(p[0]);
                int y = (int) Math.floor(p[1]);
                if (offSurface.isInBounds(x, y) && offSurface.unsafe_get(x, y) != 0) {
                    marked++;
                }
            }
        }
        return marked / (double) (n * n);
    }

    /**
     * On a busy surface, an outline less than this share of whose inside differs from the surface's colours
     * ({@link #surfaceMask}) is a piece of the surface's pattern, not a card: a card's art and text box are not the
     * surface's colours.
     */
    static final double MIN_OFF_SURFACE = 0.25;

    /** The points a side of {@link #offSurfaceShare}'s grid. */
    static final int OFF_SURFACE_GRID = 16;

    /** How far inside an outline's sides {@link #offSurfaceShare}'s grid starts: clear of a card's border. */
    static final double OFF_SURFACE_INSET = 0.1;

    /**
     * Marks in {@code mask} the pixels whose colour is far from every colour of the surface, the surface's colours
     * being those along the photo's edge (a ring of 2 pixels, clustered into {@value #SURFACE_COLOURS} by k-means);
     * far is more than twice the distance within which 95 % of the ring's own pixels lie of their colour, and at least
     * {@value #MIN_COLOUR_DISTANCE} (0–255 per channel). Opened by a pixel (specks of the surface go). False when the
     * ring is too varied to say (the photo is itself the card, or the surface is as varied as a card). {@code scratch}
     * holds the erosion on the way (overwritten).
     */
    static boolean surfaceMask(ReducedPhoto small, GrayU8 mask, GrayU8 scratch) {
        int w = small.grey().width;
        int h = small.grey().height;
        if (w < 16 || h < 16) {
            return false;
        }
        int[] ring = ring(w, h);
        float[][] centres = new float[SURFACE_COLOURS][3];
        for (int c = 0; c < SURFACE_COLOURS; c++) {
            int i = ring[(int) ((long) c * ring.length / SURFACE_COLOURS + ring.length / (2L * SURFACE_COLOURS))];
            centres[c] = new float[] {small.red()[i], small.green()[i], small.blue()[i]};
        }
        int[] nearest = new int[ring.length];
        for (int iteration = 0; iteration < 8; iteration++) {
            double[][] sums = new double[SURFACE_COLOURS][4];
            for (int k = 0; k < ring.length; k++) {
                int i = ring[k];
                nearest[k] = nearestColour(centres, small.red()[i], small.green()[i], small.blue()[i]);
                double[] s = sums[nearest[k]];
                s[0] += small.red()[i];
                s[1] += small.green()[i];
                s[2] += small.blue()[i];
                s[3]++;
            }
            for (int c = 0; c < SURFACE_COLOURS; c++) {
                if (sums[c][3] > 0) {
                    centres[c] = new float[] {(float) (sums[c][0] / sums[c][3]), (float) (sums[c][1] / sums[c][3]),
                            (float) (sums[c][2] / sums[c][3])};
                }
            }
        }
        float[] spread = new float[ring.length];
        for (int k = 0; k < ring.length; k++) {
            int i = ring[k];
            spread[k] = colourDistance(centres, small.red()[i], small.green()[i], small.blue()[i]);
        }
        java.util.Arrays.sort(spread);
        float within = spread[(int) (0.95 * (spread.length - 1))];
        if (within > MAX_SURFACE_SPREAD) {
            return false;
        }
        markFar(small, centres, Math.max(MIN_COLOUR_DISTANCE, 2 * within), mask);
        MaskMorphology.dilate8(MaskMorphology.erode8(mask, scratch), mask); // opened, in place
        return true;
    }

    /**
     * Marks in {@code mask} (1, else 0) the pixels whose {@link #colourDistance} to {@code centres} is over
     * {@code far}, its arithmetic unchanged: far from every colour when every squared distance is over the largest
     * whose root is not over far ({@link #squaredWithin}, so the root is not taken).
     *
     * @param centres colours, each red, green and blue (0–255)
     * @param far     a distance, finite and 0 or more
     */
    static void markFar(ReducedPhoto small, float[][] centres, float far, GrayU8 mask) {
        int w = small.grey().width;
        int h = small.grey().height;
        int colours = centres.length;
        float[] cr = new float[colours];
        float[] cg = new float[colours];
        float[] cb = new float[colours];
        for (int c = 0; c < colours; c++) {
            cr[c] = centres[c][0];
            cg[c] = centres[c][1];
            cb[c] = centres[c][2];
        }
        float within2 = squaredWithin(far);
        // a row at a time, each colour over the whole row: the least squared distance to any colour, then far when
        // it is over the bound (any colour near: the least is). The row is copied first, so that every array of the
        // loop is read at the same index: C2 vectorises it then, and not when they are read at row + x and x
        // (4.7 times as fast, docs/benchmarks.md)
        float[] least = new float[w];
        float[] red = new float[w];
        float[] green = new float[w];
        float[] blue = new float[w];
        for (int y = 0; y < h; y++) {
            int row = y * w;
            System.arraycopy(small.red(), row, red, 0, w);
            System.arraycopy(small.green(), row, green, 0, w);
            System.arraycopy(small.blue(), row, blue, 0, w);
            java.util.Arrays.fill(least, Float.POSITIVE_INFINITY);
            for (int c = 0; c < colours; c++) {
                float r = cr[c];
                float g = cg[c];
                float b = cb[c];
                for (int x = 0; x < w; x++) {
                    float dr = red[x] - r;
                    float dg = green[x] - g;
                    float db = blue[x] - b;
                    least[x] = Math.min(least[x], dr * dr + dg * dg + db * db);
                }
            }
            int o = mask.startIndex + y * mask.stride;
            for (int x = 0; x < w; x++) {
                mask.data[o + x] = (byte) (least[x] > within2 ? 1 : 0);
            }
        }
    }

    /**
     * The largest float whose square root, rounded to a float as {@code (float) Math.sqrt(d)}, is not over
     * {@code far}: for any squared distance {@code d} of 0 or more, {@code (float) Math.sqrt(d) > far} exactly when
     * {@code d} is over it (the rounded root never decreases as {@code d} grows).
     *
     * @param far a distance, finite and 0 or more
     */
    static float squaredWithin(float far) {
        float t = far * far;
        while (t > 0 && (float) Math.sqrt(t) > far) {
            t = Math.nextDown(t);
        }
        while ((float) Math.sqrt(Math.nextUp(t)) <= far) {
            t = Math.nextUp(t);
        }
        return t;
    }

    /**
     * Marks in {@code mask} the pixels whose colour is far from a smooth surface: each channel's surface a quadratic
     * in x and y (light that falls off across the photo and towards its corners) fitted by least squares to the ring
     * of 2 pixels along the photo's edge; far is more than three times the distance within which 95 % of the ring
     * lies of the fit, and at least {@value #MIN_SMOOTH_DISTANCE}. Opened by a pixel. False when the ring is not that
     * smooth (more than {@value #MAX_SMOOTH_SPREAD} from the fit): a patterned surface, or a photo that is a card.
     * {@code scratch} holds the erosion on the way (overwritten).
     */
    static boolean smoothSurfaceMask(ReducedPhoto small, GrayU8 mask, GrayU8 scratch) {
        int w = small.grey().width;
        int h = small.grey().height;
        if (w < 16 || h < 16) {
            return false;
        }
        org.ejml.data.DMatrixRMaj normal = new org.ejml.data.DMatrixRMaj(6, 6);
        org.ejml.data.DMatrixRMaj[] rhs = new org.ejml.data.DMatrixRMaj[3];
        for (int c = 0; c < 3; c++) {
            rhs[c] = new org.ejml.data.DMatrixRMaj(6, 1);
        }
        float[][] planes = {small.red(), small.green(), small.blue()};
        double[] t = new double[6];
        int[] ring = ring(w, h);
        for (int i : ring) {
            terms(i % w, i / w, w, h, t);
            for (int a = 0; a < 6; a++) {
                for (int b = 0; b < 6; b++) {
                    normal.add(a, b, t[a] * t[b]);
                }
                for (int c = 0; c < 3; c++) {
                    rhs[c].add(a, 0, t[a] * planes[c][i]);
                }
            }
        }
        double[][] fit = new double[3][];
        for (int c = 0; c < 3; c++) {
            org.ejml.data.DMatrixRMaj x = new org.ejml.data.DMatrixRMaj(6, 1);
            if (!org.ejml.dense.row.CommonOps_DDRM.solve(normal, rhs[c], x)) {
                return false;
            }
            fit[c] = x.data;
        }
        float[] spread = new float[ring.length];
        for (int k = 0; k < ring.length; k++) {
            int i = ring[k];
            spread[k] = (float) offSurface(planes, fit, i, 2.0 * (i % w) / (w - 1) - 1, 2.0 * (i / w) / (h - 1) - 1);
        }
        java.util.Arrays.sort(spread);
        float within = spread[(int) (0.95 * (spread.length - 1))];
        if (within > MAX_SMOOTH_SPREAD) {
            return false;
        }
        double far = Math.max(MIN_SMOOTH_DISTANCE, 3 * within);
        double[] xs = new double[w]; // each column's x, computed once
        for (int px = 0; px < w; px++) {
            xs[px] = 2.0 * px / (w - 1) - 1;
        }
        for (int py = 0; py < h; py++) {
            double y = 2.0 * py / (h - 1) - 1;
            for (int px = 0; px < w; px++) {
                int i = py * w + px;
                mask.data[i] = (byte) (offSurface(planes, fit, i, xs[px], y) > far ? 1 : 0);
            }
        }
        MaskMorphology.dilate8(MaskMorphology.erode8(mask, scratch), mask); // opened, in place
        return true;
    }

    /**
     * How far pixel {@code i}'s colour is from the smooth surface's fit there ({@code x} and {@code y} from -1 to 1
     * across the image, as {@link #terms} has them).
     */
    private static double offSurface(float[][] planes, double[][] fit, int i, double x, double y) {
        double xx = x * x;
        double xy = x * y;
        double yy = y * y;
        double sum = 0;
        for (int c = 0; c < 3; c++) {
            double[] f = fit[c];
            // the terms of terms(), summed in its order: no array a pixel (JFR: 3 MB a 12 MP photo)
            double v = f[0] + f[1] * x + f[2] * y + f[3] * xx + f[4] * xy + f[5] * yy;
            double d = planes[c][i] - v;
            sum += d * d;
        }
        return Math.sqrt(sum);
    }

    /**
     * Marks in {@code mask} the pixels around which the colour is nearly flat: the standard deviation over a
     * 5 × 5 window, of the three channels together, under {@value #FLAT_DEVIATION} (0–255 a channel). Only for a
     * busy surface: false, and nothing marked, unless the median of that deviation along the photo's edge is at
     * least three times as much.
     */
    static boolean smoothRegionMask(ReducedPhoto small, GrayU8 mask, WorkingImages buffers) {
        int w = small.grey().width;
        int h = small.grey().height;
        if (w < 16 || h < 16) {
            return false;
        }
        if (small.whole()) {
            if (!busyRing(small)) {
                return false; // the ring's own windows say so: the whole image's deviation is not needed
            }
            flatWindows(small.pixels(), w, h, buffers, mask);
            return true;
        }
        float[] variance = buffers.variance;
        java.util.Arrays.fill(variance, 0, w * h, 0f);
        GrayF32 plane = buffers.plane;
        GrayF32 mean = buffers.mean;
        GrayF32 meanOfSquares = buffers.meanOfSquares;
        for (float[] channel : new float[][] {small.red(), small.green(), small.blue()}) {
            System.arraycopy(channel, 0, plane.data, 0, w * h);
            BoxMean.mean(plane, mean, 2);
            PixelMath.pow2(plane, plane);
            BoxMean.mean(plane, meanOfSquares, 2);
            for (int i = 0; i < w * h; i++) {
                variance[i] += Math.max(0, meanOfSquares.data[i] - mean.data[i] * mean.data[i]);
            }
        }
        int[] ring = ring(w, h);
        float[] edge = new float[ring.length];
        for (int k = 0; k < edge.length; k++) {
            edge[k] = variance[ring[k]];
        }
        if (!busy(edge)) {
            return false;
        }
        float flat = FLAT_DEVIATION * FLAT_DEVIATION;
        for (int i = 0; i < w * h; i++) {
            mask.data[i] = (byte) (variance[i] < flat ? 1 : 0);
        }
        return true;
    }

    /**
     * {@link #smoothRegionMask}'s mask for a photo's own 8-bit pixels ({@link ReducedPhoto#pixels}), in whole
     * numbers: a window of {@code n} pixels is flat when the sum over the channels of {@code n Q - S²} (S its values'
     * sum, Q their squares') is under {@code n²} times {@value #FLAT_DEVIATION}², which is the variance under
     * {@value #FLAT_DEVIATION}² exactly. The box means' floats agree but at windows their rounding puts across the
     * cut, within 0.05 of it (CardFinderTest); these sums take 2.2 ms where the box means take 2.9 at 504 × 378
     * (docs/benchmarks.md, "Why the match runs as it does").
     */
    static void flatWindows(int[] pixels, int w, int h, WorkingImages buffers, GrayU8 mask) {
        // each channel's column sums over the window's rows (values, then squares), kept as the window moves down
        int[][] columns = buffers.columnSums(w);
        int[] windows = new int[w];
        int[] count = new int[w];
        for (int x = 0; x < w; x++) {
            count[x] = Math.min(w, x + 3) - Math.max(0, x - 2);
        }
        for (int[] column : columns) {
            java.util.Arrays.fill(column, 0, w, 0);
        }
        for (int row = 0; row <= Math.min(2, h - 1); row++) {
            addRow(pixels, row * w, w, columns, 1);
        }
        int flat = (int) (FLAT_DEVIATION * FLAT_DEVIATION);
        for (int y = 0; y < h; y++) {
            if (y > 0 && y + 2 < h) {
                addRow(pixels, (y + 2) * w, w, columns, 1);
            }
            if (y - 3 >= 0) {
                addRow(pixels, (y - 3) * w, w, columns, -1);
            }
            int rows = Math.min(h - 1, y + 2) - Math.max(0, y - 2) + 1;
            // windows[x] = the channels' sum of n Q - S², n the window's pixels (each at most 25 x 25 x 255²: the
            // three fit in an int)
            java.util.Arrays.fill(windows, 0);
            for (int c = 0; c < 3; c++) {
                int[] values = columns[c];
                int[] squares = columns[3 + c];
                for (int x = 2; x < w - 2; x++) {
                    int sum = values[x - 2] + values[x - 1] + values[x] + values[x + 1] + values[x + 2];
                    int sumOfSquares = squares[x - 2] + squares[x - 1] + squares[x] + squares[x + 1] + squares[x + 2];
                    windows[x] += 5 * rows * sumOfSquares - sum * sum;
                }
                for (int x : new int[] {0, 1, w - 2, w - 1}) {
                    int sum = 0;
                    int sumOfSquares = 0;
                    for (int k = Math.max(0, x - 2); k <= Math.min(w - 1, x + 2); k++) {
                        sum += values[k];
                        sumOfSquares += squares[k];
                    }
                    windows[x] += count[x] * rows * sumOfSquares - sum * sum;
                }
            }
            int o = mask.startIndex + y * mask.stride;
            for (int x = 0; x < w; x++) {
                int n = count[x] * rows;
                mask.data[o + x] = (byte) (windows[x] < flat * n * n ? 1 : 0);
            }
        }
    }

    /** Adds ({@code sign} 1) or takes away (-1) the row at {@code start} to each channel's column sums. */
    private static void addRow(int[] pixels, int start, int w, int[][] columns, int sign) {
        for (int c = 0; c < 3; c++) {
            int shift = 16 - 8 * c;
            int[] values = columns[c];
            int[] squares = columns[3 + c];
            for (int x = 0; x < w; x++) {
                int v = (pixels[start + x] >> shift) & 0xFF;
                values[x] += sign * v;
                squares[x] += sign * v * v;
            }
        }
    }

    /**
     * Whether the surface is busy as {@link #smoothRegionMask} decides it (the median of the ring's colour deviation
     * at least three times {@value #FLAT_DEVIATION}), for a photo's own 8-bit values ({@link ReducedPhoto#whole}),
     * from the ring's own windows alone: the sums of a window's values and of their squares are whole numbers, exact in an
     * {@code int} as in {@link BoxMean}'s double precision, so each window's deviation is the same float the box
     * means give, and so the answer is the same (CardFinderTest). A plain surface, most photos', then costs about a
     * tenth of the box means of the whole image: 0.3 ms in place of 2.5 at 504 × 378 (a 12 MP photo's search), whose
     * whole match takes about 35.
     */
    private static boolean busyRing(ReducedPhoto small) {
        int w = small.grey().width;
        int h = small.grey().height;
        float[][] planes = {small.red(), small.green(), small.blue()};
        int[] ring = ring(w, h);
        float[] edge = new float[ring.length];
        int[] sums = new int[6];
        for (int k = 0; k < ring.length; k++) {
            int x = ring[k] % w;
            int y = ring[k] / w;
            java.util.Arrays.fill(sums, 0);
            for (int wy = Math.max(0, y - 2); wy <= Math.min(h - 1, y + 2); wy++) {
                for (int wx = Math.max(0, x - 2); wx <= Math.min(w - 1, x + 2); wx++) {
                    for (int c = 0; c < 3; c++) {
                        int v = (int) planes[c][wy * w + wx];
                        sums[c] += v;
                        sums[3 + c] += v * v;
                    }
                }
            }
            edge[k] = windowVariance(sums, 1.0 / (Math.min(w, x + 3) - Math.max(0, x - 2)),
                    1.0 / (Math.min(h - 1, y + 2) - Math.max(0, y - 2) + 1));
        }
        return busy(edge);
    }

    /**
     * Whether a surface is busy from the colour variances along the photo's edge ({@code edge}, sorted here): their
     * median at least that of a deviation three times {@value #FLAT_DEVIATION}.
     */
    private static boolean busy(float[] edge) {
        java.util.Arrays.sort(edge);
        return edge[edge.length / 2] >= 9 * FLAT_DEVIATION * FLAT_DEVIATION;
    }

    /**
     * The colour variance of a window from its sums (red, green, blue, then their squares), in {@link BoxMean}'s
     * and {@link #smoothRegionMask}'s arithmetic: each mean the float of the sum times 1 / the window's columns times
     * 1 / its rows, each channel's variance in float, the channels added in order.
     */
    private static float windowVariance(int[] sums, double perColumns, double perRows) {
        float variance = 0f;
        for (int c = 0; c < 3; c++) {
            float mean = (float) (sums[c] * perColumns * perRows);
            float meanOfSquares = (float) (sums[3 + c] * perColumns * perRows);
            variance += Math.max(0, meanOfSquares - mean * mean);
        }
        return variance;
    }

    /** The colour deviation under which a neighbourhood is flat ({@link #smoothRegionMask}). */
    static final float FLAT_DEVIATION = 8;

    /** 1, x, y, x², xy, y² with x and y from -1 to 1 across the image. */
    private static void terms(int px, int py, int w, int h, double[] t) {
        double x = 2.0 * px / (w - 1) - 1;
        double y = 2.0 * py / (h - 1) - 1;
        t[0] = 1;
        t[1] = x;
        t[2] = y;
        t[3] = x * x;
        t[4] = x * y;
        t[5] = y * y;
    }

    /** The pixels (indices) of the ring 2 pixels wide along the edge of a {@code w × h} image. */
    static int[] ring(int w, int h) {
        int[] ring = new int[w * h - Math.max(0, w - 4) * Math.max(0, h - 4)];
        int n = 0;
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                if (x < 2 || y < 2 || x >= w - 2 || y >= h - 2) {
                    ring[n++] = y * w + x;
                }
                if (y >= 2 && y < h - 2 && x == 2) {
                    x = w - 3;
                }
            }
        }
        return ring;
    }

    /** The least distance from a smooth surface's fit (0–255 a channel, Euclidean) that sets a pixel apart. */
    static final double MIN_SMOOTH_DISTANCE = 9;

    /** A ring further than this from its smooth fit (95 % of it) is not a smooth surface. */
    static final float MAX_SMOOTH_SPREAD = 8;

    private static int nearestColour(float[][] centres, float r, float g, float b) {
        int best = 0;
        float bestD = Float.MAX_VALUE;
        for (int c = 0; c < centres.length; c++) {
            float dr = r - centres[c][0];
            float dg = g - centres[c][1];
            float db = b - centres[c][2];
            float d = dr * dr + dg * dg + db * db;
            if (d < bestD) {
                bestD = d;
                best = c;
            }
        }
        return best;
    }

    static float colourDistance(float[][] centres, float r, float g, float b) {
        int c = nearestColour(centres, r, g, b);
        float dr = r - centres[c][0];
        float dg = g - centres[c][1];
        float db = b - centres[c][2];
        return (float) Math.sqrt(dr * dr + dg * dg + db * db);
    }

    /** The colours a surface is taken to have. */
    static final int SURFACE_COLOURS = 6;

    /** The least colour distance (Euclidean over 0–255 channels) that sets a pixel apart from the surface. */
    static final float MIN_COLOUR_DISTANCE = 24;

    /** A ring whose colours spread further than this from their clusters is not a surface. */
    static final float MAX_SURFACE_SPREAD = 40;
}
