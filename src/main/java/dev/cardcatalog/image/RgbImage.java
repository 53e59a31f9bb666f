package dev.cardcatalog.image;

/**
 * Decoded pixels: 8-bit R, G, B per pixel, no alpha, no colour management (FINGERPRINT.md §1: what ImageMagick's
 * {@code -depth 8 ppm:-} gives).
 *
 * <p>{@code pixels} holds {@code width * height} ints in row-major order, top-left first, each packed as
 * {@code 0xRRGGBB} (the top byte is ignored). The array is shared, not copied: treat it as read-only.
 *
 * @param width  width in pixels, at least 1
 * @param height height in pixels, at least 1
 * @param pixels packed {@code 0xRRGGBB} samples, length {@code width * height}
 */
public record RgbImage(int width, int height, int[] pixels) {

    public RgbImage {
        if (width < 1 || height < 1) {
            throw new IllegalArgumentException("image size must be positive: " + width + "x" + height);
        }
        if (pixels == null || (long) width * height != pixels.length) {
            throw new IllegalArgumentException("pixels must hold width*height = " + (long) width * height + " values");
        }
    }

    /** The packed {@code 0xRRGGBB} value at column {@code x}, row {@code y}. */
    public int rgb(int x, int y) {
        return pixels[y * width + x] & 0xFFFFFF;
    }
}
