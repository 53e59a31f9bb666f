package dev.cardcatalog.scryfall;

/** A Scryfall call that did not give an answer the caller can use. */
public abstract class ScryfallException extends RuntimeException {

    private final String url;

    protected ScryfallException(String url, String message, Throwable cause) {
        super(message, cause);
        this.url = url;
    }

    /** The URL asked for. */
    public String url() {
        return url;
    }
}
