package dev.cardcatalog.scan.finder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.cardcatalog.image.RgbImage;
import java.util.Random;
import java.util.function.IntBinaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The contrast across an outline's sides ({@link SideContrast}): a piece of a checked or striped surface outlined by
 * the pattern's own edges has edges of both signs along a side, which cancel, while a card's side, drawn on the same
 * surfaces or faint on a white table, is one edge all along; at every size of image.
 */
class SideContrastTest {

    private static final int CHECK_A = rgb(200, 60, 60);
    private static final int CHECK_B = rgb(240, 60, 200);
    private static final int STRIPE_A = rgb(150, 180, 60);
    private static final int STRIPE_B = rgb(170, 170, 190);
    private static final int BORDER = rgb(25, 25, 30);
    private static final int ART = rgb(90, 140, 200);

    /** Checks 16 pixels a side; at {@code scale} times the size. */
    private static IntBinaryOperator checks(int scale) {
        return (x, y) -> ((x / (16 * scale)) + (y / (16 * scale))) % 2 == 0 ? CHECK_A : CHECK_B;
    }

    /**
     * Stripes 12 pixels high, turned a little so that none is a row of pixels: their edges are the lines
     * {@code y + x / 10 = 12 k}.
     */
    private static IntBinaryOperator stripes(int scale) {
        return (x, y) -> (int) Math.floor((y + 0.1 * x) / (12.0 * scale)) % 2 == 0 ? STRIPE_A : STRIPE_B;
    }

    /** A card drawn over {@code surface}: a {@code border}-coloured band 8 pixels wide around its art. */
    private static IntBinaryOperator withCard(IntBinaryOperator surface, Quad card, int border, int scale) {
        Quad art = Quad.of(card.x(0) + 8 * scale, card.y(0) + 8 * scale, card.x(1) - 8 * scale, card.y(1) + 8 * scale,
                card.x(2) - 8 * scale, card.y(2) - 8 * scale, card.x(3) + 8 * scale, card.y(3) - 8 * scale);
        return (x, y) -> art.contains(x + 0.5, y + 0.5) ? ART
                : card.contains(x + 0.5, y + 0.5) ? border : surface.applyAsInt(x, y);
    }

    @Test
    void aPieceOfACheckedSurfaceOutlinedAlongItsChecksIsOneAndACardOnItIsNot() {
        for (int scale : new int[] {1, 4}) {
            // sides along the checks' edges, 20 checks long: outwards from a check of one colour to one of the other,
            // then back (the middle 70 % that is sampled, 14 checks)
            Quad piece = Quad.of(64, 64, 384, 64, 384, 384, 64, 384).scaled(scale, scale);
            RgbImage surface = draw(480, 448, scale, checks(scale));
            assertThat(isPatternPiece(surface, piece)).as("scale %d", scale).isTrue();
            // every side is an edge, of both signs: the finder's any-sign test keeps it
            assertThat(anySign(surface, piece, scale)).isGreaterThan(OutlinePool.MIN_EDGE_CONTRAST);

            Quad card = Quad.of(113, 47, 239, 47, 239, 223, 113, 223).scaled(scale, scale);
            RgbImage cardOnChecks = draw(480, 448, scale, withCard(checks(scale), card, BORDER, scale));
            assertThat(isPatternPiece(cardOnChecks, card)).as("scale %d", scale).isFalse();
            // its border white, lighter than both checks
            RgbImage whiteCard = draw(480, 448, scale, withCard(checks(scale), card, rgb(245, 245, 240), scale));
            assertThat(isPatternPiece(whiteCard, card)).as("scale %d", scale).isFalse();
        }
    }

