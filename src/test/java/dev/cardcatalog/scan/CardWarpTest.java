package dev.cardcatalog.scan;

import static org.assertj.core.api.Assertions.assertThat;

import boofcv.abst.distort.FDistort;
import boofcv.alg.distort.PointTransformHomography_F32;
import boofcv.alg.interpolate.InterpolationType;
import boofcv.struct.border.BorderType;
import boofcv.struct.image.InterleavedU8;
import dev.cardcatalog.image.RgbImage;
import dev.cardcatalog.scan.finder.Quad;
import java.util.Random;
import org.ejml.data.FMatrixRMaj;
import org.junit.jupiter.api.Test;

/**
 * {@link CardWarp} samples a card's outline bit for bit as BoofCV's {@link FDistort} does (bilinear, extended border)
 * over an interleaved copy of the outline's region, the way the warp was made before it read the packed pixels
 * itself: so every fingerprint of a warped card, and every accuracy figure measured on them, stands.
 */
class CardWarpTest {

    @Test
    void outlinesInsideThePhotoAcrossItsEdgesAndAtEverySizeWarpAsBoofCvDoes() {
        Random random = new Random(24);
        int checked = 0;
        for (int photo = 0; photo < 12; photo++) {
            RgbImage image = noise(random, 40 + random.nextInt(700), 40 + random.nextInt(700));
            for (int k = 0; k < 40; k++) {
                Quad outline = randomOutline(random, image, photo % 3 == 0 ? 0.4 : 0.05);
                int width = 8 + random.nextInt(300);
                int height = 8 + random.nextInt(420);
                RgbImage fast = CardWarp.warp(image, outline, width, height);
                RgbImage reference = boofCv(image, outline, width, height);
                if (reference == null) {
                    assertThat(fast).as("%s", outline).isNull();
                    continue;
                }
                assertThat(fast).as("%s", outline).isNotNull();
                assertThat(fast.pixels()).as("%s at %d x %d", outline, width, height).isEqualTo(reference.pixels());
                checked++;
            }
        }
        assertThat(checked).isGreaterThan(400);
    }

    @Test
    void aCardTurnedTiltedAndSmallInAPhotoWarpsAsBoofCvDoes() {
        Random random = new Random(7);
        RgbImage image = noise(random, 504, 378);
        // the shapes the finder gives: turned any way, in perspective, from a few pixels to the whole photo, and
        // grown past the photo's edge as the match grows an outline for a card's border
        Quad[] outlines = {
            Quad.of(10.25, 12.5, 160.75, 20, 150, 230.5, 4, 220),
            Quad.of(300, 40, 480, 130, 400, 360, 210, 260),
            Quad.of(-20, -15, 520, -10, 515, 390, -8, 395),
            Quad.of(250, 150, 262.5, 151, 262, 168, 249.5, 167),
            Quad.of(0, 0, 504, 0, 504, 378, 0, 378),
        };
        for (Quad outline : outlines) {
            for (int[] size : new int[][] {{146, 204}, {292, 408}, {200, 279}}) {
                assertThat(CardWarp.warp(image, outline, size[0], size[1]).pixels()).as("%s", outline)
                        .isEqualTo(boofCv(image, outline, size[0], size[1]).pixels());
            }
        }
    }

