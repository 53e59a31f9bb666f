package dev.cardcatalog.catalog;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;

/** {@code card-catalog.catalog.*}: what the refresh keeps and how it writes (SERVICE.md §4). */
@ConfigMapping(prefix = "card-catalog.catalog")
public interface CatalogConfig {

    /**
     * Languages kept (Scryfall's {@code lang} codes). Only {@code en}: the {@code default_cards} bulk file; anything
     * else: {@code all_cards}.
     */
    @WithDefault("en")
    List<String> languages();

    /** Cards written per batch (one short transaction each). */
    @WithDefault("1000")
    int batchSize();

    /**
     * How often a replica checks whether {@code card} changed, a Duration ({@link NameIndex}); it reads its name
     * index again once the table has stayed unchanged for this long. Name searches run in SQL until then.
     */
    @WithDefault("5s")
    Duration nameIndexPollInterval();

    /**
     * The most active cards a replica indexes by name in memory ({@link NameIndex}, about 100 bytes a card); with
     * more, name searches run in SQL through the trigram index.
     */
    @WithDefault("1000000")
    int nameIndexMaxCards();

    /**
     * Records the refresh's reading path processes at start, from a bundled sample, so that the JIT compiles it
     * before the first refresh ({@link RefreshWarmUp}); 0 turns it off.
     */
    @WithDefault("20000")
    int warmUpRecords();

    /** Bulk files kept in {@code <data dir>/bulk}, newest first. */
    @WithDefault("2")
    int keepBulkFiles();
}
