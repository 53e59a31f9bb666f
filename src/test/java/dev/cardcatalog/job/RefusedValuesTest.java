package dev.cardcatalog.job;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cardcatalog.testing.CardCatalogTestResource;
import dev.cardcatalog.testing.Jobs;
import dev.cardcatalog.testing.TestData;
import dev.cardcatalog.testing.TestDatabase;
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

/**
 * The other side of SERVICE.md §6.6: a record whose values PostgreSQL refuses to store is wrong, not an outage. It
 * goes to the dead-letter topic at once, where an outage would hold it, and the consumer carries on.
 */
@QuarkusTest
@WithTestResource(CardCatalogTestResource.class)
class RefusedValuesTest {

    @BeforeEach
    void reset() {
        TestData.reset();
    }

    @Test
    void aCommandWhoseHeadersTheLedgerCannotStoreIsDeadLetteredAndTheNextCommandRuns() {
        // a carried header's name is kept in a jsonb column, which cannot hold U+0000 (SQLSTATE 22P05)
        List<String> names = List.of("\u0000", "trace\u0000id", "x-\u0000");
        for (String name : names) {
            String command = "{\"type\":\"refresh\",\"jobId\":\"" + UUID.randomUUID() + "\"}";
            TestKafka.send("card-catalog.commands", "refresh", command.getBytes(StandardCharsets.UTF_8),
                    Map.of(name, "1"));
            ConsumerRecord<String, byte[]> dead = TestKafka.awaitValue("card-catalog.commands.dlq", command,
                    Duration.ofSeconds(30));
            assertThat(TestKafka.header(dead, "dead-letter-reason")).as("header name %s", name.replace("\u0000", "\\0"))
                    .isEqualTo("could not be registered: the job ledger refused its values");
        }
        assertThat(TestDatabase.count("SELECT count(*) FROM job")).isZero();

        String next = UUID.randomUUID().toString();
        TestKafka.send("card-catalog.commands", "refresh", "{\"type\":\"refresh\",\"jobId\":\"" + next + "\"}");
        assertThat(Jobs.awaitFinished(next).getString("state")).isEqualTo("succeeded");
    }
}
