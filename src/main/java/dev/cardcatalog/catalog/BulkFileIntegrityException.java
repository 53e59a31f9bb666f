package dev.cardcatalog.catalog;

/**
 * A downloaded bulk file whose byte count differs from the size Scryfall published for it. The part file is
 * deleted; the refresh may be tried again (a transient failure, SERVICE.md §4.3, §6.4).
 */
public class BulkFileIntegrityException extends RuntimeException {
    public BulkFileIntegrityException(String message) {
        super(message);
    }
}
