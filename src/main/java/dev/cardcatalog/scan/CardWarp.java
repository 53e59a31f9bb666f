package dev.cardcatalog.scan;

import boofcv.abst.geo.Estimate1ofEpipolar;
import boofcv.factory.geo.FactoryMultiView;
import boofcv.struct.geo.AssociatedPair;
import dev.cardcatalog.image.RgbImage;
import dev.cardcatalog.scan.finder.Quad;
import java.util.ArrayList;
import java.util.List;
import org.ejml.data.DMatrixRMaj;
import org.ejml.data.FMatrixRMaj;
import org.ejml.ops.ConvertMatrixData;

/**
 * Warps a card's outline in a photo upright to a card image of its own (SERVICE.md §5.10): the homography that
 * takes the rectangle of the card image to the outline (BoofCV's normalised direct linear transform,
 * {@link FactoryMultiView#homographyDLT}), and the photo sampled through it with bilinear interpolation
 * exactly as BoofCV's {@code FDistort} samples it for {@code RemovePerspectiveDistortion} ({@link #sample}). The card
 * image is then fingerprinted as any capture ({@link CaptureQueries}), its box fractions applying to it as to a
 * Scryfall {@code small} image.
 *
 * <p>Only the outline's bounding box (and 2 pixels round it) is read. Memory: the card image, {@code width × height}
 * packed RGB ints. Stateless and thread-safe.
 */
public final class CardWarp {

    /** Width, in pixels, of a card image warped from a photo: Scryfall {@code small}'s. */
    public static final int CARD_WIDTH = 146;

    /** Height, in pixels, of a card image warped from a photo: Scryfall {@code small}'s. */
    public static final int CARD_HEIGHT = 204;

    private CardWarp() {
    }

    /**
     * The card image of {@code outline}: corner 0 of the outline becomes the card image's top-left, 1 its top-right,
     * 2 its bottom-right, 3 its bottom-left.
     *
     * @param source  the photo (or a scaled decode of it)
     * @param outline the card's outline in {@code source}'s pixel-edge coordinates ({@link Quad}); it may reach
     *                outside the image, whose edge pixels then extend
     * @param width   the card image's width, in pixels, at least 1
     * @param height  its height
     * @return the card image, or null when the outline is degenerate (no homography)
     */
    public static RgbImage warp(RgbImage source, Quad outline, int width, int height) {
        return warp(source, outline, width, height, new int[] {0, 0, width, height});
    }

    /**
     * As {@link #warp(RgbImage, Quad, int, int)}, sampling only the card image's pixels in {@code region} (the same
     * values there); the others are 0. A card that is only fingerprinted needs only the pixels its fingerprints read
     * ({@link CaptureQueries#halfTurnRegion}).
     *
     * @param region {@code {fromX, fromY, toX, toY}} in the card image's pixels, the ends exclusive, within it
     * @throws IllegalArgumentException if {@code region} is not within the card image
     */
    public static RgbImage warp(RgbImage source, Quad outline, int width, int height, int[] region) {
        if (region.length != 4 || region[0] < 0 || region[1] < 0 || region[2] > width || region[3] > height
                || region[0] > region[2] || region[1] > region[3]) {
            throw new IllegalArgumentException("a region within the " + width + " x " + height + " card image: "
                    + java.util.Arrays.toString(region));
        }
        int x0 = clamp((int) Math.floor(min(outline, 0)) - 2, source.width());
        int y0 = clamp((int) Math.floor(min(outline, 1)) - 2, source.height());
        int x1 = clamp((int) Math.ceil(max(outline, 0)) + 2, source.width());
        int y1 = clamp((int) Math.ceil(max(outline, 1)) + 2, source.height());
        if (x1 - x0 < 2 || y1 - y0 < 2) {
            return null;
        }
        FMatrixRMaj h = homography(outline, x0, y0, width, height);
        if (h == null) {
            return null;
        }
        return new RgbImage(width, height, sample(source, x0, y0, x1, y1, h.data, width, height, region));
    }

    /**
     * The homography, in single precision as BoofCV's distortion applies it, that takes a pixel of a {@code width ×
     * height} card image to the photo's region whose top-left pixel is ({@code x0}, {@code y0}), both in BoofCV's
     * pixel-centre coordinates; null when the outline is degenerate.
     */
    static FMatrixRMaj homography(Quad outline, int x0, int y0, int width, int height) {
        // BoofCV's pixel (i, j) has its centre at (i, j); ours at (i + 0.5, j + 0.5).
        List<AssociatedPair> pairs = new ArrayList<>(4);
        double[][] card = {{0, 0}, {width, 0}, {width, height}, {0, height}};
        for (int k = 0; k < 4; k++) {
            pairs.add(new AssociatedPair(card[k][0] - 0.5, card[k][1] - 0.5, outline.x(k) - 0.5 - x0,
                    outline.y(k) - 0.5 - y0));
        }
        Estimate1ofEpipolar dlt = FactoryMultiView.homographyDLT(true);
        DMatrixRMaj h = new DMatrixRMaj(3, 3);
        if (!dlt.process(pairs, h)) {
            return null;
        }
        FMatrixRMaj h32 = new FMatrixRMaj(3, 3);
        ConvertMatrixData.convert(h, h32);
        return h32;
    }

