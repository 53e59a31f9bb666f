package dev.cardcatalog.catalog;

import io.quarkus.logging.Log;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.SQLException;

/**
 * Runs the refresh's reading path once at start, on a background thread of low priority, over the 875 real card
 * objects bundled in {@code warm-up/cards-sample.jsonl.gz}, read again until
 * {@code card-catalog.catalog.warm-up-records} records have gone through: gunzip, parse, map, digest and
 * compress, exactly as a refresh does, with nothing written anywhere. The JIT then compiles that code at start,
 * instead of during the first refresh, which otherwise took about 1.4 times as long as the later ones
 * (docs/benchmarks.md). It touches neither the database nor Kafka nor Scryfall; a failure is logged and changes
 * nothing.
 */
@ApplicationScoped
public class RefreshWarmUp {

    static final String SAMPLE = "warm-up/cards-sample.jsonl.gz";

    private final CatalogConfig config;

    public RefreshWarmUp(CatalogConfig config) {
        this.config = config;
    }

    void start(@Observes StartupEvent event) {
        int records = config.warmUpRecords();
        if (records <= 0) {
            return;
        }
        Thread thread = new Thread(() -> {
            long start = System.nanoTime();
            try {
                long done = run(records);
                Log.infof("refresh reading path warmed up: %d records in %d ms", done,
                        (System.nanoTime() - start) / 1_000_000);
            } catch (IOException | RuntimeException e) {
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
     * went through, compressing each mapped card's object.
     *
     * @return the records read, {@code records} rounded up to whole passes of the sample
     * @throws IOException if the sample cannot be copied to a temporary file or read
     */
    static long run(int records) throws IOException {
        Path file = Files.createTempFile("card-catalog-warm-up", ".jsonl.gz");
        try {
            try (InputStream sample = RefreshWarmUp.class.getClassLoader().getResourceAsStream(SAMPLE)) {
                if (sample == null) {
                    throw new IOException("the warm-up sample " + SAMPLE + " is missing from the class path");
                }
                Files.copy(sample, file, StandardCopyOption.REPLACE_EXISTING);
            }
            CardMapper mapper = new CardMapper();
            UuidSet seen = new UuidSet(1 << 10);
            long[] read = {0};
            long[] bytes = {0};
            while (read[0] < records) {
                BulkFileReader.read(file, true, json -> {
                    read[0]++;
                    try {
                        MappedCard card = mapper.map(json, read[0]);
                        bytes[0] += CardObjects.encode(card.json()).length;
                        seen.add(card.id());
                    } catch (MalformedCardException e) {
                        // the sample has none; a refresh counts and skips them
                    }
                }, done -> { });
            }
            return read[0];
        } catch (SQLException e) {
            throw new IllegalStateException("the warm-up reader does not write", e);
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
