package dev.cardcatalog.testing;

import java.awt.image.BufferedImage;
import java.util.SplittableRandom;

/**
 * A simulated phone capture of a {@link CardArtGenerator} card, as the match endpoint receives it: the guide crop
 * of a camera frame, so the whole image is (nearly) the card. Deterministic from the capture seed.
 *
 * <p>What a capture does to the card, all drawn from the capture seed (the {@link Severity#REALISTIC} levels):
 * <ul>
 *   <li>size: 300–600 pixels wide, card aspect ratio (146:204);</li>
 *   <li>framing: the card scaled by 0.97–1.03, rotated by up to ±2.5° and shifted by up to ±1.5 % of the width
 *       and height (about ±7 pixels at 450 wide) relative to the crop; where the crop sees past the card edge it
 *       sees a table colour;</li>
 *   <li>the card is sampled at the capture's own resolution (one sample a pixel; the blur smooths the edges)
 *       from the same drawing function as the 146×204 index image, like a camera seeing the printed card rather
 *       than the small image;</li>
 *   <li>light: overall gain 0.8–1.2, offset −15..+15, white balance per channel 0.93–1.07, a light gradient
 *       across the card of up to ±8 %;</li>
 *   <li>focus: Gaussian blur with σ 0.5–1.5 pixels;</li>
 *   <li>sensor noise: Gaussian, σ 1–4 levels per channel;</li>
 *   <li>JPEG recompression at quality 0.55–0.85.</li>
 * </ul>
 */
public final class CaptureSimulator {

    /** How hard the capture is. */
    public enum Severity {
        /** The levels listed on the class. */
        REALISTIC(1.0),
        /** Framing, blur, light and noise all doubled: beyond what a guide crop should produce. */
        HARSH(2.0);

        final double factor;

        Severity(double factor) {
            this.factor = factor;
        }
    }

    private CaptureSimulator() {
    }

    /** The capture of card {@code artSeed} made with {@code captureSeed}, as JPEG bytes. */
    public static byte[] captureJpeg(long artSeed, long captureSeed) {
        return captureJpeg(artSeed, captureSeed, Severity.REALISTIC);
    }

    /** As {@link #captureJpeg(long, long)} at the given severity. */
    public static byte[] captureJpeg(long artSeed, long captureSeed, Severity severity) {
        return captureJpeg(artSeed, captureSeed, severity, java.util.function.UnaryOperator.identity());
    }

    /**
     * As {@link #captureJpeg(long, long, Severity)}, with the picture passed through {@code storing} before it is
     * compressed: how the phone stores it (turned, mirrored). The identity gives the same bytes as without.
     */
    public static byte[] captureJpeg(long artSeed, long captureSeed, Severity severity,
            java.util.function.UnaryOperator<BufferedImage> storing) {
        SplittableRandom r = new SplittableRandom(captureSeed * 0x9E3779B97F4A7C15L + artSeed);
        BufferedImage image = captureImage(CardArtGenerator.card(artSeed), r, severity.factor);
        float quality = (float) (0.85 - 0.30 * r.nextDouble() * Math.min(1, severity.factor));
        return TestImageFiles.jpeg(storing.apply(image), quality);
    }

    /**
     * As {@link #captureJpeg(long, long, Severity)}, {@code width} pixels wide instead of 300–600 (a phone photo's
     * full size, for the decoder's scaled path); everything else is drawn from the seeds as there, so blur and noise
     * are as many pixels as in a small capture.
     */
    public static byte[] captureJpeg(long artSeed, long captureSeed, Severity severity, int width) {
        SplittableRandom r = new SplittableRandom(captureSeed * 0x9E3779B97F4A7C15L + artSeed);
        BufferedImage image = captureImage(CardArtGenerator.card(artSeed), r, severity.factor, width);
        float quality = (float) (0.85 - 0.30 * r.nextDouble() * Math.min(1, severity.factor));
        return TestImageFiles.jpeg(image, quality);
    }

    /** The capture of card {@code artSeed} made with {@code captureSeed}, before JPEG compression. */
    public static BufferedImage captureImage(long artSeed, long captureSeed) {
        SplittableRandom r = new SplittableRandom(captureSeed * 0x9E3779B97F4A7C15L + artSeed);
        return captureImage(CardArtGenerator.card(artSeed), r, Severity.REALISTIC.factor);
    }

    private static BufferedImage captureImage(CardArtGenerator.Card card, SplittableRandom r, double f) {
        return captureImage(card, r, f, -1);
    }

