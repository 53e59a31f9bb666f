package dev.cardcatalog.art;

/**
 * An art build whose index would be worse than the current one (SERVICE.md §5.8): too many failed images, too few
 * artworks, or none. The index is not published and the current one stays; a permanent failure of the run, whose
 * message names the counts and the first failed images.
 */
public class ArtIndexIntegrityException extends RuntimeException {
    public ArtIndexIntegrityException(String message) {
        super(message);
    }
}
