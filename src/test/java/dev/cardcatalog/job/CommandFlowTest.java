package dev.cardcatalog.job;

import static dev.cardcatalog.testing.TestUsers.asOperator;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

import dev.cardcatalog.testing.CardCatalogTestResource;
import dev.cardcatalog.testing.Jobs;
import dev.cardcatalog.testing.ScryfallStandIn;
import dev.cardcatalog.testing.ScryfallStandIn.Fault;
import dev.cardcatalog.testing.TestData;
import dev.cardcatalog.testing.TestDatabase;
import dev.cardcatalog.testing.TestKafka;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Commands on card-catalog.commands from other services, the dead-letter topic, one job of a kind at a time. */
@QuarkusTest
@WithTestResource(CardCatalogTestResource.class)
class CommandFlowTest {

    private static final String COMMANDS = "card-catalog.commands";
    private static final String DLQ = "card-catalog.commands.dlq";

    @BeforeEach
    void reset() {
        TestData.reset();
    }

    @Test
    void aCommandFromAPlainProducerWithoutJobIdRunsARefresh() {
        long offset = TestKafka.send(COMMANDS, "refresh", "{\"type\":\"refresh\"}");

        String jobId = awaitKafkaJob();
        JsonPath job = Jobs.awaitFinished(jobId);

        assertThat(job.getString("state")).isEqualTo("succeeded");
        assertThat(job.getString("trigger")).isEqualTo("api");
        assertThat(job.getString("source")).startsWith(COMMANDS + "/").endsWith("/" + offset);
        // derived from topic, partition and offset, so a redelivery is the same job
        assertThat(jobId).isEqualTo(UUID.nameUUIDFromBytes(job.getString("source")
                .getBytes(StandardCharsets.UTF_8)).toString());
        assertThat(job.getLong("runs[0].counts.seen")).isEqualTo(ScryfallStandIn.SAMPLE_ENGLISH_PAPER_CARDS);
    }

    @Test
    void aRecordThatIsNotJsonLandsInTheDeadLetterTopicAndTheNextCommandStillRuns() {
        String marker = "not json " + UUID.randomUUID();
        TestKafka.send(COMMANDS, "refresh", marker);
        TestKafka.send(COMMANDS, "refresh", "{\"type\":\"refresh\",\"trigger\":\"manual\"}");

        String jobId = awaitKafkaJob();
        assertThat(Jobs.awaitFinished(jobId).getString("state")).isEqualTo("succeeded");

        ConsumerRecord<String, byte[]> dead = awaitDeadLetter(marker);
        assertThat(dead.key()).isEqualTo("refresh");
        assertThat(header(dead, "dead-letter-reason")).contains("not JSON");
        assertThat(header(dead, "dead-letter-topic")).isEqualTo(COMMANDS);
    }

    @Test
    void commandsThatAreNotValidGoToTheDeadLetterTopicWithTheirReason() {
        Map<String, String> invalid = Map.of(
                "{\"type\":\"polish\",\"n\":\"" + UUID.randomUUID() + "\"}", "type \"polish\" is unknown",
                "{\"trigger\":\"manual\",\"n\":\"" + UUID.randomUUID() + "\"}", "type is missing",
                "{\"type\":\"refresh\",\"jobId\":\"42\",\"n\":\"" + UUID.randomUUID() + "\"}", "jobId \"42\" is not a UUID",
                "[\"" + UUID.randomUUID() + "\"]", "not an object",
                "{\"type\":\"refresh\",\"type\":\"art-build\",\"n\":\"" + UUID.randomUUID() + "\"}",
                "Duplicate field 'type'",
                "{\"type\":\"refresh\",\"trigger\":\"hourly\",\"n\":\"" + UUID.randomUUID() + "\"}",
                "trigger \"hourly\" is unknown");
        invalid.keySet().forEach(value -> TestKafka.send(COMMANDS, "refresh", value));

        invalid.forEach((value, reason) ->
                assertThat(header(awaitDeadLetter(value), "dead-letter-reason")).contains(reason));
        assertThat(TestDatabase.count("SELECT count(*) FROM job")).isZero();
    }