    @Test
    void aRegionOfTheCardImageIsSampledAsTheWholeIsAndTheRestLeftBlack() {
        Random random = new Random(55);
        RgbImage image = noise(random, 504, 378);
        for (int k = 0; k < 200; k++) {
            Quad outline = randomOutline(random, image, 0.2);
            int width = 1 + random.nextInt(300);
            int height = 1 + random.nextInt(420);
            int fromX = random.nextInt(width + 1);
            int fromY = random.nextInt(height + 1);
            int[] region = {fromX, fromY, fromX + random.nextInt(width - fromX + 1),
                fromY + random.nextInt(height - fromY + 1)};
            RgbImage whole = CardWarp.warp(image, outline, width, height);
            RgbImage part = CardWarp.warp(image, outline, width, height, region);
            if (whole == null) {
                assertThat(part).isNull();
                continue;
            }
            for (int y = 0; y < height; y++) {
                for (int x = 0; x < width; x++) {
                    boolean inside = x >= region[0] && x < region[2] && y >= region[1] && y < region[3];
                    assertThat(part.pixels()[y * width + x]).as("(%d, %d) of %s", x, y, java.util.Arrays.toString(region))
                            .isEqualTo(inside ? whole.pixels()[y * width + x] : 0);
                }
            }
        }
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> CardWarp.warp(image, Quad.frame(100, 100), 10, 10,
                new int[] {0, 0, 11, 10})).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("10 x 10");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> CardWarp.warp(image, Quad.frame(100, 100), 10, 10,
                new int[] {5, 0, 4, 10})).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aCardWarpedOnlyWhereItsFingerprintsReadHasTheFingerprintsOfTheWholeAtBothEnds() {
        // PhotoMatch warps only CaptureQueries.halfTurnRegion of a card: its queries at 0 and 180 degrees must be
        // those of the card warped whole, at every size a card is warped to and at sizes around them
        Random random = new Random(56);
        RgbImage image = noise(random, 504, 378);
        int checked = 0;
        for (int k = 0; k < 120; k++) {
            Quad outline = randomOutline(random, image, 0.1);
            int width = k < 60 ? CardWarp.CARD_WIDTH + random.nextInt(CardWarp.CARD_WIDTH + 1) : 4 + random.nextInt(400);
            int height = k < 60 ? (int) Math.round(width * (double) CardWarp.CARD_HEIGHT / CardWarp.CARD_WIDTH)
                    : 4 + random.nextInt(400);
            int[] region = CaptureQueries.halfTurnRegion(width, height);
            RgbImage whole = CardWarp.warp(image, outline, width, height);
            if (whole == null) {
                continue;
            }
            RgbImage part = CardWarp.warp(image, outline, width, height, region);
            byte[][] expected = CaptureQueries.of(whole, java.util.List.of(0, 180)).fingerprints();
            byte[][] actual = CaptureQueries.of(part, java.util.List.of(0, 180)).fingerprints();
            for (int q = 0; q < expected.length; q++) {
                assertThat(actual[q]).as("query %d at %d x %d", q, width, height).isEqualTo(expected[q]);
            }
            checked++;
        }
        assertThat(checked).isGreaterThan(100);
        int[] card = CaptureQueries.halfTurnRegion(CardWarp.CARD_WIDTH, CardWarp.CARD_HEIGHT);
        double share = (double) (card[2] - card[0]) * (card[3] - card[1]) / (CardWarp.CARD_WIDTH * CardWarp.CARD_HEIGHT);
        assertThat(share).as("the share of a card image warped").isBetween(0.5, 0.65);
    }

    private static Quad randomOutline(Random random, RgbImage image, double beyond) {
        double[] xy = new double[8];
        double cx = random.nextDouble() * image.width();
        double cy = random.nextDouble() * image.height();
        double r = (0.02 + random.nextDouble()) * Math.max(image.width(), image.height()) / 2;
        double turn = random.nextDouble() * 2 * Math.PI;
        for (int k = 0; k < 4; k++) {
            double a = turn + k * Math.PI / 2 + (random.nextDouble() - 0.5) * 0.6;
            double d = r * (0.7 + 0.6 * random.nextDouble());
            xy[2 * k] = cx + d * Math.cos(a) + (random.nextDouble() - 0.5) * beyond * image.width();
            xy[2 * k + 1] = cy + d * Math.sin(a) + (random.nextDouble() - 0.5) * beyond * image.height();
        }
        return new Quad(xy);
    }

    private static RgbImage noise(Random random, int width, int height) {
        int[] pixels = new int[width * height];
        for (int i = 0; i < pixels.length; i++) {
            // smooth and sharp changes both: a gradient with noise and speckles
            int x = i % width;
            int y = i / width;
            int base = (x * 255 / width) << 16 | (y * 255 / height) << 8 | ((x + y) & 0xFF);
            pixels[i] = random.nextInt(10) == 0 ? random.nextInt(0x1000000) : base ^ random.nextInt(16);
        }
        return new RgbImage(width, height, pixels);
    }

    /** The warp as it was made with BoofCV's distortion: the region copied out, then FDistort over it. */
    private static RgbImage boofCv(RgbImage source, Quad outline, int width, int height) {
        int x0 = clamp((int) Math.floor(min(outline, true)) - 2, source.width());
        int y0 = clamp((int) Math.floor(min(outline, false)) - 2, source.height());
        int x1 = clamp((int) Math.ceil(max(outline, true)) + 2, source.width());
        int y1 = clamp((int) Math.ceil(max(outline, false)) + 2, source.height());
        if (x1 - x0 < 2 || y1 - y0 < 2) {
            return null;
        }
        InterleavedU8 region = new InterleavedU8(x1 - x0, y1 - y0, 3);
        for (int y = y0, i = 0; y < y1; y++) {
            for (int x = x0; x < x1; x++) {
                int p = source.pixels()[y * source.width() + x];
                region.data[i++] = (byte) (p >> 16);
                region.data[i++] = (byte) (p >> 8);
                region.data[i++] = (byte) p;
            }
        }
        FMatrixRMaj h = CardWarp.homography(outline, x0, y0, width, height);
        if (h == null) {
            return null;
        }
        InterleavedU8 out = new InterleavedU8(width, height, 3);
        new FDistort(region, out).interp(InterpolationType.BILINEAR).border(BorderType.EXTENDED)
                .transform(new PointTransformHomography_F32(h)).apply();
        int[] rgb = new int[width * height];
        for (int k = 0, i = 0; k < rgb.length; k++, i += 3) {
            rgb[k] = ((out.data[i] & 0xFF) << 16) | ((out.data[i + 1] & 0xFF) << 8) | (out.data[i + 2] & 0xFF);
        }
        return new RgbImage(width, height, rgb);
    }

    private static int clamp(int v, int limit) {
        return Math.max(0, Math.min(limit, v));
    }

    private static double min(Quad q, boolean x) {
        double m = Double.MAX_VALUE;
        for (int k = 0; k < 4; k++) {
            m = Math.min(m, x ? q.x(k) : q.y(k));
        }
        return m;
    }

    private static double max(Quad q, boolean x) {
        double m = -Double.MAX_VALUE;
        for (int k = 0; k < 4; k++) {
            m = Math.max(m, x ? q.x(k) : q.y(k));
        }
        return m;
    }
}
