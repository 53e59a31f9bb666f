package dev.cardcatalog.scryfall;

/**
 * A permanent failure: Scryfall answered 4xx (other than 429) to one request, which is never retried. The
 * message names the URL and Scryfall's error {@code code}, {@code subcode} and {@code details}; a 400
 * {@code generic_user_agent} says the User-Agent was refused.
 */
public class ScryfallRequestException extends ScryfallException {

    private final int status;
    private final String code;
    private final String subcode;
    private final String details;

    public ScryfallRequestException(String url, int status, String code, String subcode, String details) {
        super(url, message(url, status, code, subcode, details), null);
        this.status = status;
        this.code = code;
        this.subcode = subcode;
        this.details = details;
    }

    private static String message(String url, int status, String code, String subcode, String details) {
        StringBuilder text = new StringBuilder("Scryfall answered ").append(status).append(" to ").append(url);
        if (code != null) {
            text.append(": ").append(code);
            if (subcode != null) {
                text.append('/').append(subcode);
            }
        }
        if ("generic_user_agent".equals(subcode)) {
            text.append(" (the User-Agent was refused as a library default; set card-catalog.scryfall.user-agent)");
        }
        if (details != null) {
            text.append(" — ").append(details.replaceAll("\\s+", " ").trim());
        }
        return text.toString();
    }

    public int status() {
        return status;
    }

    /** Scryfall's error {@code code}, e.g. {@code not_found}; null when the body was not a Scryfall error. */
    public String code() {
        return code;
    }

    /** Scryfall's error {@code subcode}, e.g. {@code generic_user_agent}; often null. */
    public String subcode() {
        return subcode;
    }

    public String details() {
        return details;
    }
}
