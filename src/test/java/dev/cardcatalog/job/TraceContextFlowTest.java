package dev.cardcatalog.job;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cardcatalog.testing.CardCatalogTestResource;
import dev.cardcatalog.testing.Jobs;
import dev.cardcatalog.testing.ScryfallStandIn;
import dev.cardcatalog.testing.ScryfallStandIn.Fault;
import dev.cardcatalog.testing.ShortRetryProfile;
import dev.cardcatalog.testing.TestData;
import dev.cardcatalog.testing.TestKafka;
import io.opentelemetry.sdk.trace.SpanProcessor;
import io.quarkus.arc.Arc;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Trace context through Kafka (SERVICE.md §9) in one instance, read off the records themselves: every record the
 * service publishes carries exactly one {@code traceparent} of the job's trace, through the delayed topic and the
 * relay; a command with a foreign {@code traceparent} joins that trace; {@code GET /api/jobs/{id}} shows it. The
 * spans themselves are checked across two processes by {@code TracingIT}.
 */
@QuarkusTest
@TestProfile(ShortRetryProfile.class)
@WithTestResource(CardCatalogTestResource.class)
class TraceContextFlowTest {

    private static final String COMMANDS = "card-catalog.commands";
    private static final String DELAYED = "card-catalog.commands.delayed";
    private static final String EVENTS = "card-catalog.events";
    private static final String DLQ = "card-catalog.commands.dlq";
    private static final SecureRandom RANDOM = new SecureRandom();

    private final ScryfallStandIn standIn = ScryfallStandIn.shared();

    @BeforeEach
    void reset() {
        TestData.reset();
    }

    @Test
    void aPostedRefreshRateLimitedOnceKeepsItsTraceThroughTheDelayedTopicAndTheRelay() {
        standIn.enqueue("/bulk-data", Fault.status(429).header("Retry-After", "2"));

        String jobId = Jobs.postRefresh("manual");
        JsonPath done = Jobs.awaitCommandState(jobId, Duration.ofSeconds(60), Jobs.FINISHED);

        assertThat(done.getString("state")).isEqualTo("succeeded");
        assertThat(done.getList("runs")).hasSize(2);
        String traceId = done.getString("trace_id");
        assertThat(traceId).matches("[0-9a-f]{32}").isNotEqualTo("0".repeat(32));
        ConsumerRecord<String, byte[]> first = commandOf(jobId, null);
        ConsumerRecord<String, byte[]> delayed = single(recordsOf(DELAYED, jobId));
        ConsumerRecord<String, byte[]> forwarded = commandOf(jobId, "1");
        for (ConsumerRecord<String, byte[]> record : List.of(first, delayed, forwarded)) {
            assertThat(traceIdOf(record)).as(record.topic() + " record").isEqualTo(traceId);
        }
        // each hop is a span of its own: the relay's forward is not a copy of the delayed record's header
        assertThat(parentSpanOf(forwarded)).isNotEqualTo(parentSpanOf(delayed));
        assertThat(parentSpanOf(delayed)).isNotEqualTo(parentSpanOf(first));
        ConsumerRecord<String, byte[]> event = single(recordsOf(EVENTS, jobId).stream()
                .filter(record -> "catalog-refreshed".equals(record.key())).toList());
        assertThat(traceIdOf(event)).isEqualTo(traceId);
        // the records are what docs/asyncapi.yaml says they are
        assertThat(AsyncApiContract.errors(first, "command", "commandHeaders")).isEmpty();
        assertThat(AsyncApiContract.errors(delayed, "command", "delayedCommandHeaders")).isEmpty();
        assertThat(AsyncApiContract.errors(forwarded, "command", "commandHeaders")).isEmpty();
        assertThat(AsyncApiContract.errors(event, "catalogRefreshed", "eventHeaders")).isEmpty();
        // and the schemas can say no: a delayed record without its not-before, an event without its version
        assertThat(AsyncApiContract.errors("delayedCommandHeaders", "{\"retry-count\":\"1\",\"retry-reason\":\"x\","
                + "\"traceparent\":\"00-" + traceId + "-0123456789abcdef-01\"}")).isNotEmpty();
        assertThat(AsyncApiContract.errors("catalogRefreshed", new String(event.value(), StandardCharsets.UTF_8)
                .replace("\"version\"", "\"release\""))).isNotEmpty();
    }

