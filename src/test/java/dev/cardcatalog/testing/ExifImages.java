package dev.cardcatalog.testing;

import com.twelvemonkeys.imageio.metadata.Entry;
import com.twelvemonkeys.imageio.metadata.tiff.TIFF;
import com.twelvemonkeys.imageio.metadata.tiff.TIFFEntry;
import com.twelvemonkeys.imageio.metadata.tiff.TIFFWriter;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.zip.CRC32;
import javax.imageio.stream.MemoryCacheImageOutputStream;

/**
 * Photos as phones store them: real EXIF blocks (a TIFF structure written by TwelveMonkeys' {@link TIFFWriter}) in a
 * JPEG's APP1 segment or a PNG's eXIf chunk, and pictures stored turned or mirrored for each EXIF orientation.
 *
 * <p>The orientations follow the EXIF table (CIPA DC-008, tag 274) directly, independently of the service's code:
 * for each value, the side of the displayed picture where the stored picture's row 0 lies and the side where its
 * column 0 lies.
 */
public final class ExifImages {

    /** Per value 1–8: where stored row 0 is shown (T, B, L, R) and where stored column 0 is shown. */
    private static final String[] ROW_AND_COLUMN_SIDES = {null, "TL", "TR", "BR", "BL", "LT", "RT", "RB", "LB"};

    private ExifImages() {
    }

    /** A TIFF structure with one IFD holding {@code Orientation = value} (as a SHORT), in {@code order}. */
    public static byte[] orientationTiff(int value, ByteOrder order) {
        return tiff(List.of(new TIFFEntry(TIFF.TAG_ORIENTATION, TIFF.TYPE_SHORT, (short) value),
                new TIFFEntry(TIFF.TAG_SOFTWARE, TIFF.TYPE_ASCII, "card-catalog test")), order);
    }

    /** A TIFF structure with one IFD of {@code entries}, in {@code order}. */
    public static byte[] tiff(List<? extends Entry> entries, ByteOrder order) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (MemoryCacheImageOutputStream out = new MemoryCacheImageOutputStream(bytes)) {
            out.setByteOrder(order);
            new TIFFWriter().write(entries, out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** {@code jpeg} with an Exif APP1 segment ({@code Exif\0\0} and {@code tiff}) after its APP0. */
    public static byte[] jpegWithExif(byte[] jpeg, byte[] tiff) {
        ByteArrayOutputStream payload = new ByteArrayOutputStream();
        payload.writeBytes("Exif\0\0".getBytes(StandardCharsets.US_ASCII));
        payload.writeBytes(tiff);
        return JpegSegments.afterApp0(jpeg,
                new byte[][] {JpegSegments.segment(0xE1, payload.toByteArray())});
    }

    /** {@code png} with an eXIf chunk holding {@code tiff} right after its IHDR chunk. */
    public static byte[] pngWithExif(byte[] png, byte[] tiff) {
        int ihdrEnd = 8 + 12 + 13;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(png, 0, ihdrEnd);
        byte[] type = "eXIf".getBytes(StandardCharsets.US_ASCII);
        out.writeBytes(new byte[] {(byte) (tiff.length >>> 24), (byte) (tiff.length >>> 16),
                (byte) (tiff.length >>> 8), (byte) tiff.length});
        out.writeBytes(type);
        out.writeBytes(tiff);
        CRC32 crc = new CRC32();
        crc.update(type);
        crc.update(tiff);
        long c = crc.getValue();
        out.writeBytes(new byte[] {(byte) (c >>> 24), (byte) (c >>> 16), (byte) (c >>> 8), (byte) c});
        out.write(png, ihdrEnd, png.length - ihdrEnd);
        return out.toByteArray();
    }

    /** How a picture that must be shown as {@code upright} is stored with orientation {@code value}. */
    public static BufferedImage stored(BufferedImage upright, int value) {
        boolean swap = sides(value).charAt(0) == 'L' || sides(value).charAt(0) == 'R';
        int w = swap ? upright.getHeight() : upright.getWidth();
        int h = swap ? upright.getWidth() : upright.getHeight();
        BufferedImage stored = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                int[] shown = shownAt(value, x, y, w, h);
                stored.setRGB(x, y, upright.getRGB(shown[0], shown[1]));
            }
        }
        return stored;
    }

    /** How a picture stored as {@code stored} with orientation {@code value} is shown. */
    public static BufferedImage displayed(BufferedImage stored, int value) {
        int w = stored.getWidth();
        int h = stored.getHeight();
        boolean swap = sides(value).charAt(0) == 'L' || sides(value).charAt(0) == 'R';
        BufferedImage shown = new BufferedImage(swap ? h : w, swap ? w : h, BufferedImage.TYPE_INT_RGB);
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                int[] at = shownAt(value, x, y, w, h);
                shown.setRGB(at[0], at[1], stored.getRGB(x, y));
            }
        }
        return shown;
    }

    /** {@code picture} turned {@code degrees} clockwise (90, 180 or 270). */
    public static BufferedImage turnedClockwise(BufferedImage picture, int degrees) {
        // Shown with orientation 6 a stored picture is turned 90° clockwise, with 3 180°, with 8 270°.
        return displayed(picture, switch (degrees) {
            case 90 -> 6;
            case 180 -> 3;
            case 270 -> 8;
            default -> throw new IllegalArgumentException("degrees " + degrees);
        });
    }

    /** Where stored pixel (x, y) of a w × h picture is shown, as {displayed x, displayed y}. */
    private static int[] shownAt(int value, int x, int y, int w, int h) {
        char rowSide = sides(value).charAt(0);
        char columnSide = sides(value).charAt(1);
        if (rowSide == 'T' || rowSide == 'B') {
            // rows stay rows: stored row 0 at the top or the bottom, stored column 0 at the left or the right
            return new int[] {columnSide == 'L' ? x : w - 1 - x, rowSide == 'T' ? y : h - 1 - y};
        }
        // rows become columns: stored row 0 at the left or right edge, stored column 0 at the top or the bottom
        return new int[] {rowSide == 'L' ? y : h - 1 - y, columnSide == 'T' ? x : w - 1 - x};
    }

    private static String sides(int value) {
        return ROW_AND_COLUMN_SIDES[value];
    }
}
