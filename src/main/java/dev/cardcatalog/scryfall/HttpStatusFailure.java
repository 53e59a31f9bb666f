package dev.cardcatalog.scryfall;

import java.util.List;
import java.util.Map;

/**
 * One request's non-2xx answer, as a failure the retry rule classifies: status, headers (names lower-cased, every
 * value of a repeated field kept) and the body text (Scryfall's error object, when it sent one).
 */
final class HttpStatusFailure extends RuntimeException {

    private final int status;
    private final transient Map<String, List<String>> headers;
    private final String body;

    HttpStatusFailure(int status, Map<String, List<String>> headers, String body) {
        super("HTTP " + status, null, false, false);
        this.status = status;
        this.headers = headers;
        this.body = body;
    }

    int status() {
        return status;
    }

    List<String> header(String name) {
        return headers.getOrDefault(name.toLowerCase(java.util.Locale.ROOT), List.of());
    }

    String firstHeader(String name) {
        List<String> values = header(name);
        return values.isEmpty() ? null : values.get(0);
    }

    String body() {
        return body;
    }
}
