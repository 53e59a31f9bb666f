package dev.cardcatalog.job;

import java.util.Base64;
import java.util.List;
import java.util.Set;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * A header of a command record that this service does not own, carried over unchanged when the command is
 * republished (SERVICE.md §6.2). {@code value} is base64 in the ledger.
 */
public record CarriedHeader(String name, String value) {

    /** The headers this service owns on a republished command: set anew, never carried. */
    public static final Set<String> OWNED = CommandHeaders.OWNED;

    public byte[] bytes() {
        return value == null ? null : Base64.getDecoder().decode(value);
    }

    /** The headers of a record that are not owned, in order. */
    public static List<CarriedHeader> from(Headers headers) {
        java.util.ArrayList<CarriedHeader> carried = new java.util.ArrayList<>();
        for (Header header : headers) {
            if (!OWNED.contains(header.key()) && !header.key().startsWith("dead-letter-")) {
                carried.add(new CarriedHeader(header.key(),
                        header.value() == null ? null : Base64.getEncoder().encodeToString(header.value())));
            }
        }
        return carried;
    }
}
