package dev.cardcatalog.scryfall;

/** A Scryfall call that did not give an answer the caller can use. */
public abstract class ScryfallException extends RuntimeException {

    private final String url;

    /**
     * @param message what happened; it may quote Scryfall's answer (a body, an error's details, a URL from its
     *     data), so it is escaped to printable text and cut at 1,000 code points
     *     ({@link dev.cardcatalog.platform.PrintableText})
     */
    protected ScryfallException(String url, String message, Throwable cause) {
        super(message == null ? null : dev.cardcatalog.platform.PrintableText.of(message, 1000), cause);
        this.url = url;
    }

    /** The URL asked for. */
    public String url() {
        return url;
    }
}