    /**
     * The card image's pixels, each the photo's region [{@code x0}, {@code x1}) × [{@code y0}, {@code y1}) sampled
     * bilinearly at the point the homography {@code m} (row-major, 3 × 3) takes it to, the region's edge pixels
     * extending beyond it. The arithmetic is BoofCV's {@code FDistort} with {@code InterpolationType.BILINEAR} and
     * {@code BorderType.EXTENDED} over an interleaved 8-bit copy of the region, operation for operation in single
     * precision (the point through {@code HomographyPointOps_F32.transform}, the weights and sums of
     * {@code ImplBilinearPixel_IL_U8}, each channel truncated to a byte), so the result is bit for bit the same
     * (CardWarpTest): read straight from the packed pixels, without the copy and the per-pixel calls, it costs about
     * a tenth. Only the card image's pixels in {@code region} are sampled; the others stay 0.
     */
    private static int[] sample(RgbImage source, int x0, int y0, int x1, int y1, float[] m, int width, int height,
            int[] region) {
        int[] pixels = source.pixels();
        int stride = source.width();
        int regionW = x1 - x0;
        int regionH = y1 - y0;
        float maxFastX = regionW - 2;
        float maxFastY = regionH - 2;
        int[] out = new int[width * height];
        for (int y = region[1]; y < region[3]; y++) {
            float fy = y;
            for (int x = region[0], o = y * width + x; x < region[2]; x++, o++) {
                float fx = x;
                float z = m[6] * fx + m[7] * fy + m[8];
                float sx = (m[0] * fx + m[1] * fy + m[2]) / z;
                float sy = (m[3] * fx + m[4] * fy + m[5]) / z;
                int xt;
                int yt;
                float ax;
                float ay;
                int c0;
                int c1;
                int r0;
                int r1;
                if (sx < 0 || sy < 0 || sx > maxFastX || sy > maxFastY) {
                    float xf = (float) Math.floor(sx);
                    float yf = (float) Math.floor(sy);
                    xt = (int) xf;
                    yt = (int) yf;
                    ax = sx - xf;
                    ay = sy - yf;
                    c0 = extend(xt, regionW);
                    c1 = extend(xt + 1, regionW);
                    r0 = extend(yt, regionH);
                    r1 = extend(yt + 1, regionH);
                } else {
                    xt = (int) sx;
                    yt = (int) sy;
                    ax = sx - xt;
                    ay = sy - yt;
                    c0 = xt;
                    c1 = xt + 1;
                    r0 = yt;
                    r1 = yt + 1;
                }
                float a00 = (1.0f - ax) * (1.0f - ay);
                float a10 = ax * (1.0f - ay);
                float a11 = ax * ay;
                float a01 = (1.0f - ax) * ay;
                int p00 = pixels[(y0 + r0) * stride + x0 + c0];
                int p10 = pixels[(y0 + r0) * stride + x0 + c1];
                int p11 = pixels[(y0 + r1) * stride + x0 + c1];
                int p01 = pixels[(y0 + r1) * stride + x0 + c0];
                int rgb = 0;
                for (int shift = 16; shift >= 0; shift -= 8) {
                    float v = a00 * ((p00 >> shift) & 0xFF);
                    v += a10 * ((p10 >> shift) & 0xFF);
                    v += a11 * ((p11 >> shift) & 0xFF);
                    v += a01 * ((p01 >> shift) & 0xFF);
                    rgb |= ((int) v & 0xFF) << shift;
                }
                out[o] = rgb;
            }
        }
        return out;
    }

    /** An index beyond {@code [0, length)} moved to its nearest end (BoofCV's extended border). */
    private static int extend(int index, int length) {
        return index < 0 ? 0 : index >= length ? length - 1 : index;
    }

    private static int clamp(int v, int limit) {
        return Math.max(0, Math.min(limit, v));
    }

    private static double min(Quad q, int axis) {
        double m = Double.MAX_VALUE;
        for (int k = 0; k < 4; k++) {
            m = Math.min(m, axis == 0 ? q.x(k) : q.y(k));
        }
        return m;
    }

    private static double max(Quad q, int axis) {
        double m = -Double.MAX_VALUE;
        for (int k = 0; k < 4; k++) {
            m = Math.max(m, axis == 0 ? q.x(k) : q.y(k));
        }
        return m;
    }
}
