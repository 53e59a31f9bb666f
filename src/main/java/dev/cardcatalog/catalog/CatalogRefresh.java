package dev.cardcatalog.catalog;

import dev.cardcatalog.platform.PrintableText;
import dev.cardcatalog.platform.Progress;
import dev.cardcatalog.platform.TransientFailure;
import dev.cardcatalog.scryfall.BulkDataItem;
import dev.cardcatalog.scryfall.ScryfallClient;
import dev.cardcatalog.scryfall.ScryfallSet;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.logging.Log;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;

/**
 * The catalog refresh of SERVICE.md §4: chooses the bulk file by languages, skips a scheduled refresh of a version
 * already applied, downloads the file, loads the sets, streams the file into the catalog in batches, retires the
 * cards the complete pass did not see, and records the version. Idempotent: running it again on the same file
 * writes nothing but what changed, so a run taken over after a crash simply runs again.
 *
 * <p>Runs on the caller's (worker) thread and blocks it; never on an event loop.
 */
@ApplicationScoped
public class CatalogRefresh {

    private static final Duration API_TIMEOUT = Duration.ofMinutes(5);
    private static final int MALFORMED_LOGGED = 100;

    private final ScryfallClient scryfall;
    private final BulkFileDownloader downloader;
    private final SetWriter sets;
    private final CatalogVersions versions;
    private final CatalogConfig config;
    private final DataSource dataSource;
    private final Clock clock;
    private final MeterRegistry metrics;

    public CatalogRefresh(ScryfallClient scryfall, BulkFileDownloader downloader, SetWriter sets,
            CatalogVersions versions, CatalogConfig config, DataSource dataSource, Clock clock,
            MeterRegistry metrics) {
        this.scryfall = scryfall;
        this.downloader = downloader;
        this.sets = sets;
        this.versions = versions;
        this.config = config;
        this.dataSource = dataSource;
        this.clock = clock;
        this.metrics = metrics;
    }

    /** What a refresh ended with. */
    public record Outcome(boolean applied, String version, String languages, RefreshCounts counts, String message) {
    }

    /**
     * Runs one refresh.
     *
     * @param skipIfApplied true for a scheduled refresh: end {@code skipped} when the version is already applied
     *     with the same languages
     * @throws dev.cardcatalog.scryfall.RateLimitedException Scryfall asked to wait longer than the client does
     * @throws dev.cardcatalog.scryfall.ScryfallUnavailableException Scryfall failed, or the download broke off
     * @throws dev.cardcatalog.scryfall.ScryfallRequestException Scryfall refused a request (permanent)
     * @throws BulkFileIntegrityException the file's size differs from the published one
     * @throws NoValidRecordsException the file had no valid record
     * @throws CatalogConfigurationException no bulk file of the needed type is published
     */
    public Outcome run(boolean skipIfApplied, Progress progress) {
        Set<String> languages = languages();
        String languageKey = String.join(",", languages);
        String type = languages.equals(Set.of("en")) ? "default_cards" : "all_cards";

        progress.stage("download", -1);
        List<BulkDataItem> items = scryfall.bulkData().await().atMost(API_TIMEOUT);
        BulkDataItem item = items.stream().filter(i -> type.equals(i.type())).findFirst()
                .orElseThrow(() -> new CatalogConfigurationException("Scryfall's bulk-data list has no " + type
                        + " file (languages " + languageKey + ")"));
        if (item.fileUri() == null) {
            throw new CatalogConfigurationException("the " + type + " bulk-data item has neither "
                    + "jsonl_download_uri nor download_uri");
        }
        String version = item.version();
        progress.version(version, languageKey);
        if (skipIfApplied && versions.applied(version, languageKey)) {
            Log.infof("refresh skipped: %s already applied for %s", version, languageKey);
            return new Outcome(false, version, languageKey, new RefreshCounts(), version + " already applied");
        }

        Path file = downloader.fetch(item, progress);

        progress.stage("sets", -1);
        RefreshCounts counts = new RefreshCounts();
        List<ScryfallSet> setList = scryfall.sets().await().atMost(API_TIMEOUT);
        Instant now = clock.instant();
        try {
            counts.sets = sets.upsert(setList, now);
            progress.count("sets", counts.sets);

            CardWriter writer = sync(file, item.jsonLines(), languages, counts, now, progress);

            progress.stage("retire", -1);
            progress.checkCancelled();
            counts.retired = writer.retireUnseen();
            progress.count("retired", counts.retired);
            versions.record(version, languageKey, clock.instant(), counts.asMap());
        } catch (SQLException e) {
            throw new TransientFailure("the catalog could not be written: " + e.getMessage(), e);
        }
        metrics.counter("catalog.cards.upserted", "kind", "inserted").increment(counts.inserted);
        metrics.counter("catalog.cards.upserted", "kind", "updated").increment(counts.updated);
        Log.infof("refresh applied %s: %s", version, counts.asMap());
        return new Outcome(true, version, languageKey, counts, "applied " + version);
    }

    /** What the reading thread hands the writing thread. */
    private sealed interface Item {
        record Valid(MappedCard card) implements Item {
        }

