package dev.cardcatalog.catalog;

/** The bulk file had no valid card record: the refresh fails and nothing is retired (SERVICE.md §4.5). */
public class NoValidRecordsException extends RuntimeException {
    public NoValidRecordsException(long malformed) {
        super("no valid records (" + malformed + " malformed)");
    }
}
