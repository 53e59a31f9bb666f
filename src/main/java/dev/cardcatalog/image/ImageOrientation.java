package dev.cardcatalog.image;

import com.twelvemonkeys.imageio.metadata.Directory;
import com.twelvemonkeys.imageio.metadata.Entry;
import com.twelvemonkeys.imageio.metadata.jpeg.JPEG;
import com.twelvemonkeys.imageio.metadata.jpeg.JPEGSegment;
import com.twelvemonkeys.imageio.metadata.jpeg.JPEGSegmentUtil;
import com.twelvemonkeys.imageio.metadata.tiff.TIFF;
import com.twelvemonkeys.imageio.metadata.tiff.TIFFReader;
import com.twelvemonkeys.imageio.stream.ByteArrayImageInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;

/**
 * How a stored photo is turned for display, and turning it upright (SERVICE.md §5.9): the EXIF {@code Orientation}
 * tag (TIFF tag 274; CIPA DC-008 / EXIF 2.32 §4.6.4 A), values 1 to 8, the mirrored ones (2, 4, 5, 7) included.
 *
 * <p>The tag is read from a JPEG's first {@code Exif} APP1 segment, or from a PNG's {@code eXIf} chunk (PNG 1.6
 * extension), by TwelveMonkeys' JPEG segment and TIFF readers. The tag is ignored, and the photo taken as stored
 * (value 1), when there is no EXIF block, when the block is broken (the readers fail on it), or when the value is
 * absurd (not a number from 1 to 8). This is what browsers and phone galleries do.
 *
 * <p>Only uploaded captures are turned. The art build fingerprints Scryfall images exactly as Collector's
 * ImageMagick decode sees them, which does not apply the tag (FINGERPRINT.md §1).
 *
 * <p>Stateless and thread-safe.
 */
public final class ImageOrientation {

    /** The value meaning "stored upright": the row 0 is the top, column 0 the left. */
    public static final int UPRIGHT = 1;

    private static final byte[] EXIF_CHUNK = {'e', 'X', 'I', 'f'};
    private static final byte[] IDAT_CHUNK = {'I', 'D', 'A', 'T'};

    private ImageOrientation() {
    }

    /**
     * The EXIF {@code Orientation} of an image file.
     *
     * @param body the whole file: a JPEG or a PNG (anything else gives {@link #UPRIGHT})
     * @return 1 to 8; {@link #UPRIGHT} when the tag is missing, broken or out of range
     */
    public static int of(byte[] body) {
        try {
            byte[] tiff = isPng(body) ? pngExif(body) : isJpeg(body) ? jpegExif(body) : null;
            if (tiff == null) {
                return UPRIGHT;
            }
            Directory ifd0 = new TIFFReader().read(new ByteArrayImageInputStream(tiff));
            Entry entry = ifd0.getEntryById(TIFF.TAG_ORIENTATION);
            if (entry == null || !(entry.getValue() instanceof Number value)) {
                return UPRIGHT;
            }
            long orientation = value.longValue();
            return orientation >= 1 && orientation <= 8 ? (int) orientation : UPRIGHT;
        } catch (IOException | RuntimeException broken) {
            // a broken EXIF block is ignored, as browsers ignore it; the pixels are read on their own
            return UPRIGHT;
        }
    }

    /**
     * {@code image} as it is displayed when stored with {@code orientation}: turned and mirrored upright. Values 5 to
     * 8 swap the width and the height.
     *
     * <table>
     *   <caption>What each value undoes</caption>
     *   <tr><th>value</th><th>stored as</th><th>turned for display</th></tr>
     *   <tr><td>1</td><td>upright</td><td>nothing (the same instance is returned)</td></tr>
     *   <tr><td>2</td><td>mirrored left-right</td><td>mirrored left-right</td></tr>
     *   <tr><td>3</td><td>upside down</td><td>turned 180°</td></tr>
     *   <tr><td>4</td><td>mirrored top-bottom</td><td>mirrored top-bottom</td></tr>
     *   <tr><td>5</td><td>mirrored along the main diagonal</td><td>transposed</td></tr>
     *   <tr><td>6</td><td>turned 90° counter-clockwise</td><td>turned 90° clockwise</td></tr>
     *   <tr><td>7</td><td>mirrored along the other diagonal</td><td>transversed</td></tr>
     *   <tr><td>8</td><td>turned 90° clockwise</td><td>turned 90° counter-clockwise</td></tr>
     * </table>
     *
     * @throws IllegalArgumentException if {@code orientation} is not 1 to 8
     */
    public static RgbImage upright(RgbImage image, int orientation) {
        if (orientation < 1 || orientation > 8) {
            throw new IllegalArgumentException("an EXIF orientation is 1 to 8, not " + orientation);
        }
        if (orientation == UPRIGHT) {
            return image;
        }
        final boolean swap = orientation >= 5;
        final int outW = swap ? image.height() : image.width();
        final int outH = swap ? image.width() : image.height();
        return new RgbImage(outW, outH, turn(image, orientation, 0, 0, outW, outH));
    }

