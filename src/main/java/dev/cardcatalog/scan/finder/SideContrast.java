package dev.cardcatalog.scan.finder;

import dev.cardcatalog.image.RgbImage;

/**
 * How clearly each side of an outline is an edge: colours sampled a short step either side of it, along its middle
 * (from 15 % to 85 % of its length, clear of rounded corners), compared side by side. Two measures, each the least
 * over the four sides:
 * <ul>
 *   <li>{@linkplain #ANY_SIGN any sign}: the mean of the colour differences' lengths. Every edge counts, whichever
 *       way it runs: an outline kept by the finder has at least {@value OutlinePool#MIN_EDGE_CONTRAST}
 *       ({@link OutlinePool}).</li>
 *   <li>{@linkplain #ONE_SIGN one sign}: the length of the mean colour difference. Along a card's side the step
 *       outwards goes from its border (or its sleeve's) to the surface, the same way all along, and the differences
 *       add up; a side drawn across a pattern's checks or stripes meets edges that run both ways, and they cancel, to
 *       within the share of a period left over at its ends (a side over many checks cancels, one over two or three
 *       need not). {@link #oneSign} measures it.</li>
 * </ul>
 * Colours are 0–255 a channel and differences Euclidean over R, G and B; points are pixel centres of the image
 * sampled, read bilinearly. A side with no pair of points inside the image (along the image's edge) measures 0 any
 * sign and is not judged one sign (the least of the others; {@link Double#MAX_VALUE} when none is judged).
 */
public final class SideContrast {

    private SideContrast() {
    }

    /** Whether differences add up as lengths ({@link #ANY_SIGN}) or as colour vectors ({@link #ONE_SIGN}). */
    static final boolean ANY_SIGN = false;

    /** See {@link #ANY_SIGN}. */
    static final boolean ONE_SIGN = true;

    /**
     * The least one-sign contrast ({@link #ONE_SIGN}, at {@link #ONE_SIGN_STEPS}) an outline must have on every side
     * to be answered when no artwork is confident of it; units of colour distance, 0–255 a channel. Chosen on the
     * simulated whole photos' answers without it (docs/benchmarks.md, "Pieces of a pattern"): the pieces of a pattern
     * answered in place of cards had 1.1–1.4 on their weakest side, of 1,558 cards of art not in the index outlined
     * right one had less than 2 (0.6), the next 2.9; real cards' outlines right are kept down to 2.8. A card whose
     * border has, along a whole side, the mean colour of the pattern's colours there would fail it too: that is why
     * only outlines no artwork is confident of are judged, and a card whose edge fails is answered by another of its
     * outlines that passes.
     */
    public static final double MIN_ONE_SIGN = 2;

    /** How far either side of an outline's side colours are sampled for the any-sign contrast, in pixels. */
    static final double STEP = 1.5;

    /**
     * How far either side of an outline's side colours are sampled for the one-sign contrast, in pixels: from the
     * edge to a few pixels off it, so that an outline a pixel or two off a card's edge still reads its border inside
     * and the surface outside.
     */
    static final double[] ONE_SIGN_STEPS = {1.5, 3, 4.5};

    /**
     * The one-sign contrast ({@link #ONE_SIGN}) of {@code outline}'s weakest side, sampled {@link #ONE_SIGN_STEPS}
     * pixels either side of it in {@code image} as the finder reduces it (to at most {@value CardFinder#SEARCH_SIDE}
     * pixels a side: farther apart, in the image's own pixels, in a larger image); colour distance, 0–255 a channel,
     * {@link Double#MAX_VALUE} when no side has a pair of points inside the image.
     *
     * @param image   the image the outline was found in
     * @param outline the outline, in {@code image}'s pixel-edge coordinates
     */
    public static double oneSign(RgbImage image, Quad outline) {
        double reduced = Math.max(1, (double) Math.max(image.width(), image.height()) / CardFinder.SEARCH_SIDE);
        Quad centres = outline.translated(-0.5, -0.5);
        double[] steps = new double[ONE_SIGN_STEPS.length];
        for (int k = 0; k < steps.length; k++) {
            steps[k] = ONE_SIGN_STEPS[k] * reduced;
        }
        return least(centres, image.width(), image.height(), steps, colours(image), ONE_SIGN);
    }

    /** A colour read at a point, into {@code rgb}: three values, 0–255. */
    interface Colours {
        void at(double x, double y, double[] rgb);
    }

