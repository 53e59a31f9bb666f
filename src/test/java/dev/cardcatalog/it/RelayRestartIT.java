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
            ServiceProcess first = instances.start("relay-1", Map.of());
            long now = System.currentTimeMillis();
            String one = command();
            String two = command();
            long dueOne = now + 25_000;
            long dueTwo = now + 30_000;
            send(one, dueOne);
            send(two, dueTwo);
            sleep(3_000); // the first relay has them, unacknowledged
            first.close();

            instances.start("relay-2", Map.of());

            await().atMost(Duration.ofSeconds(60)).until(() -> forwarded(one).size() == 1
                    && forwarded(two).size() == 1);
            sleep(2_000);
            List<ConsumerRecord<String, byte[]>> forwardedOne = forwarded(one);
            List<ConsumerRecord<String, byte[]>> forwardedTwo = forwarded(two);
            assertThat(forwardedOne).hasSize(1);
            assertThat(forwardedTwo).hasSize(1);
            assertThat(forwardedOne.get(0).timestamp()).isBetween(dueOne, dueOne + 1_000);
            assertThat(forwardedTwo.get(0).timestamp()).isBetween(dueTwo, dueTwo + 1_000);
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
