package dev.cardcatalog.art;

/** An art build before any refresh applied: there is nothing to index yet (a permanent failure). */
public class NoCatalogException extends RuntimeException {
    public NoCatalogException() {
        super("the catalog has not been refreshed yet: run a refresh first (POST /api/refreshes)");
    }
}