    @Test
    void aBandOfStripesIsOneAndACardOnThemIsNot() {
        for (int scale : new int[] {1, 4}) {
            // its top and bottom along stripes' edges, its other sides across 20 stripes (14 in their middle 70 %)
            Quad band = Quad.of(60, 90, 180, 78, 180, 318, 60, 330).scaled(scale, scale);
            RgbImage surface = draw(400, 400, scale, stripes(scale));
            assertThat(isPatternPiece(surface, band)).as("scale %d", scale).isTrue();

            Quad card = Quad.of(201, 41, 327, 41, 327, 217, 201, 217).scaled(scale, scale);
            RgbImage cardOnStripes = draw(400, 400, scale, withCard(stripes(scale), card, BORDER, scale));
            assertThat(isPatternPiece(cardOnStripes, card)).as("scale %d", scale).isFalse();
        }
    }

    @Test
    void aWhiteBorderFaintOnAWhiteTableIsACardsEdge() {
        Quad card = Quad.of(137, 62, 263, 62, 263, 238, 137, 238);
        Random noise = new Random(7);
        // 7 levels lighter a channel than the table (about 12 apart), with the sensor's noise of ±6
        RgbImage faint = draw(400, 300, 1, (x, y) -> {
            int level = (card.contains(x + 0.5, y + 0.5) ? 232 : 225) + noise.nextInt(13) - 6;
            return rgb(level, level, level);
        });
        assertThat(isPatternPiece(faint, card)).isFalse();
        // and where nothing is, nothing is outlined
        RgbImage table = draw(400, 300, 1, (x, y) -> rgb(225, 225, 225));
        assertThat(isPatternPiece(table, card)).isTrue();
    }

    @Test
    void aCardAtThePhotosEdgeIsJudgedByItsSidesInsideThePhoto() {
        // its right side along the photo's last column: nothing beyond it to compare with
        Quad card = Quad.of(274, 62, 400, 62, 400, 238, 274, 238);
        RgbImage table = draw(400, 300, 1, withCard((x, y) -> rgb(90, 60, 40), card, BORDER, 1));
        assertThat(isPatternPiece(table, card)).isFalse();
        Quad piece = Quad.of(208, 64, 400, 64, 400, 384, 208, 384);
        assertThat(isPatternPiece(draw(400, 448, 1, checks(1)), piece)).isTrue();
    }

    @Test
    void theReducedPhotosColoursAndTheImagesAreTheSameBilinearReading() {
        Random random = new Random(11);
        int[] pixels = new int[64 * 48];
        for (int i = 0; i < pixels.length; i++) {
            pixels[i] = random.nextInt(1 << 24);
        }
        RgbImage image = new RgbImage(64, 48, pixels);
        SideContrast.Colours reduced = SideContrast.colours(ReducedPhoto.reduce(image, 1));
        SideContrast.Colours own = SideContrast.colours(image);
        double[] a = new double[3];
        double[] b = new double[3];
        for (int k = 0; k < 1_000; k++) {
            double x = random.nextDouble() * 63;
            double y = random.nextDouble() * 47;
            reduced.at(x, y, a);
            own.at(x, y, b);
            for (int c = 0; c < 3; c++) {
                assertThat(b[c]).as("(%.3f, %.3f) channel %d", x, y, c).isCloseTo(a[c], within(1e-3));
            }
        }
    }

    private static boolean isPatternPiece(RgbImage image, Quad outline) {
        return SideContrast.oneSign(image, outline) < SideContrast.MIN_ONE_SIGN;
    }

    private static double anySign(RgbImage image, Quad outline, int scale) {
        return SideContrast.least(outline.translated(-0.5, -0.5), image.width(), image.height(),
                new double[] {SideContrast.STEP * scale}, SideContrast.colours(image), SideContrast.ANY_SIGN);
    }

    private static RgbImage draw(int width, int height, int scale, IntBinaryOperator colour) {
        int w = width * scale;
        int h = height * scale;
        int[] pixels = new int[w * h];
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                pixels[y * w + x] = colour.applyAsInt(x, y);
            }
        }
        return new RgbImage(w, h, pixels);
    }

    private static int rgb(int r, int g, int b) {
        return r << 16 | g << 8 | b;
    }
}