        /** A malformed record that named its card: the card is kept from retiring. */
        record Protect(UUID id) implements Item {
        }

        /** The end of the file, or the reason the reading stopped. */
        record End(Throwable failure) implements Item {
        }
    }

    /**
     * Streams the file into the catalog; returns the writer, which knows every id the pass saw. Two threads share
     * the work so that the machine's cores overlap: a reader gunzips, parses, digests and filters the records; this
     * (the job's worker) thread writes them in batches. Between them a bounded queue keeps at most a few batches in
     * memory.
     */
    private CardWriter sync(Path file, boolean jsonLines, Set<String> languages, RefreshCounts counts, Instant now,
            Progress progress) throws SQLException {
        progress.stage("sync", fileSize(file));
        CardWriter writer = new CardWriter(dataSource, config.batchSize(), now, counts);
        BlockingQueue<Item> queue = new ArrayBlockingQueue<>(Math.max(2, config.batchSize()) * 4);
        AtomicBoolean stop = new AtomicBoolean();
        Thread reader = new Thread(() -> read(file, jsonLines, languages, counts, progress, queue, stop),
                "card-catalog-bulk-reader");
        reader.setDaemon(true);
        reader.start();
        try {
            long written = 0;
            while (true) {
                Item item = queue.take();
                if (item instanceof Item.Valid valid) {
                    long before = counts.inserted + counts.updated + counts.restored;
                    writer.add(valid.card());
                    if (counts.inserted + counts.updated + counts.restored != before) {
                        progress.progressed();
                    }
                    if ((++written & 255) == 0) {
                        report(counts, progress);
                        progress.checkCancelled();
                    }
                } else if (item instanceof Item.Protect protect) {
                    writer.protect(protect.id());
                } else {
                    Throwable failure = ((Item.End) item).failure();
                    if (failure != null) {
                        throw failure;
                    }
                    break;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TransientFailure("the refresh was interrupted", e);
        } catch (SQLException | RuntimeException | Error e) {
            throw e;
        } catch (BulkFileFormatException e) {
            throw new BulkFileIntegrityException(e.getMessage() + " (" + file.getFileName() + ")");
        } catch (Throwable e) {
            throw new UncheckedIOException("could not read " + file, e instanceof IOException io ? io
                    : new IOException(e));
        } finally {
            stop.set(true);
            reader.interrupt();
        }
        writer.flush();
        report(counts, progress);
        Log.infof("digest lookups: %s, %d batches, %d ms", writer.looksUpDigests() ? "on" : "off (empty catalog)",
                writer.lookupBatches(), writer.lookupNanos() / 1_000_000);
        if (counts.malformed > MALFORMED_LOGGED) {
            Log.warnf("%d malformed card records in all (the first %d logged)", counts.malformed, MALFORMED_LOGGED);
        }
        if (counts.seen == 0) {
            throw new NoValidRecordsException(counts.malformed);
        }
        return writer;
    }

    /** The reading thread: every record mapped and filtered onto the queue, then the end (with its failure). */
    private static void read(Path file, boolean jsonLines, Set<String> languages, RefreshCounts counts,
            Progress progress, BlockingQueue<Item> queue, AtomicBoolean stop) {
        CardMapper mapper = new CardMapper();
        long[] records = {0};
        Throwable failure = null;
        try {
            BulkFileReader.read(file, jsonLines, json -> {
                if (stop.get()) {
                    throw new InterruptedIOException("the writer stopped");
                }
                records[0]++;
                try {
                    MappedCard card = mapper.map(json, records[0]);
                    if (!card.paper() || !languages.contains(card.lang())) {
                        counts.skipped++;
                    } else {
                        put(queue, new Item.Valid(card));
                    }
                } catch (MalformedCardException e) {
                    counts.malformed++;
                    if (e.id() != null) {
                        put(queue, new Item.Protect(e.id()));
                    }
                    if (counts.malformed <= MALFORMED_LOGGED) {
                        Log.warnf("malformed card record %d%s: %s", records[0],
                                e.id() == null ? "" : " (id " + e.id() + ")", PrintableText.of(e.getMessage()));
                    }
                }
            }, progress::done);
        } catch (Throwable e) {
            failure = e;
        }
        if (!stop.get()) {
            try {
                queue.put(new Item.End(failure));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static void put(BlockingQueue<Item> queue, Item item) throws InterruptedIOException {
        try {
            queue.put(item);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("the writer stopped");
        }
    }

    private static void report(RefreshCounts counts, Progress progress) {
        counts.asMap().forEach(progress::count);
    }

    private Set<String> languages() {
        Set<String> languages = new TreeSet<>();
        for (String language : config.languages()) {
            String code = language.trim().toLowerCase(Locale.ROOT);
            if (!code.isEmpty()) {
                languages.add(code);
            }
        }
        if (languages.isEmpty()) {
            throw new CatalogConfigurationException("card-catalog.catalog.languages is empty");
        }
        return languages;
    }

    private static long fileSize(Path file) {
        try {
            return java.nio.file.Files.size(file);
        } catch (IOException e) {
            return -1;
        }
    }
}
