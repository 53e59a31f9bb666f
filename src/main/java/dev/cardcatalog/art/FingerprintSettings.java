package dev.cardcatalog.art;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * The frozen art fingerprint settings and their settings digest (FINGERPRINT.md §2, SERVICE.md §5.5).
 *
 * <p>The art box is given as fractions of the card image (x from 0.14 to 0.86, y from 0.16 to 0.50), the grid is
 * 17 cells wide by 16 high, and a query uses six offsets in a fixed order (§7). The settings digest is the first 16
 * lowercase hex characters of the SHA-256 of the canonical compact JSON of the settings: exactly the 218 bytes of
 * FINGERPRINT.md §2, stored here as they are (not produced by a JSON library, whose number formatting may differ
 * from Ruby's and JavaScript's). For these settings the digest is {@value #FROZEN_DIGEST}.
 *
 * <p>These are not configuration: they must match the scanner's. The art build's configuration keys are
 * {@link ArtConfig}'s.
 *
 * <p>Instances are immutable. The only instance is {@link #FROZEN}.
 */
public final class FingerprintSettings {

    /** The digest that {@link #FROZEN} must produce (FINGERPRINT.md §2, Collector ADR 0012). */
    public static final String FROZEN_DIGEST = "aa574ad30218cd69";

    /**
     * The canonical bytes hashed for the digest: Ruby {@code JSON.generate} of {@code config/art_fingerprint.json}
     * (keys in file order, no whitespace, integers without a decimal point, floats in shortest form).
     */
    private static final String CANONICAL_JSON = "{\"box\":{\"x0\":0.14,\"x1\":0.86,\"y0\":0.16,\"y1\":0.5},"
            + "\"grid\":[17,16],"
            + "\"offsets\":[{\"dx\":0,\"dy\":0},{\"dx\":0.02,\"dy\":0},{\"dx\":-0.02,\"dy\":0},"
            + "{\"dx\":0,\"dy\":0.02},{\"dx\":0,\"dy\":-0.02},{\"dx\":0,\"dy\":0,\"inset\":0.03}],"
            + "\"imageSize\":\"small\"}";

    /** The frozen settings of the art build and the match endpoint. */
    public static final FingerprintSettings FROZEN = new FingerprintSettings(
            new Box(0.14, 0.86, 0.16, 0.5),
            17,
            16,
            List.of(
                    new Offset(0, 0, 0),
                    new Offset(0.02, 0, 0),
                    new Offset(-0.02, 0, 0),
                    new Offset(0, 0.02, 0),
                    new Offset(0, -0.02, 0),
                    new Offset(0, 0, 0.03)),
            "small",
            CANONICAL_JSON.getBytes(StandardCharsets.UTF_8));

    /**
     * The art box as fractions of the card image's width (x) and height (y); FINGERPRINT.md §3.
     *
     * @param x0 left edge, fraction of the width
     * @param x1 right edge, fraction of the width
     * @param y0 top edge, fraction of the height
     * @param y1 bottom edge, fraction of the height
     */
    public record Box(double x0, double x1, double y0, double y1) {

        /**
         * The crop box of {@code offset} in a {@code w × h} image, in pixels, unrounded: {@code {left, top, right,
         * bottom}}, each computed in the order of FINGERPRINT.md §3 (so the same doubles as {@link ArtFingerprint}'s).
         */
        public double[] edges(Offset offset, int w, int h) {
            double bw = x1 - x0;
            double bh = y1 - y0;
            return new double[] {((x0 + offset.dx()) + offset.inset() * bw) * w,
                ((y0 + offset.dy()) + offset.inset() * bh) * h, ((x1 + offset.dx()) - offset.inset() * bw) * w,
                ((y1 + offset.dy()) - offset.inset() * bh) * h};
        }
    }

    /**
     * One query offset (FINGERPRINT.md §3, §7). A key missing from the settings JSON counts as 0.
     *
     * @param dx    shift to the right, as a fraction of the whole image width
     * @param dy    shift downwards, as a fraction of the whole image height
     * @param inset each side moved inwards by this fraction of the box's own width (x) or height (y)
     */
    public record Offset(double dx, double dy, double inset) {
    }

    private final Box box;
    private final int cols;
    private final int rows;
    private final List<Offset> offsets;
    private final String imageSize;
    private final byte[] canonicalJson;
    private final String digest;

    private FingerprintSettings(Box box, int cols, int rows, List<Offset> offsets, String imageSize,
            byte[] canonicalJson) {
        this.box = box;
        this.cols = cols;
        this.rows = rows;
        this.offsets = offsets;
        this.imageSize = imageSize;
        this.canonicalJson = canonicalJson;
        this.digest = digestOf(canonicalJson);
    }

    /** The settings digest: 16 lowercase hex characters, e.g. {@code aa574ad30218cd69}. */
    public String digest() {
        return digest;
    }

    /** A copy of the canonical compact JSON bytes (UTF-8, 218 bytes) that the digest is computed from. */
    public byte[] canonicalJson() {
        return canonicalJson.clone();
    }

    /** The art box fractions. */
    public Box box() {
        return box;
    }

    /** Grid columns: 17 (giving 16 neighbour pairs per row). */
    public int cols() {
        return cols;
    }

    /** Grid rows: 16. */
    public int rows() {
        return rows;
    }

    /** The six query offsets in order: zero, right, left, down, up, inset (FINGERPRINT.md §7). Index 0 is stored. */
    public List<Offset> offsets() {
        return offsets;
    }

    /** The zero offset, the one the index stores. */
    public Offset zeroOffset() {
        return offsets.get(0);
    }

    /** Scryfall image size the index is built from: {@code small} (part of the digest, not read by any code). */
    public String imageSize() {
        return imageSize;
    }

    /**
     * First 16 lowercase hex characters of SHA-256 of {@code bytes}: how Collector turns canonical settings JSON
     * into a settings digest.
     */
    static String digestOf(byte[] bytes) {
        try {
            byte[] sha = MessageDigest.getInstance("SHA-256").digest(bytes);
            return HexFormat.of().formatHex(sha, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", e);
        }
    }
}
