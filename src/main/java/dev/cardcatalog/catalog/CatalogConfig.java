package dev.cardcatalog.catalog;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
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

    /** Bulk files kept in {@code <data dir>/bulk}, newest first. */
    @WithDefault("2")
    int keepBulkFiles();
}
