package dev.cardcatalog.job;

import java.util.Base64;
import java.util.List;
import java.util.Set;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * A header of a command record that this service does not own, carried over unchanged when the command is
 * republished (SERVICE.md §6.2). {@code value} is base64 in the ledger. The trace propagation headers
 * ({@code traceparent}, {@code tracestate}, {@code baggage}) are not carried: the republished record gets them anew
 * from the trace it is published in ({@link JobTracing}).
 */
public record CarriedHeader(String name, String value) {

    /** The headers this service owns on a republished command: set anew, never carried. */
    public static final Set<String> OWNED = CommandHeaders.OWNED;

    public byte[] bytes() {
        return value == null ? null : Base64.getDecoder().decode(value);
    }

    /** Whether a header of this name is carried over: not owned, not a dead-letter header, not trace propagation. */
    public static boolean carried(String name) {
        return !OWNED.contains(name) && !name.startsWith("dead-letter-") && !JobTracing.PROPAGATION.contains(name);
    }

    /** The headers of a record that are carried over, in order. */
    public static List<CarriedHeader> from(Headers headers) {
        java.util.ArrayList<CarriedHeader> carried = new java.util.ArrayList<>();
        for (Header header : headers) {
            if (carried(header.key())) {
                carried.add(new CarriedHeader(header.key(),
                        header.value() == null ? null : Base64.getEncoder().encodeToString(header.value())));
            }
        }
        return carried;
    }
}
