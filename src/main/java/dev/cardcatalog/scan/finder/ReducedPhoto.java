package dev.cardcatalog.scan.finder;

import boofcv.struct.image.GrayF32;
import dev.cardcatalog.image.RgbImage;

/**
 * The photo reduced for the search: its grey image and its red, green and blue planes at the same size.
 *
 * @param pixels the photo's own pixels ({@link RgbImage#pixels()}, 0xRRGGBB) when it is reduced by a factor of 1, the
 *               planes then being its 8-bit values; null when the planes are means of blocks
 */
record ReducedPhoto(GrayF32 grey, float[] red, float[] green, float[] blue, int[] pixels) {

    /**
     * Whether the planes are the photo's own 8-bit values ({@link #pixels}): whole numbers 0–255, whose sums are
     * exact in any order ({@link SurfaceMasks} sums them as ints).
     */
    boolean whole() {
        return pixels != null;
    }

    /**
     * {@code image} reduced by {@code factor}: each pixel the mean of a {@code factor × factor} block (the last row
     * and column of blocks may be partial), as grey ({@code 0.299 R + 0.587 G + 0.114 B}) and as its three planes.
     */
    static ReducedPhoto reduce(RgbImage image, int factor) {
        return reduce(image, factor, new WorkingImages());
    }

    /** {@link #reduce(RgbImage, int)} into {@code working}' planes and grey image. */
    static ReducedPhoto reduce(RgbImage image, int factor, WorkingImages working) {
        if (factor == 1) {
            return unreduced(image, working);
        }
        int w = (image.width() + factor - 1) / factor;
        int h = (image.height() + factor - 1) / factor;
        float[] red = working.plane(0, w * h);
        float[] green = working.plane(1, w * h);
        float[] blue = working.plane(2, w * h);
        java.util.Arrays.fill(red, 0f);
        java.util.Arrays.fill(green, 0f);
        java.util.Arrays.fill(blue, 0f);
        int[] counts = new int[w];
        int[] pixels = image.pixels();
        for (int by = 0; by < h; by++) {
            java.util.Arrays.fill(counts, 0);
            int y1 = Math.min(image.height(), (by + 1) * factor);
            int o = by * w;
            for (int y = by * factor; y < y1; y++) {
                int row = y * image.width();
                for (int x = 0; x < image.width(); x++) {
                    int p = pixels[row + x];
                    int bx = x / factor;
                    red[o + bx] += (p >> 16) & 0xFF;
                    green[o + bx] += (p >> 8) & 0xFF;
                    blue[o + bx] += p & 0xFF;
                    counts[bx]++;
                }
            }
            for (int bx = 0; bx < w; bx++) {
                red[o + bx] /= counts[bx];
                green[o + bx] /= counts[bx];
                blue[o + bx] /= counts[bx];
            }
        }
        GrayF32 grey = working.grey;
        grey.reshape(w, h);
        for (int i = 0; i < w * h; i++) {
            grey.data[i] = 0.299f * red[i] + 0.587f * green[i] + 0.114f * blue[i];
        }
        return new ReducedPhoto(grey, red, green, blue, null);
    }

    /** {@link #reduce} by a factor of 1: the same values, without the sums. */
    private static ReducedPhoto unreduced(RgbImage image, WorkingImages working) {
        int n = image.width() * image.height();
        float[] red = working.plane(0, n);
        float[] green = working.plane(1, n);
        float[] blue = working.plane(2, n);
        int[] pixels = image.pixels();
        GrayF32 grey = working.grey;
        grey.reshape(image.width(), image.height());
        for (int i = 0; i < n; i++) {
            int p = pixels[i];
            red[i] = (p >> 16) & 0xFF;
            green[i] = (p >> 8) & 0xFF;
            blue[i] = p & 0xFF;
            grey.data[i] = 0.299f * red[i] + 0.587f * green[i] + 0.114f * blue[i];
        }
        return new ReducedPhoto(grey, red, green, blue, pixels);
    }
}
