package dev.cardcatalog.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cardcatalog.testing.ScryfallStandIn;
import dev.cardcatalog.testing.TestDatabase;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The refresh warm-up reads the bundled sample through the real reader and mapper, in whole passes, and leaves no file. */
class RefreshWarmUpTest {

    private static final int SAMPLE_RECORDS = 875;

    @Test
    void readsTheBundledSampleInWholePassesAndLeavesNoFile() throws Exception {
        assertThat(RefreshWarmUp.run(1, null)).isEqualTo(SAMPLE_RECORDS);
        assertThat(RefreshWarmUp.run(SAMPLE_RECORDS + 1, null)).isEqualTo(2 * SAMPLE_RECORDS);
        try (Stream<Path> left = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            assertThat(left.filter(p -> p.getFileName().toString().startsWith("card-catalog-warm-up"))).isEmpty();
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
        Path file = Files.createTempFile("warm-up-test", ".jsonl.gz");
        try {
            Files.write(file, bundled);
            long[] mapped = {0};
            BulkFileReader.read(file, true, json -> {
                try {
                    mapper.map(json);
                } catch (MalformedCardException e) {
                    throw new AssertionError("the bundled sample has a malformed record: " + e.getMessage(), e);
                }
                mapped[0]++;
            }, done -> { });
            assertThat(mapped[0]).isEqualTo(SAMPLE_RECORDS);
        } finally {
            Files.delete(file);
        }
    }
}
