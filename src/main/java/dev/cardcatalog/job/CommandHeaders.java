package dev.cardcatalog.job;

import dev.cardcatalog.platform.PrintableText;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * The headers this service owns on command records (SERVICE.md §6.2), their names and their parsing, in one place
 * for the publisher, the consumer and the delay relay. A header that cannot be read is an
 * {@link InvalidCommandException} (the dead-letter topic), whose reason shows the value through {@link PrintableText}.
 */
public final class CommandHeaders {

    /** The retry count of a retried command: decimal, exactly one header. */
    public static final String RETRY_COUNT = "retry-count";
    /** When a delayed command may run, epoch milliseconds. */
    public static final String NOT_BEFORE = "not-before";
    /** The wait the source asked for, whole seconds; absent when it gave none. */
    public static final String RETRY_AFTER_ASKED = "retry-after-asked";
    /** Why the command is retried, short printable text. */
    public static final String RETRY_REASON = "retry-reason";

    /** The headers this service owns on a republished command: set anew, never carried. */
    public static final Set<String> OWNED = Set.of(RETRY_COUNT, NOT_BEFORE, RETRY_AFTER_ASKED, RETRY_REASON);

    /** Code points of a header value shown in a reason. */
    private static final int SHOWN = 40;

    private CommandHeaders() {
    }

    /**
     * The {@code retry-count} header: absent is 0.
     *
     * @throws InvalidCommandException more than one, or not a decimal of 1 to 9 digits
     */
    public static int retryCount(Headers headers) {
        byte[] value = single(headers, RETRY_COUNT);
        if (value == null) {
            return 0;
        }
        String text = new String(value, StandardCharsets.UTF_8);
        if (!text.matches("[0-9]{1,9}")) {
            throw new InvalidCommandException("retry-count header " + PrintableText.of(value, SHOWN)
                    + " is not a non-negative decimal");
        }
        return Integer.parseInt(text);
    }

    /**
     * The {@code not-before} header, epoch milliseconds.
     *
     * @throws InvalidCommandException absent, more than one, or not a decimal of 1 to 15 digits
     */
    public static long notBefore(Headers headers) {
        byte[] value = single(headers, NOT_BEFORE);
        if (value == null) {
            throw new InvalidCommandException("a delayed command needs a not-before header (epoch milliseconds)");
        }
        String text = new String(value, StandardCharsets.UTF_8);
        if (!text.matches("[0-9]{1,15}")) {
            throw new InvalidCommandException("not-before " + PrintableText.of(value, SHOWN)
                    + " is not epoch milliseconds");
        }
        return Long.parseLong(text);
    }

    /** The {@code retry-reason} value for {@code reason}: printable, at most 200 code points. */
    public static byte[] retryReason(String reason) {
        return PrintableText.of(reason, 200).getBytes(StandardCharsets.UTF_8);
    }

    /** ASCII bytes of a header value this service writes. */
    static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    /** The value of the one header {@code name}, or null when absent (or without a value). */
    private static byte[] single(Headers headers, String name) {
        Header found = null;
        for (Header header : headers.headers(name)) {
            if (found != null) {
                throw new InvalidCommandException("more than one " + name + " header");
            }
            found = header;
        }
        return found == null ? null : found.value();
    }
}
