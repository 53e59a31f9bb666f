package dev.cardcatalog.job;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cardcatalog.testing.CardCatalogTestResource;
import dev.cardcatalog.testing.TestData;
import dev.cardcatalog.testing.TestKafka;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The delay relay on the real broker: due times, no head-of-line blocking, untrusted headers. */
@QuarkusTest
@WithTestResource(CardCatalogTestResource.class)
class DelayRelayTest {

    private static final String DELAYED = "card-catalog.commands.delayed";
    private static final String COMMANDS = "card-catalog.commands";
    private static final String DLQ = "card-catalog.commands.dlq";

    @BeforeEach
    void reset() {
        TestData.reset();
    }

    @Test
    void aCommandDueSoonIsNotHeldUpByOneDueLaterAheadOfItInThePartition() {
        long now = System.currentTimeMillis();
        String later = command(UUID.randomUUID());
        String sooner = command(UUID.randomUUID());
        long laterDue = now + 10_000;
        long soonerDue = now + 2_000;
        // same key, same partition: the later one is ahead of the sooner one
        TestKafka.send(DELAYED, "refresh", later.getBytes(StandardCharsets.UTF_8), delayedHeaders(1, laterDue));
        TestKafka.send(DELAYED, "refresh", sooner.getBytes(StandardCharsets.UTF_8), delayedHeaders(1, soonerDue));

        ConsumerRecord<String, byte[]> first = awaitForwarded(sooner, Duration.ofSeconds(15));
        assertThat(first.timestamp()).isBetween(soonerDue, soonerDue + 1_000);
        assertThat(forwarded(later)).isEmpty();
        assertThat(header(first, "retry-count")).isEqualTo("1");
        assertThat(header(first, "not-before")).isEqualTo(String.valueOf(soonerDue));
        assertThat(header(first, "trace-id")).isEqualTo("carried");

        ConsumerRecord<String, byte[]> second = awaitForwarded(later, Duration.ofSeconds(30));
        assertThat(second.timestamp()).isBetween(laterDue, laterDue + 1_000);
        assertThat(forwarded(sooner)).hasSize(1);
    }

    @Test
    void untrustedDelayedRecordsGoToTheDeadLetterTopic() {
        long now = System.currentTimeMillis();
        String forgedCount = command(UUID.randomUUID());
        String dayAhead = command(UUID.randomUUID());
        String noDueTime = command(UUID.randomUUID());
        TestKafka.send(DELAYED, "refresh", forgedCount.getBytes(StandardCharsets.UTF_8), delayedHeaders(99, now));
        TestKafka.send(DELAYED, "refresh", dayAhead.getBytes(StandardCharsets.UTF_8),
                delayedHeaders(1, now + Duration.ofDays(1).toMillis()));
        TestKafka.send(DELAYED, "refresh", noDueTime.getBytes(StandardCharsets.UTF_8), Map.of("retry-count", "1"));

        assertThat(header(awaitDead(forgedCount), "dead-letter-reason")).contains("retry-count 99 is over the maximum");
        assertThat(header(awaitDead(dayAhead), "dead-letter-reason")).contains("not-before is").contains("ahead");
        assertThat(header(awaitDead(noDueTime), "dead-letter-reason")).contains("needs a not-before header");
        assertThat(forwarded(forgedCount)).isEmpty();
        assertThat(forwarded(dayAhead)).isEmpty();
    }

    @Test
    void hostileHeaderBytesReachTheDeadLetterReasonEscapedAndBounded() {
        byte[] longValue = new byte[10_000];
        java.util.Arrays.fill(longValue, (byte) '7');
        longValue[5_000] = 0;
        Map<String, byte[]> hostile = new java.util.LinkedHashMap<>();
        hostile.put("\\x00", new byte[] {'1', 0, '2', 0, 0});
        hostile.put("\\x1b[2J", "\u001b[2J\u001b]0;owned\u0007".getBytes(StandardCharsets.UTF_8));
        hostile.put("\\x85", new byte[] {'1', (byte) 0xC2, (byte) 0x85, (byte) 0xC2, (byte) 0x9B, '2'});
        hostile.put("\\xff\\xfe", new byte[] {(byte) 0xFF, (byte) 0xFE, '3', (byte) 0xC3});
        hostile.put("\\x0a", "12\nFAKE LOG LINE\r\n".getBytes(StandardCharsets.UTF_8));
        hostile.put("…", longValue);
        hostile.forEach((expected, notBefore) -> {
            String value = command(UUID.randomUUID());
            TestKafka.sendRaw(DELAYED, "refresh", value.getBytes(StandardCharsets.UTF_8),
                    Map.of("retry-count", "1".getBytes(StandardCharsets.UTF_8), "not-before", notBefore));

            byte[] reason = awaitDead(value).headers().lastHeader("dead-letter-reason").value();

            String text = new String(reason, StandardCharsets.UTF_8);
            assertThat(text).as("dead-letter-reason %s", text).contains("not-before").contains(expected);
            assertThat(java.util.Arrays.equals(text.getBytes(StandardCharsets.UTF_8), reason))
                    .as("valid UTF-8: %s", text).isTrue();
            assertThat(text.codePoints()).as("printable: %s", text)
                    .noneMatch(c -> c < 0x20 || (c >= 0x7F && c <= 0x9F));
            assertThat(text.length()).as("bounded: %s", text).isLessThan(400);
        });
    }

    @Test
    void aForwardedRetryOfAJobTheLedgerDoesNotKnowIsNotRun() {
        String orphan = command(UUID.randomUUID());
        TestKafka.send(DELAYED, "refresh", orphan.getBytes(StandardCharsets.UTF_8),
                delayedHeaders(1, System.currentTimeMillis()));

        assertThat(header(awaitDead(orphan), "dead-letter-reason")).contains("which the ledger does not know");
        assertThat(forwarded(orphan)).hasSize(1);
        assertThat(dev.cardcatalog.testing.TestDatabase.count("SELECT count(*) FROM job")).isZero();
    }

    private static String command(UUID jobId) {
        return "{\"type\":\"refresh\",\"jobId\":\"" + jobId + "\",\"trigger\":\"manual\"}";
    }

    private static Map<String, String> delayedHeaders(int retryCount, long notBefore) {
        return Map.of("retry-count", String.valueOf(retryCount), "not-before", String.valueOf(notBefore),
                "retry-reason", "test", "trace-id", "carried");
    }

    private static List<ConsumerRecord<String, byte[]>> forwarded(String value) {
        return TestKafka.withValue(COMMANDS, value);
    }

    private static ConsumerRecord<String, byte[]> awaitForwarded(String value, Duration within) {
        return TestKafka.awaitValue(COMMANDS, value, within);
    }

    private static ConsumerRecord<String, byte[]> awaitDead(String value) {
        return TestKafka.awaitValue(DLQ, value, Duration.ofSeconds(30));
    }

    private static String header(ConsumerRecord<String, byte[]> record, String name) {
        return TestKafka.header(record, name);
    }
}
