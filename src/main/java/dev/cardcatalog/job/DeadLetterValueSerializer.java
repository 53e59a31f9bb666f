package dev.cardcatalog.job;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import io.micrometer.core.instrument.Metrics;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The value serializer of the dead-letter producers. A record is dead-lettered with its value as received, unless
 * the value is over {@link #MAX_VALUE_BYTES}: then its first {@code MAX_VALUE_BYTES} bytes are kept and the header
 * {@code dead-letter-value-truncated} gives the original length in bytes. Without this, a record near the broker's
 * 1 MB limit plus the dead-letter headers would be refused by the broker, and the channel would fail. The whole
 * record stays on its topic until retention; the {@code dead-letter-topic}, {@code -partition} and {@code -offset}
 * headers point to it.
 */
public class DeadLetterValueSerializer implements Serializer<byte[]> {

    /** The most of a value a dead-letter record keeps: 64 KiB, far more than any command (a few hundred bytes). */
    public static final int MAX_VALUE_BYTES = 64 * 1024;

    /** The header naming the original length of a truncated value, in bytes, as decimal text. */
    public static final String TRUNCATED_HEADER = "dead-letter-value-truncated";

    @Override
    public byte[] serialize(String topic, byte[] data) {
        return data == null || data.length <= MAX_VALUE_BYTES ? data : Arrays.copyOf(data, MAX_VALUE_BYTES);
    }

    @Override
    public byte[] serialize(String topic, Headers headers, byte[] data) {
        // every record on its way to the dead-letter topic, from the consumer or the relay (SERVICE.md §9 alerting);
        // Kafka makes this serializer, not CDI, so the count goes through Micrometer's global registry, which
        // Quarkus's registry is part of
        Metrics.globalRegistry.counter("jobs.commands.dead.lettered").increment();
        if (data != null && data.length > MAX_VALUE_BYTES && headers != null) {
            headers.add(TRUNCATED_HEADER, String.valueOf(data.length).getBytes(StandardCharsets.US_ASCII));
        }
        return serialize(topic, data);
    }
}