    /**
     * The least over {@code quad}'s four sides of their contrast, {@code oneSign} or not ({@link #ANY_SIGN},
     * {@link #ONE_SIGN}), colours read each of {@code steps} pixels either side of each side (all of them counted
     * together).
     *
     * @param quad pixel-centre coordinates of an image {@code w × h} pixels
     */
    static double least(Quad quad, int w, int h, double[] steps, Colours colours, boolean oneSign) {
        double least = Double.MAX_VALUE;
        double cx = quad.centreX();
        double cy = quad.centreY();
        double[] out = new double[3];
        double[] in = new double[3];
        for (int side = 0; side < 4; side++) {
            double x0 = quad.x(side);
            double y0 = quad.y(side);
            double x1 = quad.x(side + 1);
            double y1 = quad.y(side + 1);
            double length = Math.hypot(x1 - x0, y1 - y0);
            if (length < 1) {
                return 0;
            }
            double nx = -(y1 - y0) / length;
            double ny = (x1 - x0) / length;
            if (nx * ((x0 + x1) / 2 - cx) + ny * ((y0 + y1) / 2 - cy) < 0) {
                nx = -nx; // outwards
                ny = -ny;
            }
            int samples = Math.max(4, (int) (length / 2));
            double sum = 0;
            double sumR = 0;
            double sumG = 0;
            double sumB = 0;
            int counted = 0;
            for (double step : steps) {
                for (int k = 0; k < samples; k++) {
                    double t = 0.15 + 0.7 * (k + 0.5) / samples;
                    double px = x0 + t * (x1 - x0);
                    double py = y0 + t * (y1 - y0);
                    double ox = px + step * nx;
                    double oy = py + step * ny;
                    double ix = px - step * nx;
                    double iy = py - step * ny;
                    if (ox < 0 || oy < 0 || ox > w - 1 || oy > h - 1 || ix < 0 || iy < 0 || ix > w - 1
                            || iy > h - 1) {
                        continue;
                    }
                    colours.at(ox, oy, out);
                    colours.at(ix, iy, in);
                    double dr = out[0] - in[0];
                    double dg = out[1] - in[1];
                    double db = out[2] - in[2];
                    sum += Math.sqrt(dr * dr + dg * dg + db * db);
                    sumR += dr;
                    sumG += dg;
                    sumB += db;
                    counted++;
                }
            }
            if (counted == 0 && oneSign) {
                continue; // a side along the image's edge, the surface beyond it unseen: not judged
            }
            double contrast = counted == 0 ? 0
                    : oneSign ? Math.sqrt(sumR * sumR + sumG * sumG + sumB * sumB) / counted : sum / counted;
            least = Math.min(least, contrast);
        }
        return least;
    }

    /** The reduced photo's colours, bilinear over its planes. */
    static Colours colours(ReducedPhoto small) {
        int w = small.grey().width;
        return (x, y, rgb) -> {
            rgb[0] = bilinear(small.red(), w, x, y);
            rgb[1] = bilinear(small.green(), w, x, y);
            rgb[2] = bilinear(small.blue(), w, x, y);
        };
    }

    /** The image's colours, bilinear over its pixels (at least 2 × 2, as every image searched is). */
    static Colours colours(RgbImage image) {
        int w = image.width();
        int h = image.height();
        return (x, y, rgb) -> {
            int x0 = Math.min((int) x, w - 2);
            int y0 = Math.min((int) y, h - 2);
            double fx = x - x0;
            double fy = y - y0;
            int a = image.rgb(x0, y0);
            int b = image.rgb(x0 + 1, y0);
            int c = image.rgb(x0, y0 + 1);
            int d = image.rgb(x0 + 1, y0 + 1);
            for (int channel = 0, shift = 16; channel < 3; channel++, shift -= 8) {
                double top = ((a >> shift) & 0xFF) * (1 - fx) + ((b >> shift) & 0xFF) * fx;
                double bottom = ((c >> shift) & 0xFF) * (1 - fx) + ((d >> shift) & 0xFF) * fx;
                rgb[channel] = top * (1 - fy) + bottom * fy;
            }
        };
    }

    private static double bilinear(float[] plane, int w, double x, double y) {
        int x0 = Math.min((int) x, w - 2);
        int y0 = (int) y;
        int h = plane.length / w;
        y0 = Math.min(y0, h - 2);
        double fx = x - x0;
        double fy = y - y0;
        int i = y0 * w + x0;
        return (plane[i] * (1 - fx) + plane[i + 1] * fx) * (1 - fy) + (plane[i + w] * (1 - fx) + plane[i + w + 1] * fx)
                * fy;
    }
}
