package dev.cardcatalog.scan.finder;

import boofcv.struct.image.GrayF32;

/**
 * The mean of a square window around each pixel, over the part of the window inside the image: what BoofCV's
 * {@code BlurImageOps.mean(input, output, radius, storage, null)} computes, to within a float's rounding
 * (BoxMeanTest), in one pass of running sums kept in double precision. BoofCV's own normalizes the image's border
 * pixel by pixel over the whole window, which was a fifth of the card search's time with the local threshold's wide
 * windows (docs/benchmarks.md, "Why the match runs as it does"); here every pixel costs the same four additions
 * whatever the radius.
 */
final class BoxMean {

    private BoxMean() {
    }

    /**
     * Sets each pixel of {@code output} to the mean of {@code input} over the pixels at most {@code radius} away in x
     * and in y that are inside the image.
     *
     * @param input  the image (any values; a sub-image is read through its stride)
     * @param output where the means go: reshaped to {@code input}'s size, not {@code input} itself
     * @param radius the window's half side, pixels, 0 or more (a window {@code 2 radius + 1} a side)
     */
    static void mean(GrayF32 input, GrayF32 output, int radius) {
        if (radius < 0) {
            throw new IllegalArgumentException("the radius is 0 or more: " + radius);
        }
        if (output == input) {
            throw new IllegalArgumentException("the output must be another image than the input");
        }
        int w = input.width;
        int h = input.height;
        output.reshape(w, h);
        float[] in = input.data;
        // each column's sum over the window's rows, then their sums along the row (prefix[x] = the first x columns)
        double[] columns = new double[w];
        double[] prefix = new double[w + 1];
        // where each pixel's window starts and ends along a row, and 1 / its width
        int[] from = new int[w];
        int[] to = new int[w];
        double[] perColumns = new double[w];
        for (int x = 0; x < w; x++) {
            from[x] = Math.max(0, x - radius);
            to[x] = Math.min(w, x + radius + 1);
            perColumns[x] = 1.0 / (to[x] - from[x]);
        }
        for (int y = 0; y <= Math.min(radius, h - 1); y++) {
            add(in, input.startIndex + y * input.stride, columns);
        }
        for (int y = 0; y < h; y++) {
            if (y > 0) {
                if (y + radius < h) {
                    add(in, input.startIndex + (y + radius) * input.stride, columns);
                }
                if (y - radius - 1 >= 0) {
                    subtract(in, input.startIndex + (y - radius - 1) * input.stride, columns);
                }
            }
            double perRows = 1.0 / (Math.min(h - 1, y + radius) - Math.max(0, y - radius) + 1);
            double sum = 0;
            for (int x = 0; x < w; x++) {
                sum += columns[x];
                prefix[x + 1] = sum;
            }
            int o = output.startIndex + y * output.stride;
            float[] out = output.data;
            // the window whole along the row from x = radius to w - 1 - radius: the same sums, read without the
            // tables (JFR: the means were an eighth of a 12 MP photo's match)
            int inFrom = Math.min(radius, w);
            int inTo = Math.max(inFrom, w - radius);
            for (int x = 0; x < inFrom; x++) {
                out[o + x] = (float) ((prefix[to[x]] - prefix[from[x]]) * perColumns[x] * perRows);
            }
            double whole = inTo > inFrom ? perColumns[inFrom] : 0;
            for (int x = inFrom; x < inTo; x++) {
                out[o + x] = (float) ((prefix[x + radius + 1] - prefix[x - radius]) * whole * perRows);
            }
            for (int x = inTo; x < w; x++) {
                out[o + x] = (float) ((prefix[to[x]] - prefix[from[x]]) * perColumns[x] * perRows);
            }
        }
    }

    private static void add(float[] in, int start, double[] columns) {
        for (int x = 0; x < columns.length; x++) {
            columns[x] += in[start + x];
        }
    }

    private static void subtract(float[] in, int start, double[] columns) {
        for (int x = 0; x < columns.length; x++) {
            columns[x] -= in[start + x];
        }
    }
}
