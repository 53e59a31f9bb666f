package dev.cardcatalog.it;

import static dev.cardcatalog.testing.TestUsers.asOperator;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cardcatalog.testing.OtlpReceiver;
import dev.cardcatalog.testing.OtlpReceiver.ExportedSpan;
import dev.cardcatalog.testing.ScryfallStandIn;
import dev.cardcatalog.testing.ScryfallStandIn.Fault;
import dev.cardcatalog.testing.ServiceProcess;
import dev.cardcatalog.testing.TestDatabase;
import dev.cardcatalog.testing.TestKafka;
import io.restassured.path.json.JsonPath;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * One trace from the first command to the last retry (SERVICE.md §9), exported by two service processes over
 * OTLP/HTTP (protobuf) to a receiver in this JVM, configured only with Quarkus's standard environment variables.
 * A refresh is rate-limited on its first run (a Retry-After over the shortened 1 s MAX_BACK_OFF), goes through the
 * delayed topic and the relay, and runs again: every span of the story is in one trace, the retried run descends
 * from the failed one, and {@code GET /api/jobs/{id}} shows the trace id.
 */
class TracingIT {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Map<String, String> SHORT_RETRY = Map.of(
            "card-catalog.scryfall.max-back-off", "1s",
            "card-catalog.scryfall.rate-limit-lockout", "1s",
            "card-catalog.retry.rate-limit-min-delay", "3s");

    @Test
    void oneTraceFromTheFirstCommandToTheRetriedRunAcrossTwoInstances() {
        ScryfallStandIn standIn = ScryfallStandIn.shared();
        try (OtlpReceiver receiver = OtlpReceiver.start(); Instances instances = new Instances()) {
            Map<String, String> exportTo = Map.of(
                    "QUARKUS_OTEL_EXPORTER_OTLP_ENDPOINT", receiver.endpoint(),
                    "QUARKUS_OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf",
                    "QUARKUS_OTEL_BSP_SCHEDULE_DELAY", "200ms");
            // b writes JSON log lines (quarkus-logging-json), a Quarkus's console format
            Map<String, String> jsonLogs = new java.util.HashMap<>(exportTo);
            jsonLogs.put("QUARKUS_LOG_CONSOLE_JSON_ENABLED", "true");
            List<ServiceProcess> both = List.of(instances.start("a", SHORT_RETRY, exportTo),
                    instances.start("b", SHORT_RETRY, jsonLogs));
            instances.awaitConsumers();

            // A command from another service, in that service's trace, whose first run finds Scryfall's quiet window
            // open (as another replica's 429 would have left it): refused without a request, retried.
            String foreignTrace = hex(16);
            String commandJob = UUID.randomUUID().toString();
            java.net.URI api = java.net.URI.create(standIn.baseUrl());
            TestDatabase.execute("INSERT INTO quiet_window (scope, opened_at, until, opened_by, reason) "
                    + "VALUES (?, now(), now() + interval '10 seconds', 'TracingIT', 'a 429 elsewhere') "
                    + "ON CONFLICT (scope) DO UPDATE SET until = excluded.until, opened_by = excluded.opened_by",
                    api.getHost() + ":" + api.getPort());
            TestKafka.send("card-catalog.commands", "refresh", ("{\"type\":\"refresh\",\"jobId\":\"" + commandJob
                    + "\"}").getBytes(StandardCharsets.UTF_8),
                    Map.of("traceparent", "00-" + foreignTrace + "-" + hex(8) + "-01"));
            awaitState(commandJob, "succeeded");
            assertThat(job(both.get(0), commandJob).getString("trace_id")).isEqualTo(foreignTrace);
            ExportedSpan foreignFirst = awaitRun(receiver, foreignTrace, commandJob, 1);
            ExportedSpan foreignRetried = awaitRun(receiver, foreignTrace, commandJob, 2);
            assertThat(foreignFirst.parentSpanId()).isNotEmpty();
            assertThat(receiver.descends(foreignRetried, foreignFirst)).as("the retried run descends from the first")
                    .isTrue();
            assertThat(receiver.trace(foreignTrace)).filteredOn(span -> span.name().equals("scryfall api")
                    && span.events().contains("quiet window refusal") && receiver.descends(span, foreignFirst))
                    .hasSize(1);

            // A POST, rate-limited twice on one call: a wait it sits out (1 s, the shortened MAX_BACK_OFF), then one
            // it does not; the instance that ran the first run stops while the job waits, so the delayed record is
            // relayed, and the job run again, by the other instance.
            standIn.enqueue("/bulk-data", Fault.status(429).header("Retry-After", "1"));
            standIn.enqueue("/bulk-data", Fault.status(429).header("Retry-After", "3"));
            JsonPath posted = asOperator().baseUri(both.get(0).baseUrl()).contentType("application/json")
                    .body("{\"trigger\":\"manual\"}").post("/api/refreshes").then().statusCode(202).extract()
                    .jsonPath();
            String postedJob = posted.getString("id");
            String traceId = posted.getString("trace_id");
            assertThat(traceId).matches("[0-9a-f]{32}");
            awaitState(postedJob, "waiting");
            ExportedSpan first = awaitRun(receiver, traceId, postedJob, 1);
            String firstOwner = (String) TestDatabase.value(
                    "SELECT owner FROM job_run WHERE job_id = ?::uuid AND attempt = 1", postedJob);
            ServiceProcess ranFirst = both.stream().filter(s -> firstOwner.startsWith(s.pid() + "@")).findFirst()
                    .orElseThrow();
            ServiceProcess other = both.stream().filter(s -> s != ranFirst).findFirst().orElseThrow();
            ranFirst.close();

            awaitState(postedJob, "succeeded");
            String secondOwner = (String) TestDatabase.value(
                    "SELECT owner FROM job_run WHERE job_id = ?::uuid AND attempt = 2", postedJob);
            assertThat(secondOwner).startsWith(other.pid() + "@");
            assertThat(job(other, postedJob).getString("trace_id")).isEqualTo(traceId);
            ExportedSpan retried = awaitRun(receiver, traceId, postedJob, 2);

            List<ExportedSpan> trace = receiver.trace(traceId);
            ExportedSpan post = trace.stream().filter(span -> span.kind().equals("SPAN_KIND_SERVER")
                    && span.name().contains("/api/refreshes")).findFirst().orElseThrow(
                            () -> new AssertionError("no server span of the POST in " + names(trace)));
            assertThat(post.isRoot()).isTrue();
            assertThat(receiver.descends(first, post)).as("the first run descends from the POST").isTrue();
            assertThat(receiver.descends(retried, first)).as("the retried run descends from the first").isTrue();
            // the hops between them: publish and receive on the commands topic, the delayed topic and back
            assertThat(trace).filteredOn(span -> span.kind().equals("SPAN_KIND_PRODUCER")).extracting(
                    span -> span.attributes().get("messaging.destination.name"))
                    .contains("card-catalog.commands", "card-catalog.commands.delayed");
            assertThat(trace).filteredOn(span -> span.kind().equals("SPAN_KIND_CONSUMER")).extracting(
                    span -> span.attributes().get("messaging.destination.name"))
                    .contains("card-catalog.commands", "card-catalog.commands.delayed");
            // the Scryfall call that was rate-limited: a client span of the first run with the refusal's event
            ExportedSpan limited = trace.stream().filter(span -> span.kind().equals("SPAN_KIND_CLIENT")
                    && span.name().equals("scryfall api") && "429".equals(
                            span.attributes().get("http.response.status_code"))).findFirst()
                    .orElseThrow(() -> new AssertionError("no rate-limited Scryfall span in " + names(trace)));
            // the wait it sat out, the one it would not, then the RateLimitedException that ended the call
            assertThat(limited.events()).containsExactly("retry-after wait", "wait over max back-off", "exception");
            assertThat(limited.attributes()).containsEntry("scryfall.attempts", "2");
            assertThat(receiver.descends(limited, first)).isTrue();
            assertThat(first.attributes()).containsEntry("job.kind", "refresh").containsEntry("job.trigger", "manual")
                    .containsEntry("job.id", postedJob);
            assertThat(trace).allSatisfy(span -> assertThat(span.resource()).containsEntry("service.name",
                    "card-catalog"));
            assertThat(receiver.failures()).isEmpty();

            // b ran one of the POSTed job's runs (the first, or the second after a stopped): its log lines carry
            // the run's trace and span ids; a's console lines keep Quarkus's format
            List<JsonPath> runLines = jsonLines(instances.log("b")).stream()
                    .filter(line -> String.valueOf(line.getString("message"))
                            .matches("refresh job " + postedJob + " run \\d started .*"))
                    .toList();
            assertThat(runLines).isNotEmpty();
            for (JsonPath line : runLines) {
                assertThat(line.getString("mdc.traceId")).isEqualTo(traceId);
                assertThat(line.getString("mdc.spanId")).matches("[0-9a-f]{16}");
            }
            assertThat(lines(instances.log("a"))).filteredOn(line -> line.contains("[dev.cardcatalog.job.JobWorker]"))
                    .isNotEmpty().allSatisfy(line -> assertThat(line).matches(
                            "\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2},\\d{3} (INFO |WARN |ERROR) \\[.*"));
            assertThat(receiver.contentTypes()).isNotEmpty().allSatisfy(type -> assertThat(type)
                    .startsWith("application/x-protobuf"));
        }
    }

