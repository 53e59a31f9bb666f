package dev.cardcatalog.scan;

import boofcv.abst.distort.FDistort;
import boofcv.abst.geo.Estimate1ofEpipolar;
import boofcv.alg.distort.PointTransformHomography_F32;
import boofcv.alg.interpolate.InterpolationType;
import boofcv.factory.geo.FactoryMultiView;
import boofcv.struct.border.BorderType;
import boofcv.struct.geo.AssociatedPair;
import boofcv.struct.image.InterleavedU8;
import dev.cardcatalog.art.RgbImage;
import java.util.ArrayList;
import java.util.List;
import org.ejml.data.DMatrixRMaj;
import org.ejml.data.FMatrixRMaj;
import org.ejml.ops.ConvertMatrixData;

/**
 * Warps a card's outline in a photo upright to a card image of its own (SERVICE.md §5.10): the homography that
 * takes the rectangle of the card image to the outline (BoofCV's normalised direct linear transform,
 * {@link FactoryMultiView#homographyDLT}), and the photo sampled through it with bilinear interpolation
 * ({@link FDistort}), as BoofCV's {@code RemovePerspectiveDistortion} does. The card image is then fingerprinted as
 * any capture ({@link CaptureQueries}), its box fractions applying to it as to a Scryfall {@code small} image.
 *
 * <p>Only the outline's bounding box is copied out of the photo. Memory: that box (3 bytes a pixel) and the card
 * image ({@code width × height}, 3 bytes a pixel, then 4 as packed RGB). Stateless and thread-safe.
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
        int x0 = clamp((int) Math.floor(min(outline, 0)) - 2, source.width());
        int y0 = clamp((int) Math.floor(min(outline, 1)) - 2, source.height());
        int x1 = clamp((int) Math.ceil(max(outline, 0)) + 2, source.width());
        int y1 = clamp((int) Math.ceil(max(outline, 1)) + 2, source.height());
        if (x1 - x0 < 2 || y1 - y0 < 2) {
            return null;
        }
        InterleavedU8 region = new InterleavedU8(x1 - x0, y1 - y0, 3);
        int[] pixels = source.pixels();
        byte[] data = region.data;
        for (int y = y0, i = 0; y < y1; y++) {
            int row = y * source.width();
            for (int x = x0; x < x1; x++) {
                int p = pixels[row + x];
                data[i++] = (byte) (p >> 16);
                data[i++] = (byte) (p >> 8);
                data[i++] = (byte) p;
            }
        }
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
        PointTransformHomography_F32 transform = new PointTransformHomography_F32(h32);
        InterleavedU8 out = new InterleavedU8(width, height, 3);
        new FDistort(region, out).interp(InterpolationType.BILINEAR).border(BorderType.EXTENDED)
                .transform(transform).apply();
        int[] rgb = new int[width * height];
        byte[] o = out.data;
        for (int k = 0, i = 0; k < rgb.length; k++, i += 3) {
            rgb[k] = ((o[i] & 0xFF) << 16) | ((o[i + 1] & 0xFF) << 8) | (o[i + 2] & 0xFF);
        }
        return new RgbImage(width, height, rgb);
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
