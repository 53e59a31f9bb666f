package dev.cardcatalog.platform;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Map;

/**
 * An RFC 9457 problem detail, sent as {@code application/problem+json}. {@code type} is a stable URI under
 * {@code https://card-catalog.dev/problems/}; {@code extensions} carries problem-specific members
 * (for example {@code field} for a validation error or {@code job_id} for a job in flight).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Problem(String type, String title, int status, String detail, String instance,
        @com.fasterxml.jackson.annotation.JsonAnyGetter Map<String, Object> extensions) {

    public static final String MEDIA_TYPE = "application/problem+json";
    public static final String TYPE_BASE = "https://card-catalog.dev/problems/";

    /**
     * A problem of type {@code TYPE_BASE + slug}. The detail may quote input: it is escaped to printable text and
     * cut at 1,000 code points here ({@link PrintableText}), whatever the caller did.
     */
    public static Problem of(String slug, String title, int status, String detail) {
        return new Problem(TYPE_BASE + slug, title, status, detail == null ? null : PrintableText.of(detail, 1000),
                null, Map.of());
    }

    public Problem with(String member, Object value) {
        var copy = new java.util.LinkedHashMap<>(extensions);
        copy.put(member, value);
        return new Problem(type, title, status, detail, instance, copy);
    }

    public Problem at(String path) {
        return new Problem(type, title, status, detail, path, extensions);
    }
}
