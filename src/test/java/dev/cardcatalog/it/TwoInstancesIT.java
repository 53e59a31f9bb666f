package dev.cardcatalog.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cardcatalog.testing.EmbeddedKafkaBroker;
import dev.cardcatalog.testing.ScryfallStandIn;
import dev.cardcatalog.testing.ScryfallStandIn.Fault;
import dev.cardcatalog.testing.ServiceProcess;
import dev.cardcatalog.testing.TestDatabase;
import dev.cardcatalog.testing.TestKafka;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Test;

/**
 * Two instances in one consumer group, twenty refresh commands spread over the partitions: never two refresh runs
 * at once, every command accounted for, and a redelivered command changes nothing.
 */
class TwoInstancesIT {

    @Test
    void twentyCommandsForOneKindNeverRunTwoAtOnce() {
        ScryfallStandIn standIn = ScryfallStandIn.shared();
        try (Instances instances = new Instances()) {
            ServiceProcess a = instances.start("a", Map.of());
            ServiceProcess b = instances.start("b", Map.of());
            // each refresh downloads a new file slowly enough for commands to arrive while it runs
            standIn.rotateVersions();
            standIn.always("/file/", Fault.slowBody(64 * 1024, Duration.ofMillis(60)));

            List<String> jobIds = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                if (i == 10) {
                    // two waves, so that at least two refreshes run (one per wave) however long one takes here
                    awaitHandled(10);
                }
                String jobId = UUID.randomUUID().toString();
                jobIds.add(jobId);
                // a key for each partition in turn, so both instances consume commands
                TestKafka.send("card-catalog.commands", keyFor(i % EmbeddedKafkaBroker.PARTITIONS),
                        ("{\"type\":\"refresh\",\"jobId\":\"" + jobId + "\"}").getBytes(StandardCharsets.UTF_8),
                        Map.of());
                sleep(600);
            }
            awaitHandled(20);
            assertThat(TestDatabase.count("SELECT count(*) FROM job")).isEqualTo(20);
            for (String jobId : jobIds) {
                assertThat(TestDatabase.count("SELECT count(*) FROM job WHERE id = ?::uuid", jobId))
                        .as("job %s in the ledger", jobId).isEqualTo(1);
            }

            assertThat(TestDatabase.count("SELECT count(*) FROM job WHERE state = 'failed'")).isZero();
            long succeeded = TestDatabase.count("SELECT count(*) FROM job WHERE state = 'succeeded'");
            assertThat(succeeded).isGreaterThanOrEqualTo(2);
            assertThat(TestDatabase.count("SELECT count(*) FROM job_run")).isEqualTo(succeeded);
            assertThat(handledCommands(instances.log("a"))).isPositive();
            assertThat(handledCommands(instances.log("b"))).isPositive();
            List<Map<String, Object>> runs = TestDatabase.rows(
                    "SELECT started_at, finished_at FROM job_run ORDER BY started_at");
            for (int i = 1; i < runs.size(); i++) {
                Timestamp previousEnd = (Timestamp) runs.get(i - 1).get("finished_at");
                Timestamp start = (Timestamp) runs.get(i).get("started_at");
                assertThat(start).as("run %d starts after run %d ends", i, i - 1).isAfterOrEqualTo(previousEnd);
            }

            String ran = (String) TestDatabase.value(
                    "SELECT id::text FROM job WHERE state = 'succeeded' ORDER BY created_at LIMIT 1");
            TestKafka.send("card-catalog.commands", "refresh", ("{\"type\":\"refresh\",\"jobId\":\"" + ran + "\"}")
                    .getBytes(StandardCharsets.UTF_8), Map.of());
            String marker = UUID.randomUUID().toString();
            TestKafka.send("card-catalog.commands", "refresh", ("{\"type\":\"refresh\",\"jobId\":\"" + marker
                    + "\"}").getBytes(StandardCharsets.UTF_8), Map.of());
            await().atMost(Duration.ofSeconds(60)).until(() -> "succeeded".equals(
                    TestDatabase.value("SELECT state FROM job WHERE id = ?::uuid", marker)));
            assertThat(TestDatabase.count("SELECT count(*) FROM job_run WHERE job_id = ?::uuid", ran)).isEqualTo(1);
        }
    }

    /** Waits until {@code count} refresh jobs have ended (succeeded, skipped or failed). */
    private static void awaitHandled(long count) {
        await().atMost(Duration.ofSeconds(120)).until(() -> TestDatabase.count(
                "SELECT count(*) FROM job WHERE kind = 'refresh' AND state IN ('succeeded', 'skipped', 'failed')")
                >= count);
    }

    /** A record key that Kafka's default partitioner puts in {@code partition}. */
    private static String keyFor(int partition) {
        for (int i = 0; ; i++) {
            String key = "refresh-" + i;
            int chosen = Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8)))
                    % EmbeddedKafkaBroker.PARTITIONS;
            if (chosen == partition) {
                return key;
            }
        }
    }

    /** How many commands an instance's log says it ran or recorded as skipped. */
    private static long handledCommands(Path log) {
        try (var lines = Files.lines(log)) {
            return lines.filter(line -> line.contains("recorded as skipped") || line.contains(" run 1 started"))
                    .count();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