    /** Waits for the span of run {@code attempt} of {@code jobId} in {@code traceId}. */
    private static ExportedSpan awaitRun(OtlpReceiver receiver, String traceId, String jobId, int attempt) {
        ExportedSpan[] found = new ExportedSpan[1];
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
            Optional<ExportedSpan> run = receiver.trace(traceId).stream()
                    .filter(span -> span.name().equals("refresh run")
                            && jobId.equals(span.attributes().get("job.id"))
                            && Integer.toString(attempt).equals(span.attributes().get("job.attempt")))
                    .findFirst();
            assertThat(run).as("run %d of job %s in trace %s; spans of the trace: %s; %d spans in all; receiver "
                    + "failures: %s", attempt, jobId, traceId, names(receiver.trace(traceId)), receiver.spans().size(),
                    receiver.failures()).isPresent();
            found[0] = run.get();
        });
        return found[0];
    }

    private static void awaitState(String jobId, String state) {
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200)).until(() -> state.equals(
                TestDatabase.value("SELECT state FROM job WHERE id = ?::uuid", jobId)));
    }

    private static JsonPath job(ServiceProcess service, String jobId) {
        return asOperator().baseUri(service.baseUrl()).get("/api/jobs/" + jobId).then().statusCode(200).extract()
                .jsonPath();
    }

    /** The lines of a log written as JSON objects, one a line (lines that are not, such as the JVM's, skipped). */
    private static List<JsonPath> jsonLines(java.nio.file.Path log) {
        return lines(log).stream().filter(line -> line.startsWith("{")).map(JsonPath::new).toList();
    }

    private static List<String> lines(java.nio.file.Path log) {
        try {
            return java.nio.file.Files.readAllLines(log, StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static List<String> names(List<ExportedSpan> spans) {
        return spans.stream().map(span -> span.name() + "(" + span.kind() + ")").toList();
    }

    private static String hex(int bytes) {
        byte[] random = new byte[bytes];
        RANDOM.nextBytes(random);
        return HexFormat.of().formatHex(random);
    }
}
