package dev.cardcatalog.testing;

import java.awt.image.BufferedImage;
import java.util.SplittableRandom;

/**
 * Deterministic, card-like test pictures: one distinct artwork per {@code long} seed (no real card art is used).
 *
 * <p>A card is a dark frame, a card body in one of a few colour schemes, a name bar and a type line with dark
 * "ink" marks, a text box with lines of ink, and an art box (x 7.5–92.5 %, y 12.3–55.4 % of the card, like a
 * Scryfall {@code small} image) holding the artwork: a sky-to-ground gradient, a low-frequency "plasma" of a few
 * sinusoids, three to seven shapes (ellipses, rectangles, triangles, each with its own gradient) and a fine value
 * noise texture. Everything is a function of the position on the card in fractions, so one card can be drawn at
 * any size: {@link #smallImage(long)} is the 146×204 picture the index is built from, and {@link CaptureSimulator}
 * samples the same function at its own resolution, as a camera sees the printed card.
 *
 * <p>The same seed gives the same picture on every run of the same JDK. Different seeds give fingerprints about
 * 350–550 bits apart (measured in {@code CardArtGeneratorTest}).
 */
public final class CardArtGenerator {

    /** Width of a Scryfall {@code small} image, in pixels. */
    public static final int SMALL_WIDTH = 146;

    /** Height of a Scryfall {@code small} image, in pixels. */
    public static final int SMALL_HEIGHT = 204;

    /** JPEG quality of {@link #smallJpeg(long)}. */
    public static final float SMALL_JPEG_QUALITY = 0.85f;

    // The art box on the card, in fractions (from a 146x204 layout: x 11..135, y 25..113).
    static final double ART_U0 = 11.0 / 146;
    static final double ART_U1 = 135.0 / 146;
    static final double ART_V0 = 25.0 / 204;
    static final double ART_V1 = 113.0 / 204;

    private CardArtGenerator() {
    }

    /** The card of {@code seed}: a function from card position to colour. */
    public static Card card(long seed) {
        return new Card(seed);
    }

    /** The card of {@code seed} drawn at 146×204 (2×2 samples a pixel), as an RGB image. */
    public static BufferedImage smallImage(long seed) {
        return card(seed).render(SMALL_WIDTH, SMALL_HEIGHT, 2);
    }

    /** The card of {@code seed} as a 146×204 baseline JPEG (quality {@value #SMALL_JPEG_QUALITY}). */
    public static byte[] smallJpeg(long seed) {
        return TestImageFiles.jpeg(smallImage(seed), SMALL_JPEG_QUALITY);
    }

