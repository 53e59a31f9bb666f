package dev.cardcatalog.catalog;

import io.quarkus.logging.Log;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.io.IOException;
import java.io.InputStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * Runs the refresh's code once at start, on a background thread of low priority, over the 875 real card objects
 * bundled in {@code warm-up/cards-sample.jsonl.gz}, read again until {@code card-catalog.catalog.warm-up-records}
 * records have gone through: gunzip, parse, map, digest and compress, exactly as a refresh does, and each pass's
 * cards bound and sent to PostgreSQL as a batch insert binds them, but as a {@code VALUES} list that is only read
 * back as a digest lookup reads, by an array of their ids ({@link CardWriter#rehearse}): the code of a refresh that
 * writes and of one that finds every card unchanged. No table is written and no file either: the sample is
 * streamed from the class path, so a stop during start-up leaves nothing behind. Neither Kafka nor Scryfall is
 * called. The JIT then compiles that code at start instead of during the first refresh, which otherwise took
 * about 1.4 times as long as the later ones (docs/benchmarks.md). A failure is logged and changes nothing.
 */
@ApplicationScoped
public class RefreshWarmUp {

    static final String SAMPLE = "warm-up/cards-sample.jsonl.gz";

    /** Where the warm-up gets a database connection (closed after each use); null to leave the database out. */
    @FunctionalInterface
    interface Connections {
        Connection open() throws SQLException;
    }

    private final CatalogConfig config;
    private final DataSource dataSource;

    public RefreshWarmUp(CatalogConfig config, DataSource dataSource) {
        this.config = config;
        this.dataSource = dataSource;
    }

    void start(@Observes StartupEvent event) {
        int records = config.warmUpRecords();
        if (records <= 0) {
            return;
        }
        Thread thread = new Thread(() -> {
            long start = System.nanoTime();
            try {
                long done = run(records, dataSource::getConnection);
                Log.infof("refresh code warmed up: %d records in %d ms", done,
                        (System.nanoTime() - start) / 1_000_000);
            } catch (IOException | SQLException | RuntimeException e) {
                Log.warnf("the refresh warm-up stopped (%s); the first refresh compiles its code itself",
                        e.getMessage());
            }
        }, "refresh-warm-up");
        thread.setDaemon(true);
        thread.setPriority(Thread.MIN_PRIORITY);
        thread.start();
    }

    /**
     * Reads the bundled sample through the refresh's reader and mapper until at least {@code records} records
     * went through, and rehearses each pass's cards as one batch ({@link CardWriter#rehearse}).
     *
     * @param connections where to rehearse the batches; null to leave the database out
     * @return the records read, {@code records} rounded up to whole passes of the sample
     * @throws IOException if the sample is missing from the class path or cannot be read
     * @throws SQLException if the database fails a rehearsal, or a card does not come back as it was bound
     */
    static long run(int records, Connections connections) throws IOException, SQLException {
        CardMapper mapper = new CardMapper();
        UuidSet seen = new UuidSet(1 << 10);
        long[] read = {0};
        Instant at = Instant.now();
        while (read[0] < records) {
            List<MappedCard> pass = new ArrayList<>();
            // straight from the class path, each pass: no copy on disk that a stop during start-up could leave behind
            InputStream sample = RefreshWarmUp.class.getClassLoader().getResourceAsStream(SAMPLE);
            if (sample == null) {
                throw new IOException("the warm-up sample " + SAMPLE + " is missing from the class path");
            }
            BulkFileReader.read(sample, true, json -> {
                read[0]++;
                try {
                    MappedCard card = mapper.map(json, read[0]);
                    seen.add(card.id());
                    pass.add(card);
                } catch (MalformedCardException e) {
                    // the sample has none; a refresh counts and skips them
                }
            }, done -> { });
            if (connections != null) {
                rehearse(connections, pass, at);
            }
        }
        return read[0];
    }

    private static void rehearse(Connections connections, List<MappedCard> cards, Instant at) throws SQLException {
        try (Connection connection = connections.open()) {
            for (int from = 0; from < cards.size(); from += CardWriter.MAX_REHEARSED_ROWS) {
                List<MappedCard> batch = cards.subList(from,
                        Math.min(cards.size(), from + CardWriter.MAX_REHEARSED_ROWS));
                Map<UUID, byte[]> back = CardWriter.rehearse(connection, batch, at);
                for (MappedCard card : batch) {
                    if (!Arrays.equals(back.get(card.id()), card.contentDigest())) {
                        throw new SQLException("card " + card.id() + " did not come back as it was bound");
                    }
                }
            }
        }
    }
}
