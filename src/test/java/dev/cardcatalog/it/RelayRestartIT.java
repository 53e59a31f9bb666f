package dev.cardcatalog.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cardcatalog.testing.ServiceProcess;
import dev.cardcatalog.testing.TestKafka;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * The relay stopped and started while delayed commands wait: nothing was committed past them, so the new instance
 * gets them again and forwards each once, on time.
 */
class RelayRestartIT {

    @Test
    void commandsWaitingWhileTheRelayRestartsAreForwardedOnceOnTime() {
        try (Instances instances = new Instances()) {
            ServiceProcess first = instances.start("relay-1", RELAY_DEBUG);
            long now = System.currentTimeMillis();
            String one = command();
            String two = command();
            long dueOne = now + 25_000;
            long dueTwo = now + 30_000;
            send(one, dueOne);
            send(two, dueTwo);
            // the first relay has them, unacknowledged: it says so at DEBUG when it holds a record
            await("the first relay to hold both records").atMost(Duration.ofSeconds(20))
                    .pollInterval(Duration.ofMillis(100)).until(() -> held(instances.log("relay-1")) >= 2);
            assertThat(forwarded(one)).isEmpty();
            first.close();

            instances.start("relay-2", RELAY_DEBUG);
            // On time means: never before its not-before, and within a second of it once the new relay holds it.
            // The new relay's start and its partition assignment take longer on a busy machine, so the second is
            // counted from whichever comes later; when the relay got the records is read from its DEBUG line
            // (polled every 100 ms, so heldAt is at or after the moment it got them).
            long[] heldAt = {Long.MAX_VALUE};
            await("the new relay to hold both records").atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(100)).until(() -> {
                        if (held(instances.log("relay-2")) >= 2) {
                            heldAt[0] = Math.min(heldAt[0], System.currentTimeMillis());
                        }
                        return heldAt[0] != Long.MAX_VALUE;
                    });

            await().atMost(Duration.ofSeconds(60)).until(() -> forwarded(one).size() == 1
                    && forwarded(two).size() == 1);
            sleep(2_000);
            List<ConsumerRecord<String, byte[]>> forwardedOne = forwarded(one);
            List<ConsumerRecord<String, byte[]>> forwardedTwo = forwarded(two);
            assertThat(forwardedOne).hasSize(1);
            assertThat(forwardedTwo).hasSize(1);
            assertThat(forwardedOne.get(0).timestamp()).isBetween(dueOne, Math.max(dueOne, heldAt[0]) + 1_000);
            assertThat(forwardedTwo.get(0).timestamp()).isBetween(dueTwo, Math.max(dueTwo, heldAt[0]) + 1_000);
        }
    }

    private static final Map<String, String> RELAY_DEBUG =
            Map.of("quarkus.log.category.\"dev.cardcatalog.job.DelayRelay\".level", "DEBUG");

    /** How many records the relay whose log this is has said it holds. */
    private static long held(java.nio.file.Path log) throws java.io.IOException {
        if (!java.nio.file.Files.exists(log)) {
            return 0;
        }
        try (var lines = java.nio.file.Files.lines(log, StandardCharsets.UTF_8)) {
            return lines.filter(line -> line.contains("delayed command card-catalog.commands.delayed/")
                    && line.contains(" held until ")).count();
        }
    }

    private static String command() {
        return "{\"type\":\"refresh\",\"jobId\":\"" + UUID.randomUUID() + "\"}";
    }

    private static void send(String value, long notBefore) {
        TestKafka.send("card-catalog.commands.delayed", "refresh", value.getBytes(StandardCharsets.UTF_8),
                Map.of("retry-count", "1", "not-before", String.valueOf(notBefore)));
    }

    private static List<ConsumerRecord<String, byte[]>> forwarded(String value) {
        return TestKafka.withValue("card-catalog.commands", value);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