    /**
     * The pixels of {@code upright(image, orientation)}, but only those in columns {@code [fromX, toX)} and rows
     * {@code [fromY, toY)} of the result (in its coordinates); the others are left 0. For callers that read only
     * that region (the art box), so the rest is not copied.
     */
    public static int[] turn(RgbImage image, int orientation, int fromX, int fromY, int toX, int toY) {
        return turn(image, orientation, fromX, fromY, toX, toY, null);
    }

    /**
     * As {@link #turn(RgbImage, int, int, int, int, int)}, written into {@code into} when it is given: its pixels
     * outside the region are left as they were.
     *
     * @param into null (a new array), or an array of at least the image's pixels
     */
    public static int[] turn(RgbImage image, int orientation, int fromX, int fromY, int toX, int toY, int[] into) {
        final int w = image.width();
        final int h = image.height();
        final int[] in = image.pixels();
        final int outW = orientation >= 5 ? h : w;
        // The stored pixel shown at (x, y) is in[base + x * stepX + y * stepY].
        final int last = (h - 1) * w;
        final int base;
        final int stepX;
        final int stepY;
        switch (orientation) {
            case 1 -> { base = 0; stepX = 1; stepY = w; }
            case 2 -> { base = w - 1; stepX = -1; stepY = w; }
            case 3 -> { base = last + w - 1; stepX = -1; stepY = -w; }
            case 4 -> { base = last; stepX = 1; stepY = -w; }
            case 5 -> { base = 0; stepX = w; stepY = 1; }
            case 6 -> { base = last; stepX = -w; stepY = 1; }
            case 7 -> { base = last + w - 1; stepX = -w; stepY = -1; }
            case 8 -> { base = w - 1; stepX = w; stepY = -1; }
            default -> throw new IllegalArgumentException("an EXIF orientation is 1 to 8, not " + orientation);
        }
        final int[] out = into != null ? into : new int[in.length];
        if (out.length < in.length) {
            throw new IllegalArgumentException("an array of " + out.length + " pixels cannot hold " + in.length);
        }
        for (int y = fromY; y < toY; y++) {
            int o = y * outW + fromX;
            for (int x = fromX, i = base + fromX * stepX + y * stepY; x < toX; x++, i += stepX) {
                out[o++] = in[i];
            }
        }
        return out;
    }

    /**
     * {@code image} turned clockwise by {@code degrees}: what the capture looks like turned by that much (the
     * match tries 0, 90, 180 and 270, SERVICE.md §5.9).
     *
     * @param degrees 0, 90, 180 or 270
     * @throws IllegalArgumentException for any other angle
     */
    public static RgbImage turnedClockwise(RgbImage image, int degrees) {
        return switch (degrees) {
            case 0 -> image;
            case 90 -> upright(image, 6);
            case 180 -> upright(image, 3);
            case 270 -> upright(image, 8);
            default -> throw new IllegalArgumentException("a turn is 0, 90, 180 or 270 degrees, not " + degrees);
        };
    }

    /** The TIFF structure of the first Exif APP1 segment, without its {@code Exif\0\0} identifier; null if none. */
    private static byte[] jpegExif(byte[] body) throws IOException {
        List<JPEGSegment> segments;
        try (ByteArrayImageInputStream input = new ByteArrayImageInputStream(body)) {
            segments = JPEGSegmentUtil.readSegments(input, JPEG.APP1, "Exif");
        }
        if (segments.isEmpty()) {
            return null;
        }
        try (InputStream data = segments.get(0).data()) {
            byte[] bytes = data.readAllBytes();
            // data() starts after "Exif\0"; the identifier's second 0 is a pad byte before the TIFF header
            int skip = bytes.length > 0 && bytes[0] == 0 ? 1 : 0;
            return java.util.Arrays.copyOfRange(bytes, skip, bytes.length);
        }
    }

    /** The contents of a PNG's eXIf chunk (a TIFF structure) if it comes before the image data; null if none. */
    private static byte[] pngExif(byte[] body) {
        int pos = 8;
        while (pos + 8 <= body.length) {
            long length = ((body[pos] & 0xFFL) << 24) | ((body[pos + 1] & 0xFFL) << 16)
                    | ((body[pos + 2] & 0xFFL) << 8) | (body[pos + 3] & 0xFFL);
            if (regionEquals(body, pos + 4, IDAT_CHUNK) || length > body.length - pos - 12L) {
                return null;
            }
            if (regionEquals(body, pos + 4, EXIF_CHUNK)) {
                return java.util.Arrays.copyOfRange(body, pos + 8, pos + 8 + (int) length);
            }
            pos += 12 + (int) length;
        }
        return null;
    }

    private static boolean regionEquals(byte[] b, int at, byte[] expected) {
        return java.util.Arrays.equals(b, at, at + expected.length, expected, 0, expected.length);
    }

    private static boolean isJpeg(byte[] b) {
        return b.length >= 3 && (b[0] & 0xFF) == 0xFF && (b[1] & 0xFF) == 0xD8 && (b[2] & 0xFF) == 0xFF;
    }

    private static boolean isPng(byte[] b) {
        return b.length >= 8 && (b[0] & 0xFF) == 0x89 && b[1] == 'P' && b[2] == 'N' && b[3] == 'G';
    }
}
