package dev.cardcatalog.scan;

import dev.cardcatalog.art.ArtFingerprint;
import dev.cardcatalog.art.FingerprintSettings;
import dev.cardcatalog.image.ImageOrientation;
import dev.cardcatalog.image.RgbImage;
import dev.cardcatalog.scan.finder.Quad;
import java.util.List;

/**
 * The query fingerprints of an uploaded capture (SERVICE.md §5.9): the six offsets of FINGERPRINT.md §7 for each
 * turn of the upright capture that could show the card upright, so a card photographed sideways or upside down
 * without an EXIF tag is still found. The turns are 0°, 90°, 180° and 270° clockwise, in that order, and a capture
 * tries those that leave it the shape of a card (§5.1: a card is portrait, 63 × 88 mm):
 * <ul>
 *   <li>a portrait capture (height at least {@value #SHAPE_RATIO} times the width): 0° and 180°, 12 queries;</li>
 *   <li>a landscape capture (width at least {@value #SHAPE_RATIO} times the height), a card lying sideways: 90° and
 *       270°, 12 queries;</li>
 *   <li>anything nearer square: all four turns, 24 queries.</li>
 * </ul>
 * A turn that would make a card crop landscape cannot put the art where the fingerprint's box reads it; trying it
 * anyway only gives unrelated art more chances to come out nearest (measured in docs/benchmarks.md: 8 of the 9
 * harsh captures lost to the four turns were lost at a turn that made the capture landscape).
 *
 * <p>A turned capture is fingerprinted like any other image: the box fractions apply to its own width and height.
 * Only the pixels the six boxes can read are turned (about a third of the picture), since the others never reach
 * a fingerprint. Stateless and thread-safe.
 *
 * @param turns        the turns tried, in degrees clockwise, ascending
 * @param fingerprints the 128-byte query fingerprints: query {@code k} is offset {@code k % 6} of turn
 *                     {@code turns.get(k / 6)}; the turn-0 queries are exactly {@link ArtFingerprint#queries}
 */
public record CaptureQueries(List<Integer> turns, byte[][] fingerprints) {

    /** Every turn, in degrees clockwise, in query order. */
    public static final List<Integer> TURNS = List.of(0, 90, 180, 270);

    /** Query fingerprints per turn: the offsets of the frozen settings. */
    public static final int PER_TURN = FingerprintSettings.FROZEN.offsets().size();

    /** Query fingerprints of all four turns: {@code 4 * 6 = 24}. */
    public static final int COUNT = TURNS.size() * PER_TURN;

    /**
     * How much longer one side must be than the other for a capture to count as portrait or landscape. A card is
     * 88 / 63 = 1.40; a crop of it that is loose or skewed by a few percent stays well beyond 1.2.
     */
    public static final double SHAPE_RATIO = 1.2;

    /** EXIF orientation values that turn a picture 0, 90, 180 and 270 degrees clockwise. */
    private static final int[] ORIENTATION_OF_TURN = {1, 6, 3, 8};

    /**
     * The query fingerprints of {@code upright} at the turns its shape allows ({@link #turnsFor}).
     *
     * @param upright the capture as displayed (EXIF orientation already applied, {@link ImageOrientation})
     */
    public static CaptureQueries of(RgbImage upright) {
        return of(upright, turnsFor(upright.width(), upright.height()));
    }

    /**
     * The query fingerprints of {@code upright} at the given turns.
     *
     * @param upright the capture as displayed
     * @param turns   turns in degrees clockwise, each one of {@link #TURNS}, ascending, at least one
     * @throws IllegalArgumentException if a turn is not one of {@link #TURNS}, or they are not ascending
     */
    public static CaptureQueries of(RgbImage upright, List<Integer> turns) {
        if (turns.isEmpty()) {
            throw new IllegalArgumentException("at least one turn is needed");
        }
        byte[][] queries = new byte[turns.size() * PER_TURN][];
        int[][] turnedPixels = new int[2][]; // one array for the quarter turns, one for the half: reused between them
        for (int t = 0; t < turns.size(); t++) {
            int turn = TURNS.indexOf(turns.get(t));
            if (turn < 0 || t > 0 && turns.get(t) <= turns.get(t - 1)) {
                throw new IllegalArgumentException("turns must be ascending values of " + TURNS + ": " + turns);
            }
            RgbImage turned = upright;
            if (turn != 0) {
                int[] pixels = turnedPixels[turn % 2];
                turned = boxesOnly(upright, ORIENTATION_OF_TURN[turn], pixels);
                turnedPixels[turn % 2] = turned.pixels();
            }
            byte[][] offsets = ArtFingerprint.queries(turned);
            System.arraycopy(offsets, 0, queries, t * PER_TURN, PER_TURN);
        }
        return new CaptureQueries(List.copyOf(turns), queries);
    }

