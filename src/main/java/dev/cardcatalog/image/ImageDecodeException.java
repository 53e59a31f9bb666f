package dev.cardcatalog.image;

import java.util.function.BooleanSupplier;

/**
 * An image body that {@link ImageDecoder} refused or could not decode (SERVICE.md §5.4). The message is a short
 * human reason, safe to show to a client or to store with a failed image; it never holds a class name or a stack
 * trace of the underlying reader.
 */
public final class ImageDecodeException extends Exception {

    private static final long serialVersionUID = 1L;

    /** Why decoding failed. */
    public enum Kind {
        /** The body was empty. */
        EMPTY,
        /** The body was larger than the decoder's size cap. */
        BODY_TOO_LARGE,
        /** The body is neither a JPEG nor a PNG. */
        NOT_AN_IMAGE,
        /** The declared width, height or pixel count is over the decoder's limits (or zero). */
        DIMENSIONS_REFUSED,
        /** The image data ends before the image does. */
        TRUNCATED,
        /** The image is damaged or uses a feature the readers do not support. */
        CORRUPT,
        /** A JPEG has more scans than the decoder accepts (a scan flood), found before decoding. */
        TOO_MANY_SCANS,
        /** A JPEG has more marker segments, or a PNG more chunks, than the decoder accepts, found before decoding. */
        TOO_MANY_SEGMENTS,
        /** The caller stopped the decode while it ran (an upload's deadline passed, SERVICE.md §7). */
        STOPPED
    }

    private final Kind kind;

    public ImageDecodeException(Kind kind, String message) {
        super(message);
        this.kind = kind;
    }

    public ImageDecodeException(Kind kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = kind;
    }

    /** Why decoding failed. */
    public Kind kind() {
        return kind;
    }

    /**
     * Throws {@link Kind#STOPPED} when {@code stop} is given and holds.
     *
     * @param stop the caller's condition, or null (never)
     */
    static void throwIfStopped(BooleanSupplier stop) throws ImageDecodeException {
        if (stop != null && stop.getAsBoolean()) {
            throw new ImageDecodeException(Kind.STOPPED, "the decode was stopped by its caller");
        }
    }
}
