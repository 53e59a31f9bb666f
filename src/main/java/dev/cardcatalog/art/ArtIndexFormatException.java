package dev.cardcatalog.art;

import java.io.IOException;

/**
 * An art index file that is not a valid index at the expected settings digest: wrong magic, version, digest or
 * length, records out of order, or a name that does not match its header (SERVICE.md §5.8, FINGERPRINT.md §9).
 */
public final class ArtIndexFormatException extends IOException {

    private static final long serialVersionUID = 1L;

    public ArtIndexFormatException(String message) {
        super(message);
    }
}
