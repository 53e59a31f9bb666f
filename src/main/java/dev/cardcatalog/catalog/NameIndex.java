package dev.cardcatalog.catalog;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.logging.Log;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * This replica's in-memory index of the active cards' {@code search_names}, in the list's order (name, newest
 * printing first, id), for {@code GET /api/cards?name=}. A search walks one string of every name with
 * {@link String#indexOf(String, int)} and stops once it has the page and {@value CardResource#MAX_TOTAL} + 1
 * matches; PostgreSQL then reads only the page's rows, by id. Through the trigram index every match had to be read
 * and sorted, which a common word (thousands of matches) made too slow for 200 searches a second on two cores.
 *
 * <p>It is a cache of the {@code card} table, never a second source: it records the count in {@code card_change}
 * (migration V11, bumped by every statement that changes {@code card}) at which it was read, and a search uses it
 * only while that count is unchanged; otherwise the search runs in SQL, as before. Every
 * {@code card-catalog.catalog.name-index-poll-interval} the replica reads the count, and reads the index again once
 * the table has stayed unchanged for one interval: during a refresh searches run in SQL, and the index catches up
 * an interval or two after it.
 *
 * <p>Memory: about 40 bytes a card plus its {@code search_names} (1 byte a character while every name is Latin-1,
 * else 2), so about 90 bytes a card and 9 MB for 104,000 cards (estimated from those sizes); twice that while a
 * rebuild replaces it. A catalog of more than
 * {@code card-catalog.catalog.name-index-max-cards} active cards is not indexed (searches stay in SQL).
 *
 * <p>Metrics (gauges): {@code catalog.name.index.cards}, the active cards the index holds, and
 * {@code catalog.name.index.changes}, the {@code card_change} count it was read at; both -1 while there is none.
 */
@ApplicationScoped
public class NameIndex {

    /** Between two cards' names in {@link Snapshot#names}; a search key never holds it (control characters are refused). */
    private static final char SEPARATOR = '\n';
    private static final int FETCH_SIZE = 10_000;

    /**
     * One reading of the table.
     *
     * @param changes the {@code card_change} count the rows were read at
     * @param names   every active card's {@code search_names}, in list order, each followed by {@link #SEPARATOR}
     * @param starts  where each card's names start in {@code names}, ascending
     * @param ids     each card's id
     * @param langs   each card's {@code lang}, as an index into {@code languages}
     */
    record Snapshot(long changes, String names, int[] starts, UUID[] ids, byte[] langs, List<String> languages) {

        int cards() {
            return starts.length;
        }
    }

    /**
     * The cards on one page of a search, and how many match.
     *
     * @param ids   the page's card ids, in list order
     * @param total the matches counted, at most {@code countLimit} (the page's end past it counts that far)
     */
    record Matches(List<UUID> ids, long total) {
    }

    private final DataSource dataSource;
    private final CatalogConfig config;
    private volatile Snapshot snapshot;
    /** The {@code card_change} count the last poll read; -1 before the first. */
    private long seen = -1;
    /** The count at which the catalog had too many active cards to index; -1 when it has not. */
    private volatile long tooLargeAt = -1;

    public NameIndex(DataSource dataSource, CatalogConfig config, MeterRegistry metrics) {
        this.dataSource = dataSource;
        this.config = config;
        Gauge.builder("catalog.name.index.cards", this, index -> {
            Snapshot current = index.snapshot;
            return current == null ? -1 : current.cards();
        }).description("Active cards in this replica's name index; -1 while it has none").register(metrics);
        Gauge.builder("catalog.name.index.changes", this, index -> {
            Snapshot current = index.snapshot;
            return current == null ? -1 : current.changes();
        }).description("The card_change count this replica's name index was read at; -1 while it has none; the "
                + "index answers while it equals the table's").register(metrics);
    }

    /** The index when it was read at {@code changes}, the current {@code card_change} count; otherwise empty. */
    Optional<Snapshot> at(long changes) {
        Snapshot current = snapshot;
        return current != null && current.changes() == changes ? Optional.of(current) : Optional.empty();
    }

    /**
     * Reads the index again when the table changed and has then stayed as it is for one poll interval (so not
     * after every batch of a refresh), or at once when there is none yet. A catalog found too large to index is
     * read again only after it changed.
     */
    @Scheduled(every = "${card-catalog.catalog.name-index-poll-interval}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void poll() {
        try {
            long changes = changes();
            Snapshot current = snapshot;
            boolean behind = current == null ? changes != tooLargeAt : current.changes() != changes;
            boolean quiet = changes == seen || current == null && tooLargeAt < 0;
            if (behind && quiet) {
                rebuild();
            }
            seen = changes;
        } catch (SQLException | RuntimeException e) {
            Log.warnf("the name index could not be read (%s); name searches run in SQL", e.getMessage());
        }
    }

    /**
     * Reads the active cards' names, in list order, and the {@code card_change} count, in one snapshot of the
     * database, and makes that the index.
     *
     * @throws SQLException if the database cannot be read
     */
    void rebuild() throws SQLException {
        int maxCards = config.nameIndexMaxCards();
        long start = System.nanoTime();
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            // one snapshot for the count and the rows (the pool restores the connection's settings when it is closed)
            connection.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            try {
                long changes = changes(connection);
                try (PreparedStatement sortMemory = connection.prepareStatement("SET LOCAL work_mem = '64MB'")) {
                    // the sort below in memory, not in temporary files
                    sortMemory.execute();
                }
                StringBuilder names = new StringBuilder();
                int[] starts = new int[1024];
                UUID[] ids = new UUID[1024];
                byte[] langs = new byte[1024];
                Map<String, Byte> languageIndex = new HashMap<>();
                List<String> languages = new ArrayList<>();
                int cards = 0;
                try (PreparedStatement select = connection.prepareStatement(
                        "SELECT id, search_names, lang FROM card WHERE retired_at IS NULL "
                                + "ORDER BY name, released_at DESC, id")) {
                    select.setFetchSize(FETCH_SIZE);
                    try (ResultSet rows = select.executeQuery()) {
                        while (rows.next()) {
                            if (cards == maxCards) {
                                snapshot = null;
                                tooLargeAt = changes;
                                Log.infof("the catalog has more than %d active cards: name searches run in SQL",
                                        maxCards);
                                return;
                            }
                            if (cards == starts.length) {
                                int grown = cards * 2;
                                starts = Arrays.copyOf(starts, grown);
                                ids = Arrays.copyOf(ids, grown);
                                langs = Arrays.copyOf(langs, grown);
                            }
                            starts[cards] = names.length();
                            names.append(rows.getString(2)).append(SEPARATOR);
                            ids[cards] = rows.getObject(1, UUID.class);
                            String lang = rows.getString(3);
                            Byte index = languageIndex.get(lang);
                            if (index == null) {
                                if (languages.size() == Byte.MAX_VALUE) {
                                    throw new IllegalStateException("more than 127 languages in the catalog");
                                }
                                index = (byte) languages.size();
                                languageIndex.put(lang, index);
                                languages.add(lang);
                            }
                            langs[cards] = index;
                            cards++;
                        }
                    }
                }
                tooLargeAt = -1;
                snapshot = new Snapshot(changes, names.toString(), Arrays.copyOf(starts, cards),
                        Arrays.copyOf(ids, cards), Arrays.copyOf(langs, cards), List.copyOf(languages));
                Log.infof("name index: %d active cards read in %d ms (card change %d)", cards,
                        (System.nanoTime() - start) / 1_000_000, changes);
            } finally {
                connection.rollback();
            }
        }
    }

    /**
     * The cards of {@code snapshot} whose names hold {@code key}, as {@code search_names LIKE '%key%'} would find
     * them, in list order.
     *
     * @param key        a search key ({@link CardMapper#searchKey}), without control characters
     * @param lang       a language code, or null for all
     * @param offset     matches skipped before the page
     * @param size       the page's size
     * @param countLimit matches counted at most, unless the page ends past it
     */
    static Matches find(Snapshot snapshot, String key, String lang, long offset, int size, long countLimit) {
        int language = -1;
        if (lang != null) {
            language = snapshot.languages().indexOf(lang);
            if (language < 0) {
                return new Matches(List.of(), 0);
            }
        }
        String names = snapshot.names();
        int[] starts = snapshot.starts();
        List<UUID> page = new ArrayList<>(size);
        long end = offset + size;
        long matched = 0;
        int from = 0;
        while (matched < Math.max(countLimit, end)) {
            int at = names.indexOf(key, from);
            if (at < 0 || at >= names.length()) {
                break;
            }
            int card = cardAt(starts, at);
            if (card + 1 < starts.length) {
                from = starts[card + 1];
            } else {
                from = names.length();
            }
            if (language >= 0 && snapshot.langs()[card] != language) {
                continue;
            }
            if (matched >= offset && matched < end) {
                page.add(snapshot.ids()[card]);
            }
            matched++;
        }
        return new Matches(page, matched);
    }

    /** The card whose names hold position {@code at}: the last start at or before it. */
    private static int cardAt(int[] starts, int at) {
        int found = Arrays.binarySearch(starts, at);
        return found >= 0 ? found : -found - 2;
    }

    private long changes() throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            return changes(connection);
        }
    }

    private static long changes(Connection connection) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement("SELECT changes FROM card_change");
                ResultSet row = select.executeQuery()) {
            row.next();
            return row.getLong(1);
        }
    }
}