    /** {@code fixedWidth} pixels wide, or 300–600 when it is negative; the seed's draws are the same either way. */
    private static BufferedImage captureImage(CardArtGenerator.Card card, SplittableRandom r, double f,
            int fixedWidth) {
        final int drawn = 300 + r.nextInt(301);
        final int width = fixedWidth > 0 ? fixedWidth : drawn;
        final int height = (int) Math.round(width * 204.0 / 146.0);

        final double scale = 1 + (r.nextDouble() - 0.5) * 0.06 * f;
        final double angle = Math.toRadians((r.nextDouble() - 0.5) * 5.0 * f);
        final double shiftX = (r.nextDouble() - 0.5) * 0.03 * f * width;
        final double shiftY = (r.nextDouble() - 0.5) * 0.03 * f * height;
        final int table = CardArtGenerator.rgb(60 + r.nextInt(80), 50 + r.nextInt(70), 40 + r.nextInt(60));

        final double gain = 1 + (r.nextDouble() - 0.5) * 0.4 * f;
        final double offset = (r.nextDouble() - 0.5) * 30 * f;
        final double[] balance = {1 + (r.nextDouble() - 0.5) * 0.14 * f, 1 + (r.nextDouble() - 0.5) * 0.14 * f,
                1 + (r.nextDouble() - 0.5) * 0.14 * f};
        final double lightAngle = r.nextDouble() * Math.PI * 2;
        final double lightAmount = r.nextDouble() * 0.08 * f;
        final double sigma = (0.5 + r.nextDouble()) * f;
        final double noise = (1 + r.nextDouble() * 3) * f;

        // Capture pixel -> card fraction: undo shift, rotation and scale about the centre.
        final double cos = Math.cos(-angle);
        final double sin = Math.sin(-angle);
        final double cx = width / 2.0;
        final double cy = height / 2.0;
        final int samples = 1; // the blur that follows does the anti-aliasing
        final double[][] planes = new double[3][width * height];
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                double sr = 0;
                double sg = 0;
                double sb = 0;
                for (int sy = 0; sy < samples; sy++) {
                    for (int sx = 0; sx < samples; sx++) {
                        double px = x + (sx + 0.5) / samples - cx - shiftX;
                        double py = y + (sy + 0.5) / samples - cy - shiftY;
                        double qx = (px * cos - py * sin) / scale;
                        double qy = (px * sin + py * cos) / scale;
                        double u = (qx + cx) / width;
                        double v = (qy + cy) / height;
                        int c = (u < 0 || u >= 1 || v < 0 || v >= 1) ? table : card.rgbAt(u, v);
                        double light = 1 + lightAmount * ((u - 0.5) * Math.cos(lightAngle)
                                + (v - 0.5) * Math.sin(lightAngle)) * 2;
                        sr += ((c >> 16) & 0xFF) * light;
                        sg += ((c >> 8) & 0xFF) * light;
                        sb += (c & 0xFF) * light;
                    }
                }
                int n = samples * samples;
                int k = y * width + x;
                planes[0][k] = (sr / n) * gain * balance[0] + offset;
                planes[1][k] = (sg / n) * gain * balance[1] + offset;
                planes[2][k] = (sb / n) * gain * balance[2] + offset;
            }
        }
        for (double[] plane : planes) {
            blur(plane, width, height, sigma);
        }
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        int[] row = new int[width];
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                int k = y * width + x;
                row[x] = CardArtGenerator.rgb(
                        (int) Math.round(planes[0][k] + r.nextGaussian() * noise),
                        (int) Math.round(planes[1][k] + r.nextGaussian() * noise),
                        (int) Math.round(planes[2][k] + r.nextGaussian() * noise));
            }
            image.setRGB(0, y, width, 1, row, 0, width);
        }
        return image;
    }

    /** Separable Gaussian blur in place, edges clamped. */
    static void blur(double[] plane, int width, int height, double sigma) {
        int radius = Math.max(1, (int) Math.ceil(sigma * 3));
        double[] kernel = new double[2 * radius + 1];
        double sum = 0;
        for (int i = -radius; i <= radius; i++) {
            kernel[i + radius] = Math.exp(-(i * i) / (2 * sigma * sigma));
            sum += kernel[i + radius];
        }
        for (int i = 0; i < kernel.length; i++) {
            kernel[i] /= sum;
        }
        double[] tmp = new double[plane.length];
        for (int y = 0; y < height; y++) {
            int base = y * width;
            for (int x = 0; x < width; x++) {
                double acc = 0;
                if (x >= radius && x < width - radius) { // no clamping inside: the same sums, in the same order
                    int from = base + x - radius;
                    for (int i = 0; i < kernel.length; i++) {
                        acc += plane[from + i] * kernel[i];
                    }
                } else {
                    for (int i = -radius; i <= radius; i++) {
                        int xx = Math.min(width - 1, Math.max(0, x + i));
                        acc += plane[base + xx] * kernel[i + radius];
                    }
                }
                tmp[base + x] = acc;
            }
        }
        // Down the columns a row at a time: each pixel's sum still adds its terms from the top down, so the result is
        // the same to the bit as a column's loop, without striding through the plane.
        double[] row = new double[width];
        for (int y = 0; y < height; y++) {
            java.util.Arrays.fill(row, 0);
            for (int i = -radius; i <= radius; i++) {
                int from = Math.min(height - 1, Math.max(0, y + i)) * width;
                double k = kernel[i + radius];
                for (int x = 0; x < width; x++) {
                    row[x] += tmp[from + x] * k;
                }
            }
            System.arraycopy(row, 0, plane, y * width, width);
        }
    }
}
