package dev.cardcatalog.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cardcatalog.testing.ScryfallStandIn;
import dev.cardcatalog.testing.TestDatabase;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The refresh warm-up reads the bundled sample through the real reader and mapper, in whole passes, and leaves no
 * file, even when stopped in the middle.
 */
class RefreshWarmUpTest {

    private static final int SAMPLE_RECORDS = 875;

    @Test
    void readsTheBundledSampleInWholePasses() throws Exception {
        assertThat(RefreshWarmUp.run(1, null)).isEqualTo(SAMPLE_RECORDS);
        assertThat(RefreshWarmUp.run(SAMPLE_RECORDS + 1, null)).isEqualTo(2 * SAMPLE_RECORDS);
    }

    /**
     * The warm-up stopped (SIGTERM) in the middle of a pass, as a service stopped during its start-up: in a JVM of
     * its own whose temporary directory is this test's, so that only what the warm-up leaves there is looked at.
     */
    @Test
    void aStopInTheMiddleOfTheWarmUpLeavesNoFileBehind(@TempDir Path temporary) throws Exception {
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:-UsePerfData", "-Djava.io.tmpdir=" + temporary, "-cp", System.getProperty("java.class.path"),
                StoppedWarmUp.class.getName()).redirectErrorStream(true).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
                StandardCharsets.UTF_8))) {
            List<String> lines = new ArrayList<>();
            String line;
            while ((line = out.readLine()) != null && !line.equals(StoppedWarmUp.IN_THE_MIDDLE)) {
                lines.add(line);
            }
            assertThat(line).as("the child's output: %s", lines).isEqualTo(StoppedWarmUp.IN_THE_MIDDLE);
            child.destroy(); // SIGTERM, as Kubernetes stops a pod
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).as("the child stopped").isTrue();
        } finally {
            child.destroyForcibly();
        }
        try (Stream<Path> left = Files.walk(temporary)) {
            assertThat(left.filter(p -> !p.equals(temporary))).as("left in the temporary directory").isEmpty();
        }
    }

    /** Runs the warm-up without end, and stops in its first rehearsal until it is killed. */
    static final class StoppedWarmUp {
        static final String IN_THE_MIDDLE = "in the middle of the warm-up";

        public static void main(String[] arguments) throws Exception {
            RefreshWarmUp.run(Integer.MAX_VALUE, () -> {
                System.out.println(IN_THE_MIDDLE);
                System.out.flush();
                try {
                    Thread.sleep(Long.MAX_VALUE);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                throw new java.sql.SQLException("interrupted");
            });
        }
    }

    @Test
    void rehearsesEachPassAsABatchOnARealDatabaseWithoutWritingAnything() throws Exception {
        // run() checks that every card's digest comes back from PostgreSQL as it was bound
        assertThat(RefreshWarmUp.run(1, TestDatabase::connect)).isEqualTo(SAMPLE_RECORDS);

        CardMapper mapper = new CardMapper();
        List<MappedCard> cards = new ArrayList<>();
        for (String line : ScryfallStandIn.sampleCardLines().subList(0, 50)) {
            cards.add(mapper.map(line.getBytes(StandardCharsets.UTF_8)));
        }
        try (Connection connection = TestDatabase.connect()) {
            Map<UUID, byte[]> back = CardWriter.rehearse(connection, cards, Instant.now());
            assertThat(back).hasSize(50);
            for (MappedCard card : cards) {
                assertThat(back.get(card.id())).isEqualTo(card.contentDigest());
            }
            // the largest rehearsal: its rows' parameters and the array of ids within PostgreSQL's 65,535
            List<MappedCard> largest = new ArrayList<>();
            while (largest.size() < CardWriter.MAX_REHEARSED_ROWS) {
                int missing = CardWriter.MAX_REHEARSED_ROWS - largest.size();
                largest.addAll(cards.subList(0, Math.min(cards.size(), missing)));
            }
            assertThat(CardWriter.rehearse(connection, largest, Instant.now())).hasSize(50);
        }
    }

    @Test
    void theBundledSampleIsTheTestDataSampleAndMapsWithoutAMalformedRecord() throws Exception {
        byte[] bundled = RefreshWarmUp.class.getClassLoader().getResourceAsStream(RefreshWarmUp.SAMPLE).readAllBytes();
        assertThat(bundled).isEqualTo(Files.readAllBytes(
                Path.of("src/test/resources/scryfall/bulk-data/derived__cards-sample.jsonl.gz")));
        CardMapper mapper = new CardMapper();
        long[] mapped = {0};
        BulkFileReader.read(new ByteArrayInputStream(bundled), true, json -> {
            try {
                mapper.map(json);
            } catch (MalformedCardException e) {
                throw new AssertionError("the bundled sample has a malformed record: " + e.getMessage(), e);
            }
            mapped[0]++;
        }, done -> { });
        assertThat(mapped[0]).isEqualTo(SAMPLE_RECORDS);
    }
}