    @Test
    void aSecondRefreshWhileOneIsInFlightIsRefusedOverHttpAndSkippedOverKafka() {
        // keep the first refresh busy downloading: 16 KB every 100 ms
        ScryfallStandIn.shared().enqueue("/file/", Fault.slowBody(16 * 1024, Duration.ofMillis(100)));
        String first = Jobs.postRefresh("manual");
        Jobs.awaitState(first, Duration.ofSeconds(30), Set.of("running"));

        asOperator().contentType("application/json").body("{}").post("/api/refreshes")
                .then().statusCode(409)
                .contentType("application/problem+json")
                .body("status", equalTo(409))
                .body("job_id", equalTo(first))
                .body("detail", startsWith("Job " + first + " of kind refresh is already in flight"))
                .body("instance", equalTo("/api/refreshes"));

        String commandJob = UUID.randomUUID().toString();
        TestKafka.send(COMMANDS, "refresh", "{\"type\":\"refresh\",\"jobId\":\"" + commandJob + "\"}");
        JsonPath skipped = Jobs.awaitState(commandJob, Duration.ofSeconds(30), Set.of("skipped"));
        assertThat(skipped.getString("message")).isEqualTo("already in flight: " + first);
        assertThat(skipped.getList("runs")).isEmpty();

        assertThat(Jobs.awaitFinished(first).getString("state")).isEqualTo("succeeded");
    }

    @Test
    void aRedeliveredCommandChangesNothing() {
        String jobId = UUID.randomUUID().toString();
        String command = "{\"type\":\"refresh\",\"jobId\":\"" + jobId + "\"}";
        TestKafka.send(COMMANDS, "refresh", command);
        assertThat(Jobs.awaitFinished(jobId).getString("state")).isEqualTo("succeeded");

        TestKafka.send(COMMANDS, "refresh", command);
        // same key, same partition: once the next command's job is done, the repeat has been consumed
        String next = UUID.randomUUID().toString();
        TestKafka.send(COMMANDS, "refresh", "{\"type\":\"refresh\",\"jobId\":\"" + next + "\"}");
        assertThat(Jobs.awaitFinished(next).getString("state")).isEqualTo("succeeded");

        JsonPath job = Jobs.get(jobId);
        assertThat(job.getString("state")).isEqualTo("succeeded");
        assertThat(job.getList("runs")).hasSize(1);
    }

    @Test
    void aMalformedRequestBodyIsAProblemNamingTheField() {
        asOperator().contentType("application/json").body("{\"trigger\":\"hourly\"}").post("/api/refreshes")
                .then().statusCode(400)
                .contentType("application/problem+json")
                .body("field", equalTo("trigger"))
                .body("detail", startsWith("trigger: must be manual, scheduled or api"));
        asOperator().contentType("application/json").body("{not json").post("/api/refreshes")
                .then().statusCode(400)
                .contentType("application/problem+json");
        assertThat(TestDatabase.count("SELECT count(*) FROM job")).isZero();
    }

    @Test
    void aRecordNearTheBrokersLimitIsDeadLetteredCutShortAndTheConsumerCarriesOn() {
        // about 1 MB: with the dead-letter headers added, a copy of it would be over the broker's limit
        String marker = "oversized " + UUID.randomUUID();
        byte[] value = new byte[1_000_000];
        java.util.Arrays.fill(value, (byte) 'x');
        byte[] start = marker.getBytes(StandardCharsets.UTF_8);
        System.arraycopy(start, 0, value, 0, start.length);
        TestKafka.send(COMMANDS, "refresh", value, Map.of());
        TestKafka.send(COMMANDS, "refresh", "{\"type\":\"refresh\",\"trigger\":\"manual\"}");

        assertThat(Jobs.awaitFinished(awaitKafkaJob()).getString("state")).isEqualTo("succeeded");
        java.util.concurrent.atomic.AtomicReference<ConsumerRecord<String, byte[]>> found =
                new java.util.concurrent.atomic.AtomicReference<>();
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            TestKafka.readAll(DLQ, Duration.ofSeconds(2)).stream()
                    .filter(r -> new String(r.value(), 0, Math.min(start.length, r.value().length),
                            StandardCharsets.UTF_8).equals(marker))
                    .findFirst().ifPresent(found::set);
            return found.get() != null;
        });
        ConsumerRecord<String, byte[]> dead = found.get();
        assertThat(dead.value()).hasSize(DeadLetterValueSerializer.MAX_VALUE_BYTES);
        assertThat(header(dead, DeadLetterValueSerializer.TRUNCATED_HEADER)).isEqualTo("1000000");
        assertThat(header(dead, "dead-letter-reason"))
                .contains("1000000 bytes, over the " + DeadLetterValueSerializer.MAX_VALUE_BYTES);
    }

    private static String awaitKafkaJob() {
        String[] id = new String[1];
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            List<String> ids = Jobs.kafkaJobIds();
            id[0] = ids.isEmpty() ? null : ids.get(0);
            return id[0] != null;
        });
        return id[0];
    }

    private static ConsumerRecord<String, byte[]> awaitDeadLetter(String value) {
        return TestKafka.awaitValue(DLQ, value, Duration.ofSeconds(30));
    }

    private static String header(ConsumerRecord<String, byte[]> record, String name) {
        return TestKafka.header(record, name);
    }
}
