package dev.cardcatalog.scan;

import dev.cardcatalog.image.ImageDecodeException;
import dev.cardcatalog.image.ImageOrientation;
import dev.cardcatalog.image.JpegStructure;
import dev.cardcatalog.image.RgbImage;

/**
 * An uploaded photo as displayed (its EXIF orientation applied, SERVICE.md §5.9), decoded small for finding its
 * cards, with a finer decode of the same photo on demand for warping a card too small in the first (§5.10). Both
 * know the photo's own size, so a place in either maps to the photo's pixels as displayed, which is where an
 * answer's {@code corners} are.
 *
 * <p>The finer decode is libjpeg-turbo's at half the reduction of the small one (a 12-megapixel JPEG: 1/8 for
 * finding, 378 × 504, and 1/4 for warping, 756 × 1,008), on the same path and with the same checks
 * ({@link UploadDecoder#decodeReduced}); a photo decoded by ImageIO (a PNG, a JPEG with an ICC profile, ...) or
 * already at full size has none. Memory: at most two decodes of at most {@link UploadDecoder#maxDecodedSide()}
 * pixels a side. One instance belongs to one upload; not thread-safe.
 */
public final class UprightPhoto {

    private final RgbImage image;
    private final int width;
    private final int height;
    private final byte[] body;
    private final UploadDecoder decoder;
    private final JpegStructure walked;
    private final int orientation;
    private final int reduction;
    private RgbImage finer;
    private boolean finerTried;
    private final UploadDeadline deadline;

    private UprightPhoto(RgbImage image, int width, int height, byte[] body, UploadDecoder decoder,
            JpegStructure walked, int orientation, int reduction, UploadDeadline deadline) {
        this.deadline = deadline;
        this.walked = walked;
        this.image = image;
        this.width = width;
        this.height = height;
        this.body = body;
        this.decoder = decoder;
        this.orientation = orientation;
        this.reduction = reduction;
    }

    /**
     * Decodes an upload.
     *
     * @param body    the whole file, a JPEG or a PNG
     * @param decoder  the uploads' decoder, which also gives the finer decode
     * @param deadline the upload's deadline: the decoder stops at it inside the decode (422
     *                 {@code upload-too-costly}); checked after the decode too, and before the finer one
     * @throws ImageDecodeException when the body is refused or cannot be decoded
     */
    public static UprightPhoto decode(byte[] body, UploadDecoder decoder, UploadDeadline deadline)
            throws ImageDecodeException {
        return decode(body, null, decoder, deadline);
    }

    /**
     * Decodes an upload whose marker walk its admission made ({@link UploadCost#jpeg()}), so that the body is
     * walked once for the decode, its stored size and the finer decode.
     *
     * @param walked the JPEG's marker walk with the decoder's limits, or null (a PNG, or none made: walked here)
     * @throws ImageDecodeException as {@link #decode(byte[], UploadDecoder, UploadDeadline)}
     */
    public static UprightPhoto decode(byte[] body, JpegStructure walked, UploadDecoder decoder,
            UploadDeadline deadline) throws ImageDecodeException {
        int orientation = ImageOrientation.of(body);
        RgbImage decoded = decoder.decode(body, walked, deadline);
        deadline.check("decoding the photo");
        RgbImage upright = ImageOrientation.upright(decoded, orientation);
        int[] stored = walked != null ? new int[] {walked.width(), walked.height()} : storedSize(body);
        int storedW = stored == null ? decoded.width() : stored[0];
        int storedH = stored == null ? decoded.height() : stored[1];
        boolean swap = orientation >= 5;
        int reduction = 1;
        if (stored != null && storedW > decoded.width()) {
            int r = decoder.reductionFor(Math.max(storedW, storedH));
            // the scaled path gives ceil(side / r): only then is the finer decode the same photo at r / 2
            if (r > 1 && decoded.width() == (storedW + r - 1) / r && decoded.height() == (storedH + r - 1) / r) {
                reduction = r;
            }
        }
        return new UprightPhoto(upright, swap ? storedH : storedW, swap ? storedW : storedH, body,
                decoder, walked, orientation, reduction, deadline);
    }

    /** A photo that is already decoded and upright, {@code image} at its own size; no finer decode. */
    public static UprightPhoto of(RgbImage image) {
        return new UprightPhoto(image, image.width(), image.height(), null, null, null, ImageOrientation.UPRIGHT, 1,
                UploadDeadline.none());
    }

    /** The small decode, as displayed: where the cards are found. */
    public RgbImage image() {
        return image;
    }

    /** The photo's width as displayed, in its own pixels (not the decode's). */
    public int width() {
        return width;
    }

    /** The photo's height as displayed, in its own pixels. */
    public int height() {
        return height;
    }

    /**
     * Whether a finer decode may exist (an upload decoded scaled): false when {@link #finer()} is surely null,
     * without decoding anything.
     */
    public boolean hasFiner() {
        return decoder != null && reduction > 1 && (!finerTried || finer != null);
    }

    /**
     * The photo decoded at twice the small decode's size in each direction, as displayed; null when there is none
     * (see the class). Decoded on the first call.
     */
    public RgbImage finer() {
        if (!finerTried) {
            finerTried = true;
            if (decoder != null && reduction > 1) {
                deadline.check("decoding the photo finer");
                try {
                    RgbImage decoded = decoder.decodeReduced(body, walked, reduction / 2);
                    finer = decoded == null ? null : ImageOrientation.upright(decoded, orientation);
                    deadline.check("decoding the photo finer");
                } catch (ImageDecodeException e) {
                    finer = null; // the small decode stands
                }
            }
        }
        return finer;
    }

    /**
     * The width and height a JPEG's frame header or a PNG's IHDR declares, before any EXIF orientation; null for
     * anything else or a header that cannot be read.
     */
    static int[] storedSize(byte[] body) {
        if (body.length > 24 && (body[0] & 0xFF) == 0x89 && body[1] == 'P' && body[2] == 'N' && body[3] == 'G') {
            return new int[] {readInt(body, 16), readInt(body, 20)};
        }
        try {
            var jpeg = dev.cardcatalog.image.JpegStructure.scan(body);
            return new int[] {jpeg.width(), jpeg.height()};
        } catch (ImageDecodeException | RuntimeException e) {
            return null;
        }
    }

    private static int readInt(byte[] b, int at) {
        return ((b[at] & 0xFF) << 24) | ((b[at + 1] & 0xFF) << 16) | ((b[at + 2] & 0xFF) << 8) | (b[at + 3] & 0xFF);
    }
}
