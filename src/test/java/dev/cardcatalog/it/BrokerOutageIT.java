package dev.cardcatalog.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cardcatalog.testing.EmbeddedKafkaBroker;
import dev.cardcatalog.testing.ServiceProcess;
import dev.cardcatalog.testing.TestDatabase;
import dev.cardcatalog.testing.TestKafka;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Outages of the Kafka broker hold work instead of dropping it (SERVICE.md §6.6): the broker stopped for longer than
 * the command consumer used to try. Nothing is lost or dead-lettered, a delayed command comes back once the broker
 * is, liveness stays UP throughout, and a POST meanwhile answers 503 with {@code Retry-After}.
 */
class BrokerOutageIT extends Outages {

    @Test
    void aPostAndADelayedCommandDuringABrokerOutageLoseNothing() throws Exception {
        EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.shared();
        assumeTrue(broker.stoppable(), "the broker is a container here, which this test does not stop");
        try (Instances instances = new Instances()) {
            ServiceProcess service = instances.start("broker-outage", SHORT_BACK_OFF);
            instances.awaitConsumers();

            // a refresh waiting for its retry, whose delayed command the relay holds until it is due
            String waiting = UUID.randomUUID().toString();
            String delayed = "{\"type\":\"refresh\",\"jobId\":\"" + waiting + "\"}";
            long due = System.currentTimeMillis() + 8_000;
            TestKafka.send("card-catalog.commands.delayed", "refresh", delayed.getBytes(StandardCharsets.UTF_8),
                    Map.of("retry-count", "1", "not-before", String.valueOf(due)));
            await("the relay to hold the delayed command").atMost(Duration.ofSeconds(20))
                    .until(() -> relayHeld(instances.log("broker-outage")) >= 1);

            String refusedJob;
            String refusedArtJob;
            boolean restarted = false;
            try (Liveness liveness = new Liveness(service)) {
                broker.stopBroker();
                long stoppedAt = System.nanoTime();
                try {
                    HttpResponse<String> refused = post(service, "/api/refreshes");
                    assertThat(refused.statusCode()).as(refused.body()).isEqualTo(503);
                    assertThat(refused.headers().firstValue("Content-Type")).hasValue("application/problem+json");
                    assertThat(refused.headers().firstValue("Retry-After")).hasValue("1");
                    assertThat(refused.body()).contains("/problems/kafka-unavailable");
                    refusedJob = jobId(refused.body());
                    HttpResponse<String> refusedArt = post(service, "/api/art-builds");
                    assertThat(refusedArt.statusCode()).as(refusedArt.body()).isEqualTo(503);
                    assertThat(refusedArt.headers().firstValue("Retry-After")).hasValue("1");
                    assertThat(refusedArt.body()).contains("/problems/kafka-unavailable");
                    refusedArtJob = jobId(refusedArt.body());
                    await("readiness DOWN").atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(200))
                            .until(() -> status(service.managementUrl() + "/health/ready") == 503);
                    assertThat(TestDatabase.value("SELECT state FROM job WHERE id = ?::uuid", refusedJob))
                            .isEqualTo("failed");
                    // the job that waits for its retry, as the ledger has it before its delayed command comes back
                    TestDatabase.execute("INSERT INTO job (id, kind, trigger, state, retry_count, retry_at, source,"
                            + " command, created_at, updated_at) VALUES (?::uuid, 'refresh', 'api', 'waiting', 1,"
                            + " to_timestamp(? / 1000.0), 'api', '{}', now(), now())", waiting, due);
                    sleepUntil(stoppedAt + OUTAGE.toNanos());
                    assertThat(System.currentTimeMillis()).as("the outage outlasts the relay's wait")
                            .isGreaterThan(due + 10_000);
                } finally {
                    broker.restartBroker();
                    restarted = true;
                }

                await("the waiting job to succeed").atMost(Duration.ofSeconds(180))
                        .pollInterval(Duration.ofMillis(500))
                        .until(() -> "succeeded".equals(TestDatabase.value(
                                "SELECT state FROM job WHERE id = ?::uuid", waiting)));
                await("readiness UP").atMost(Duration.ofSeconds(30))
                        .until(() -> status(service.managementUrl() + "/health/ready") == 200);
                assertThat(liveness.failures()).as("liveness failures, as Kubernetes counts them").isEmpty();
            } finally {
                if (!restarted) {
                    broker.restartBroker();
                }
            }
            assertThat(TestDatabase.count("SELECT count(*) FROM job_run WHERE job_id = ?::uuid", waiting))
                    .isEqualTo(1);
            assertThat(TestKafka.withValue("card-catalog.commands.dlq", delayed)).isEmpty();
            // the refused POSTs' commands reach Kafka late (the producer kept them): they run nothing, and block
            // nothing
            for (String refused : List.of(refusedJob, refusedArtJob)) {
                await("the late command of " + refused).atMost(Duration.ofSeconds(60)).until(() -> lines(
                        instances.log("broker-outage")).stream().anyMatch(line -> line.contains("for job " + refused
                        + " (retry-count 0) ignored: the job is failed")));
            }
            for (String refused : List.of(refusedJob, refusedArtJob)) {
                assertThat(TestDatabase.count("SELECT count(*) FROM job_run WHERE job_id = ?::uuid", refused))
                        .isZero();
                assertThat(TestDatabase.value("SELECT state FROM job WHERE id = ?::uuid", refused))
                        .isEqualTo("failed");
                assertThat((String) TestDatabase.value("SELECT message FROM job WHERE id = ?::uuid", refused))
                        .startsWith("the command could not be published to Kafka");
            }
            HttpResponse<String> accepted = post(service, "/api/refreshes");
            assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(202);
            String next = jobId(accepted.body());
            await("the next job to succeed").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500))
                    .until(() -> "succeeded".equals(TestDatabase.value(
                            "SELECT state FROM job WHERE id = ?::uuid", next)));
            assertThat(TestDatabase.count("SELECT count(*) FROM job_run WHERE job_id = ?::uuid", refusedJob))
                    .isZero();
        }
    }

    @Test
    void aDelayedCommandTheRelayCannotForwardIsHeldThroughABrokerOutage() throws Exception {
        EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.shared();
        assumeTrue(broker.stoppable(), "the broker is a container here, which this test does not stop");
        try (Instances instances = new Instances()) {
            Map<String, String> config = new HashMap<>(SHORT_BACK_OFF);
            // the producer gives a record up after a few seconds instead of two minutes, so that the relay's own
            // hold, not the producer's, carries the delayed command through the outage
            config.put("mp.messaging.outgoing.commands-out.max.block.ms", "2000");
            config.put("mp.messaging.outgoing.commands-out.request.timeout.ms", "2000");
            config.put("mp.messaging.outgoing.commands-out.delivery.timeout.ms", "3000");
            ServiceProcess service = instances.start("relay-outage", config);
            instances.awaitConsumers();

            String waiting = UUID.randomUUID().toString();
            String delayed = "{\"type\":\"refresh\",\"jobId\":\"" + waiting + "\"}";
            long due = System.currentTimeMillis() + 5_000;
            TestDatabase.execute("INSERT INTO job (id, kind, trigger, state, retry_count, retry_at, source, command,"
                    + " created_at, updated_at) VALUES (?::uuid, 'refresh', 'api', 'waiting', 1,"
                    + " to_timestamp(? / 1000.0), 'api', '{}', now(), now())", waiting, due);
            TestKafka.send("card-catalog.commands.delayed", "refresh", delayed.getBytes(StandardCharsets.UTF_8),
                    Map.of("retry-count", "1", "not-before", String.valueOf(due)));
            await("the relay to hold the delayed command").atMost(Duration.ofSeconds(20))
                    .until(() -> relayHeld(instances.log("relay-outage")) >= 1);

            try (Liveness liveness = new Liveness(service)) {
                broker.stopBroker();
                long stoppedAt = System.nanoTime();
                try {
                    sleepUntil(stoppedAt + OUTAGE.toNanos());
                    assertThat(relayRetries(instances.log("relay-outage"))).as("the relay's tries to forward")
                            .isGreaterThan(2);
                } finally {
                    broker.restartBroker();
                }
                await("the waiting job to succeed").atMost(Duration.ofSeconds(180))
                        .pollInterval(Duration.ofMillis(500))
                        .until(() -> "succeeded".equals(TestDatabase.value(
                                "SELECT state FROM job WHERE id = ?::uuid", waiting)));
                assertThat(liveness.failures()).as("liveness failures, as Kubernetes counts them").isEmpty();
            }
            assertThat(TestDatabase.count("SELECT count(*) FROM job_run WHERE job_id = ?::uuid", waiting))
                    .isEqualTo(1);
            assertThat(TestKafka.withValue("card-catalog.commands.dlq", delayed)).isEmpty();
        }
    }
}