    /**
     * The artwork id the tests and benchmarks give the card of {@code seed} in an index: a name-based UUID of
     * {@code "artwork-<seed>"}, so a photo's seed and its expected answer agree across runs and classes.
     */
    public static java.util.UUID artworkId(long seed) {
        return java.util.UUID.nameUUIDFromBytes(
                ("artwork-" + seed).getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    /** One generated card; immutable. */
    public static final class Card {

        private final int frame;
        private final int body;
        private final int bar;
        private final int ink;
        private final int textBox;
        private final long inkSeed;

        private final int skyTop;
        private final int skyHorizon;
        private final int groundNear;
        private final int groundFar;
        private final double horizon;
        private final double horizonTilt;

        private final double[][] waves; // per wave: fu, fv, phase, ampR, ampG, ampB
        private final Shape[] shapes;
        private final long noiseSeed;
        private final double noiseAmp;
        private final double noiseFreq;

        private Card(long seed) {
            SplittableRandom r = new SplittableRandom(seed ^ 0x5DEECE66DL);
            int scheme = r.nextInt(6);
            int[][] bodies = {{214, 206, 180}, {120, 160, 205}, {90, 86, 92}, {205, 110, 85}, {115, 165, 110},
                    {200, 175, 110}};
            int[] b = bodies[scheme];
            frame = rgb(15 + r.nextInt(20), 15 + r.nextInt(20), 15 + r.nextInt(20));
            body = rgb(jitter(r, b[0], 12), jitter(r, b[1], 12), jitter(r, b[2], 12));
            bar = rgb(clamp(b[0] + 30), clamp(b[1] + 30), clamp(b[2] + 30));
            ink = rgb(20 + r.nextInt(30), 18 + r.nextInt(30), 15 + r.nextInt(30));
            textBox = rgb(230 + r.nextInt(20), 222 + r.nextInt(20), 205 + r.nextInt(25));
            inkSeed = r.nextLong();

            skyTop = randomColour(r);
            skyHorizon = randomColour(r);
            groundFar = randomColour(r);
            groundNear = randomColour(r);
            horizon = 0.3 + 0.4 * r.nextDouble();
            horizonTilt = (r.nextDouble() - 0.5) * 0.4;

            waves = new double[3 + r.nextInt(3)][];
            for (int k = 0; k < waves.length; k++) {
                double angle = r.nextDouble() * Math.PI * 2;
                double frequency = 1.0 + r.nextDouble() * 3.5; // cycles across the art
                waves[k] = new double[] {Math.cos(angle) * frequency * Math.PI * 2,
                        Math.sin(angle) * frequency * Math.PI * 2, r.nextDouble() * Math.PI * 2,
                        (r.nextDouble() - 0.5) * 70, (r.nextDouble() - 0.5) * 70, (r.nextDouble() - 0.5) * 70};
            }
            shapes = new Shape[3 + r.nextInt(5)];
            for (int k = 0; k < shapes.length; k++) {
                shapes[k] = new Shape(r);
            }
            noiseSeed = r.nextLong();
            noiseAmp = 6 + r.nextDouble() * 10;
            noiseFreq = 30 + r.nextDouble() * 30;
        }

        /** Draws the card at {@code width}×{@code height} with {@code samples}×{@code samples} samples a pixel. */
        public BufferedImage render(int width, int height, int samples) {
            BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
            int[] row = new int[width];
            for (int y = 0; y < height; y++) {
                for (int x = 0; x < width; x++) {
                    int sr = 0;
                    int sg = 0;
                    int sb = 0;
                    for (int sy = 0; sy < samples; sy++) {
                        for (int sx = 0; sx < samples; sx++) {
                            double u = (x + (sx + 0.5) / samples) / width;
                            double v = (y + (sy + 0.5) / samples) / height;
                            int c = rgbAt(u, v);
                            sr += (c >> 16) & 0xFF;
                            sg += (c >> 8) & 0xFF;
                            sb += c & 0xFF;
                        }
                    }
                    int n = samples * samples;
                    row[x] = rgb((sr + n / 2) / n, (sg + n / 2) / n, (sb + n / 2) / n);
                }
                image.setRGB(0, y, width, 1, row, 0, width);
            }
            return image;
        }

        /**
         * The colour at card position ({@code u}, {@code v}), both fractions of the card's width and height (0 at
         * the top-left corner), as packed {@code 0xRRGGBB}.
         */
        public int rgbAt(double u, double v) {
            double x = u * 146; // layout in Scryfall small pixels
            double y = v * 204;
            if (x < 7 || x >= 139 || y < 7 || y >= 197) {
                return frame;
            }
            if (u >= ART_U0 && u < ART_U1 && v >= ART_V0 && v < ART_V1) {
                return art((u - ART_U0) / (ART_U1 - ART_U0), (v - ART_V0) / (ART_V1 - ART_V0));
            }
            if (x >= 10 && x < 136 && y >= 10 && y < 23) {
                return inkMark(x, y, 14, 13, 90, 19, 5) ? ink : bar;
            }
            if (x >= 10 && x < 136 && y >= 115 && y < 127) {
                return inkMark(x, y, 14, 118, 80, 124, 3) ? ink : bar;
            }
            if (x >= 12 && x < 134 && y >= 129 && y < 187) {
                boolean line = ((int) Math.floor((y - 132) / 8)) >= 0 && (y - 132) % 8 < 3 && y < 181
                        && x >= 16 && x < 130;
                return line && inkMark(x, y, 16, 132, 130, 181, 1) ? ink : textBox;
            }
            return body;
        }

        /** Ink in words: runs of about 3–9 "pixels" with gaps, from the card's ink seed. */
        private boolean inkMark(double x, double y, double x0, double y0, double x1, double y1, int salt) {
            if (x < x0 || x >= x1 || y < y0 || y >= y1) {
                return false;
            }
            long cell = (long) Math.floor(x / 2.0) + 1000L * (long) Math.floor((y - y0) / 8) + 100000L * salt;
            return (mix(inkSeed + cell) & 7) < 6 && (mix(inkSeed ^ ((long) Math.floor(x / 7.0) * 31 + salt)) & 3) != 0;
        }

        private int art(double s, double t) {
            // Sky to horizon, then ground, with a tilted horizon line.
            double h = horizon + horizonTilt * (s - 0.5);
            double r;
            double g;
            double b;
            if (t < h) {
                double k = t / h;
                r = lerp(channel(skyTop, 16), channel(skyHorizon, 16), k);
                g = lerp(channel(skyTop, 8), channel(skyHorizon, 8), k);
                b = lerp(channel(skyTop, 0), channel(skyHorizon, 0), k);
            } else {
                double k = (t - h) / (1 - h);
                r = lerp(channel(groundFar, 16), channel(groundNear, 16), k);
                g = lerp(channel(groundFar, 8), channel(groundNear, 8), k);
                b = lerp(channel(groundFar, 0), channel(groundNear, 0), k);
            }
            for (double[] w : waves) {
                double sin = Math.sin(w[0] * s + w[1] * t + w[2]);
                r += w[3] * sin;
                g += w[4] * sin;
                b += w[5] * sin;
            }
            for (Shape shape : shapes) {
                double cover = shape.cover(s, t);
                if (cover > 0) {
                    double k = shape.shade(s, t);
                    r = lerp(r, lerp(channel(shape.colourA, 16), channel(shape.colourB, 16), k), cover);
                    g = lerp(g, lerp(channel(shape.colourA, 8), channel(shape.colourB, 8), k), cover);
                    b = lerp(b, lerp(channel(shape.colourA, 0), channel(shape.colourB, 0), k), cover);
                }
            }
            double n = noiseAmp * valueNoise(s * noiseFreq, t * noiseFreq * 0.7);
            return rgb(clamp((int) Math.round(r + n)), clamp((int) Math.round(g + n * 0.9)),
                    clamp((int) Math.round(b + n * 0.8)));
        }

        /** Bilinear value noise on an integer lattice, values in [-1, 1]. */
        private double valueNoise(double x, double y) {
            long x0 = (long) Math.floor(x);
            long y0 = (long) Math.floor(y);
            double fx = x - x0;
            double fy = y - y0;
            double a = lattice(x0, y0);
            double b = lattice(x0 + 1, y0);
            double c = lattice(x0, y0 + 1);
            double d = lattice(x0 + 1, y0 + 1);
            return lerp(lerp(a, b, fx), lerp(c, d, fx), fy);
        }

        private double lattice(long x, long y) {
            long h = mix(noiseSeed + x * 0x9E3779B97F4A7C15L + y * 0xC2B2AE3D27D4EB4FL);
            return ((h >>> 11) * 0x1.0p-53) * 2 - 1;
        }
    }

    /** A shape in art coordinates (0–1 each way) with a linear colour gradient. */
    private static final class Shape {
        final int kind;
        final double cx;
        final double cy;
        final double rx;
        final double ry;
        final double cos;
        final double sin;
        final int colourA;
        final int colourB;
        final double gx;
        final double gy;

        Shape(SplittableRandom r) {
            kind = r.nextInt(3);
            cx = r.nextDouble();
            cy = r.nextDouble();
            rx = 0.08 + r.nextDouble() * 0.25;
            ry = 0.08 + r.nextDouble() * 0.3;
            double angle = r.nextDouble() * Math.PI;
            cos = Math.cos(angle);
            sin = Math.sin(angle);
            colourA = randomColour(r);
            colourB = randomColour(r);
            double ga = r.nextDouble() * Math.PI * 2;
            gx = Math.cos(ga);
            gy = Math.sin(ga);
        }

        /** 1 inside, 0 outside, a soft edge of about 1 % of the art between. */
        double cover(double s, double t) {
            double dx = s - cx;
            double dy = t - cy;
            double a = (dx * cos + dy * sin) / rx;
            double b = (-dx * sin + dy * cos) / ry;
            double distance; // > 0 outside, in units of the shape's size
            switch (kind) {
                case 0 -> distance = Math.sqrt(a * a + b * b) - 1;
                case 1 -> distance = Math.max(Math.abs(a), Math.abs(b)) - 1;
                default -> distance = Math.max(Math.max(-b - 0.5, b + a * 1.7 - 1), b - a * 1.7 - 1);
            }
            double edge = 0.02 / Math.min(rx, ry);
            if (distance <= -edge) {
                return 1;
            }
            if (distance >= edge) {
                return 0;
            }
            return (edge - distance) / (2 * edge);
        }

        double shade(double s, double t) {
            double k = ((s - cx) * gx + (t - cy) * gy) / Math.max(rx, ry) * 0.5 + 0.5;
            return Math.max(0, Math.min(1, k));
        }
    }

    static int randomColour(SplittableRandom r) {
        return rgb(r.nextInt(256), r.nextInt(256), r.nextInt(256));
    }

    static int rgb(int r, int g, int b) {
        return (clamp(r) << 16) | (clamp(g) << 8) | clamp(b);
    }

    static int clamp(int v) {
        return v < 0 ? 0 : Math.min(255, v);
    }

    private static int jitter(SplittableRandom r, int v, int by) {
        return clamp(v + r.nextInt(2 * by + 1) - by);
    }

    private static double channel(int rgb, int shift) {
        return (rgb >> shift) & 0xFF;
    }

    private static double lerp(double a, double b, double k) {
        return a + (b - a) * k;
    }

    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