    @Test
    void commandsWithAForeignTraceparentJoinThatTraceThroughTheirRetry() {
        for (String trigger : List.of("api", "scheduled")) {
            TestData.reset();
            standIn.enqueue("/bulk-data", Fault.status(429).header("Retry-After", "2"));
            String foreignTrace = hex(16);
            String jobId = UUID.randomUUID().toString();
            TestKafka.send(COMMANDS, "refresh", ("{\"type\":\"refresh\",\"jobId\":\"" + jobId + "\",\"trigger\":\""
                    + trigger + "\"}").getBytes(StandardCharsets.UTF_8),
                    Map.of("traceparent", "00-" + foreignTrace + "-" + hex(8) + "-01", "tracestate", "vendor=abc",
                            "x-origin", "another-service"));

            JsonPath done = Jobs.awaitCommandState(jobId, Duration.ofSeconds(60), Jobs.FINISHED);

            assertThat(done.getString("state")).isIn("succeeded", "skipped");
            assertThat(done.getString("trace_id")).as(trigger).isEqualTo(foreignTrace);
            ConsumerRecord<String, byte[]> delayed = single(recordsOf(DELAYED, jobId));
            ConsumerRecord<String, byte[]> forwarded = commandOf(jobId, "1");
            for (ConsumerRecord<String, byte[]> record : List.of(delayed, forwarded)) {
                assertThat(traceIdOf(record)).isEqualTo(foreignTrace);
                // the foreign trace's vendor data travels with it; a header the service does not own is carried
                assertThat(values(record, "tracestate")).containsExactly("vendor=abc");
                assertThat(values(record, "x-origin")).containsExactly("another-service");
            }
        }
    }

    @Test
    void aDeadLetterRecordStaysInTheTraceOfTheRecordItCameFrom() {
        String foreignTrace = hex(16);
        String marker = "not json " + UUID.randomUUID();
        TestKafka.send(COMMANDS, "refresh", marker.getBytes(StandardCharsets.UTF_8),
                Map.of("traceparent", "00-" + foreignTrace + "-" + hex(8) + "-01"));

        ConsumerRecord<String, byte[]> dead = TestKafka.awaitValue(DLQ, marker, Duration.ofSeconds(20));

        // the record as received (its traceparent first), then the dead-letter producer's own, in the same trace
        List<String> traceparents = values(dead, "traceparent");
        assertThat(traceparents).hasSize(2);
        assertThat(traceparents).allSatisfy(value -> assertThat(JobTracing.traceId(value)).isEqualTo(foreignTrace));
        assertThat(TestKafka.header(dead, "traceparent")).isNotEqualTo(traceparents.get(0));
        assertThat(AsyncApiContract.errors(dead, null, "deadLetterHeaders")).isEmpty();
    }

    @Test
    void withoutAnOtlpEndpointNoSpanExporterIsInstalled() {
        // Quarkus's OTLP span processor; without an endpoint it is the removable stand-in that exports nothing
        List<String> processors = new ArrayList<>();
        Arc.container().select(SpanProcessor.class, jakarta.enterprise.inject.Any.Literal.INSTANCE)
                .forEach(processor -> processors.add(processor.getClass().getName()));

        assertThat(processors).anyMatch(name -> name.endsWith("RemoveableLateBoundSpanProcessor"));
        assertThat(processors).noneMatch(name -> name.contains("BatchSpanProcessor")
                || name.endsWith(".LateBoundSpanProcessor"));
    }

    /** The command record of {@code jobId} on the commands topic with this {@code retry-count} (null: none). */
    private static ConsumerRecord<String, byte[]> commandOf(String jobId, String retryCount) {
        return single(recordsOf(COMMANDS, jobId).stream()
                .filter(record -> java.util.Objects.equals(TestKafka.header(record, "retry-count"), retryCount))
                .toList());
    }

    private static List<ConsumerRecord<String, byte[]>> recordsOf(String topic, String jobId) {
        return TestKafka.readAll(topic, Duration.ofSeconds(5)).stream()
                .filter(record -> new String(record.value(), StandardCharsets.UTF_8).contains(jobId))
                .toList();
    }

    private static ConsumerRecord<String, byte[]> single(List<ConsumerRecord<String, byte[]>> records) {
        assertThat(records).hasSize(1);
        return records.get(0);
    }

    /** The trace id of the record's one {@code traceparent} header. */
    private static String traceIdOf(ConsumerRecord<String, byte[]> record) {
        List<String> traceparents = values(record, "traceparent");
        assertThat(traceparents).as("traceparent headers on " + record.topic()).hasSize(1);
        assertThat(traceparents.get(0)).matches("00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]");
        return JobTracing.traceId(traceparents.get(0));
    }

    private static String parentSpanOf(ConsumerRecord<String, byte[]> record) {
        return TestKafka.header(record, "traceparent").substring(36, 52);
    }

    private static List<String> values(ConsumerRecord<String, byte[]> record, String name) {
        List<String> values = new ArrayList<>();
        for (Header header : record.headers().headers(name)) {
            values.add(new String(header.value(), StandardCharsets.UTF_8));
        }
        return values;
    }

    private static String hex(int bytes) {
        byte[] random = new byte[bytes];
        RANDOM.nextBytes(random);
        return HexFormat.of().formatHex(random);
    }
}
