package dev.cardcatalog.scryfall;

/**
 * A transient failure: the attempts ran out on 5xx answers or network errors (refused, reset, timed out, cut),
 * or a download broke off. Worth trying again later (SERVICE.md §6.4: transient).
 */
public class ScryfallUnavailableException extends ScryfallException {

    private final int status;

    /** @param status the last HTTP status, 0 for a network error */
    public ScryfallUnavailableException(String url, int status, String message, Throwable cause) {
        super(url, message, cause);
        this.status = status;
    }

    /** The last HTTP status, 0 when the last attempt got no answer. */
    public int status() {
        return status;
    }
}