    /**
     * The turns tried for a capture of this shape: 0° and 180° for a portrait one, 90° and 270° for a landscape
     * one, all four for one nearer square ({@link #SHAPE_RATIO}).
     *
     * @param width  the upright capture's width, in pixels
     * @param height the upright capture's height, in pixels
     */
    public static List<Integer> turnsFor(int width, int height) {
        if (height >= SHAPE_RATIO * width) {
            return List.of(0, 180);
        }
        if (width >= SHAPE_RATIO * height) {
            return List.of(90, 270);
        }
        return TURNS;
    }

    /**
     * {@code upright} turned clockwise by {@code turn} degrees, whole: the picture query fingerprints of that turn
     * read ({@link #of(RgbImage, List)} turns only the pixels their boxes cover).
     *
     * @throws IllegalArgumentException if {@code turn} is not one of {@link #TURNS}
     */
    public static RgbImage turned(RgbImage upright, int turn) {
        int t = TURNS.indexOf(turn);
        if (t < 0) {
            throw new IllegalArgumentException("a turn is one of " + TURNS + ", not " + turn);
        }
        return ImageOrientation.upright(upright, ORIENTATION_OF_TURN[t]);
    }

    /** The turn, in degrees clockwise, of query fingerprint {@code query} of {@link #fingerprints}. */
    public int turnOf(int query) {
        return turns.get(query / PER_TURN);
    }

    /**
     * The pixels the six offsets' boxes can read in a {@code w × h} image (FINGERPRINT.md §3, widened by a pixel for
     * the rounding of the edges): {@code {fromX, fromY, toX, toY}}, the ends exclusive, within the image.
     */
    static int[] boxesRegion(int w, int h) {
        double left = Double.MAX_VALUE;
        double top = Double.MAX_VALUE;
        double right = -Double.MAX_VALUE;
        double bottom = -Double.MAX_VALUE;
        for (FingerprintSettings.Offset offset : FingerprintSettings.FROZEN.offsets()) {
            double[] edges = FingerprintSettings.FROZEN.box().edges(offset, w, h);
            left = Math.min(left, edges[0]);
            top = Math.min(top, edges[1]);
            right = Math.max(right, edges[2]);
            bottom = Math.max(bottom, edges[3]);
        }
        return new int[] {Math.max(0, (int) Math.floor(left) - 1), Math.max(0, (int) Math.floor(top) - 1),
            Math.min(w, (int) Math.ceil(right) + 1), Math.min(h, (int) Math.ceil(bottom) + 1)};
    }

    /**
     * The pixels of an upright {@code w × h} capture that its query fingerprints at 0° and 180° can read
     * ({@link #boxesRegion} and its half turn), as {@code {fromX, fromY, toX, toY}}, the ends exclusive: a card
     * warped from a photo need have no others ({@link CardWarp#warp(RgbImage, Quad, int, int, int[])}), since
     * {@code of(capture, List.of(0, 180))} gives the same fingerprints whatever the rest holds (CardWarpTest). For the
     * frozen box, about 55 % of the capture.
     */
    public static int[] halfTurnRegion(int w, int h) {
        int[] upright = boxesRegion(w, h);
        // turned by half, the pixel (x, y) of the turned capture is (w - 1 - x, h - 1 - y) of the upright one
        return new int[] {Math.min(upright[0], w - upright[2]), Math.min(upright[1], h - upright[3]),
            Math.max(upright[2], w - upright[0]), Math.max(upright[3], h - upright[1])};
    }

    /**
     * {@code image} turned by {@code orientation}, with only the pixels in the union of the six offsets' boxes
     * ({@link #boxesRegion}) copied, into {@code into} when it is given (an earlier turn of the same shape's pixels);
     * the rest is never read by {@link ArtFingerprint}: black in a new array, the earlier turn's box in a reused one,
     * which the same shape puts in the same place, so it is overwritten.
     */
    private static RgbImage boxesOnly(RgbImage image, int orientation, int[] into) {
        int w = orientation >= 5 ? image.height() : image.width();
        int h = orientation >= 5 ? image.width() : image.height();
        int[] region = boxesRegion(w, h);
        return new RgbImage(w, h, ImageOrientation.turn(image, orientation, region[0], region[1], region[2],
                region[3], into));
    }
}
