package dev.cardcatalog.catalog;

/** The refresh cannot run as configured or as Scryfall describes its files: a permanent failure. */
public class CatalogConfigurationException extends RuntimeException {
    public CatalogConfigurationException(String message) {
        super(message);
    }
}
