package dev.cardcatalog.art;

import java.util.List;

/**
 * The query fingerprints of an uploaded capture (SERVICE.md §5.9): the six offsets of FINGERPRINT.md §7 for each
 * of four turns of the upright capture, 0°, 90°, 180° and 270° clockwise, so a card photographed sideways or upside
 * down without an EXIF tag is still found. Query {@code k} is offset {@code k % 6} of turn {@code TURNS[k / 6]}; the
 * turn-0 queries are exactly {@link ArtFingerprint#queries}.
 *
 * <p>A turned capture is fingerprinted like any other image: the box fractions apply to its own width and height.
 * Only the pixels the six boxes can read are turned (about a third of the picture), since the others never reach
 * a fingerprint. Stateless and thread-safe.
 */
public final class CaptureQueries {

    /** The turns tried, in degrees clockwise, in query order. */
    public static final List<Integer> TURNS = List.of(0, 90, 180, 270);

    /** Query fingerprints per turn: the offsets of the frozen settings. */
    public static final int PER_TURN = ArtSettings.FROZEN.offsets().size();

    /** Query fingerprints in all: {@code 4 * 6 = 24}. */
    public static final int COUNT = TURNS.size() * PER_TURN;

    /** EXIF orientation values that turn a picture 0, 90, 180 and 270 degrees clockwise. */
    private static final int[] ORIENTATION_OF_TURN = {1, 6, 3, 8};

    private CaptureQueries() {
    }

    /**
     * The 24 query fingerprints of {@code upright}, turn by turn.
     *
     * @param upright the capture as displayed (EXIF orientation already applied, {@link ImageOrientation})
     * @return {@link #COUNT} new 128-byte fingerprints
     */
    public static byte[][] of(RgbImage upright) {
        byte[][] queries = new byte[COUNT][];
        for (int t = 0; t < TURNS.size(); t++) {
            RgbImage turned = t == 0 ? upright : boxesOnly(upright, ORIENTATION_OF_TURN[t]);
            byte[][] offsets = ArtFingerprint.queries(turned);
            System.arraycopy(offsets, 0, queries, t * PER_TURN, PER_TURN);
        }
        return queries;
    }

    /** The turn, in degrees clockwise, of query fingerprint {@code query} of {@link #of}. */
    public static int turnOf(int query) {
        return TURNS.get(query / PER_TURN);
    }

    /**
     * {@code image} turned by {@code orientation}, with only the pixels in the union of the six offsets' boxes
     * (FINGERPRINT.md §3, widened by a pixel for the rounding of the edges) copied; the rest is black and is never
     * read by {@link ArtFingerprint}.
     */
    private static RgbImage boxesOnly(RgbImage image, int orientation) {
        int w = orientation >= 5 ? image.height() : image.width();
        int h = orientation >= 5 ? image.width() : image.height();
        ArtSettings.Box box = ArtSettings.FROZEN.box();
        double bw = box.x1() - box.x0();
        double bh = box.y1() - box.y0();
        double left = Double.MAX_VALUE;
        double top = Double.MAX_VALUE;
        double right = -Double.MAX_VALUE;
        double bottom = -Double.MAX_VALUE;
        for (ArtSettings.Offset offset : ArtSettings.FROZEN.offsets()) {
            left = Math.min(left, ((box.x0() + offset.dx()) + offset.inset() * bw) * w);
            top = Math.min(top, ((box.y0() + offset.dy()) + offset.inset() * bh) * h);
            right = Math.max(right, ((box.x1() + offset.dx()) - offset.inset() * bw) * w);
            bottom = Math.max(bottom, ((box.y1() + offset.dy()) - offset.inset() * bh) * h);
        }
        int fromX = Math.max(0, (int) Math.floor(left) - 1);
        int fromY = Math.max(0, (int) Math.floor(top) - 1);
        int toX = Math.min(w, (int) Math.ceil(right) + 1);
        int toY = Math.min(h, (int) Math.ceil(bottom) + 1);
        return new RgbImage(w, h, ImageOrientation.turn(image, orientation, fromX, fromY, toX, toY));
    }
}
