package dev.cardcatalog.catalog;

import io.quarkus.logging.Log;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * Writes one refresh pass's cards in batches (SERVICE.md §4.6, §4.7). Per batch, in one short transaction: read the
 * stored digests of the batch's ids, then insert new cards, update cards whose content digest changed, and restore
 * retired cards seen again; unchanged cards are not written. A key repeated in the file, or inside one batch, is
 * written once (its first occurrence). Statements stay under PostgreSQL's 65,535 bind parameters. After a complete
 * pass, {@link #retireUnseen} retires every active card the pass did not see. No card is ever deleted; a written
 * card's faces with their own image ({@code card_face_image}, SERVICE.md §5.1) are written again with it.
 *
 * <p>Into an empty catalog there is nothing to look up: the pass then writes every card without reading digests
 * (the only refresh running is this one, and a card repeated in the file is caught by the pass's id set). The
 * planner's statistics are renewed ({@code ANALYZE}) when the pass has written 10,000 cards, and again at 100,000
 * and 1,000,000, so lookups and reads during and after a bulk load use the indexes. The card object is stored in
 * its compressed form ({@link CardObjects}).
 *
 * <p>One instance per pass; not thread-safe.
 */
final class CardWriter {

    /** Bind parameters of one card row. */
    private static final int COLUMNS = 15;
    /** PostgreSQL's limit on bind parameters in one statement (a 16-bit count). */
    static final int MAX_PARAMETERS = 65_535;
    static final int MAX_ROWS_PER_STATEMENT = MAX_PARAMETERS / COLUMNS;
    /** Rows of one {@link #rehearse}: its rows' parameters and the array of their ids. */
    static final int MAX_REHEARSED_ROWS = (MAX_PARAMETERS - 1) / COLUMNS;

    private static final String INSERT_HEAD = "INSERT INTO card (id, oracle_id, name, search_names, lang, layout, "
            + "set_code, collector_number, released_at, illustration_id, image_small_uri, content_digest, scryfall, "
            + "first_seen_at, updated_at, retired_at) VALUES ";
    private static final String ROW = "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)";
    /** {@link #ROW} with the column types spelled out, for {@link #rehearse}. */
    private static final String REHEARSED_ROW = "(?::uuid, ?::uuid, ?, ?, ?, ?, ?, ?, ?::date, ?::uuid, ?, ?::bytea, "
            + "?::bytea, ?::timestamptz, ?::timestamptz, NULL::timestamptz)";
    private static final String INSERT_TAIL = " ON CONFLICT (id) DO UPDATE SET oracle_id = EXCLUDED.oracle_id, "
            + "name = EXCLUDED.name, search_names = EXCLUDED.search_names, lang = EXCLUDED.lang, "
            + "layout = EXCLUDED.layout, set_code = EXCLUDED.set_code, collector_number = EXCLUDED.collector_number, "
            + "released_at = EXCLUDED.released_at, illustration_id = EXCLUDED.illustration_id, "
            + "image_small_uri = EXCLUDED.image_small_uri, content_digest = EXCLUDED.content_digest, "
            + "scryfall = EXCLUDED.scryfall, updated_at = EXCLUDED.updated_at, retired_at = NULL, faces_unread = false";

    private final DataSource dataSource;
    private final int batchSize;
    private final Instant now;
    private final Map<UUID, MappedCard> batch = new LinkedHashMap<>();
    private final UuidSet seen;
    private final RefreshCounts counts;
    /** False when the catalog had no card when the pass began: no digest to look up. */
    private final boolean lookups;
    private long written;
    private long nextAnalyze = 10_000;
    private long lookupNanos;
    private long lookupBatches;

    /** Opens a pass; reads whether the catalog has any card yet. */
    CardWriter(DataSource dataSource, int batchSize, Instant now, RefreshCounts counts) throws SQLException {
        this.dataSource = dataSource;
        this.batchSize = batchSize;
        this.now = now;
        this.counts = counts;
        this.seen = new UuidSet(1 << 17);
        try (Connection connection = dataSource.getConnection();
                PreparedStatement any = connection.prepareStatement("SELECT EXISTS (SELECT 1 FROM card)");
                ResultSet row = any.executeQuery()) {
            row.next();
            this.lookups = row.getBoolean(1);
        }
    }

    /** Whether this pass reads stored digests (false: the catalog was empty when it began). */
    boolean looksUpDigests() {
        return lookups;
    }

    /** Batches whose stored digests were read, and the time that took in all (nanoseconds). */
    long lookupBatches() {
        return lookupBatches;
    }

    long lookupNanos() {
        return lookupNanos;
    }

    /** Adds a valid card of this pass; writes the batch when it is full. */
    void add(MappedCard card) throws SQLException {
        if (!seen.add(card.id())) {
            counts.duplicates++;
            return;
        }
        counts.seen++;
        batch.put(card.id(), card);
        if (batch.size() >= batchSize) {
            flush();
        }
    }

    /** Marks an id as seen without writing it (a malformed record that named its card keeps it from retiring). */
    void protect(UUID id) {
        seen.add(id);
    }

    /** Writes what is left of the batch. */
    void flush() throws SQLException {
        if (batch.isEmpty()) {
            return;
        }
        List<MappedCard> cards = new ArrayList<>(batch.values());
        batch.clear();
        try {
            write(cards);
        } catch (SQLException e) {
            if (!isDataError(e)) {
                throw e;
            }
            // PostgreSQL refused a value that the JSON reader accepted. The card object is stored as bytes and the
            // mapped columns are cleaned of what text cannot hold (CardMapper), so this should not happen: find the
            // card and count it malformed, naming its record, writing the rest.
            Log.warnf("a batch of %d cards was refused (%s); writing them one by one", cards.size(), e.getMessage());
            for (MappedCard card : cards) {
                try {
                    write(List.of(card));
                } catch (SQLException single) {
                    if (!isDataError(single)) {
                        throw single;
                    }
                    counts.malformed++;
                    counts.seen--;
                    Log.warnf("malformed card record %d (id %s): PostgreSQL refused it (%s)", card.line(), card.id(),
                            single.getMessage());
                }
            }
        }
        if (written >= nextAnalyze) {
            nextAnalyze *= 10;
            analyze();
        }
    }

    private void analyze() throws SQLException {
        try (Connection connection = dataSource.getConnection();
                Statement statement = connection.createStatement()) {
            connection.setAutoCommit(true);
            statement.execute("ANALYZE card");
        }
    }

    private void write(List<MappedCard> cards) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try {
                Map<UUID, Stored> stored = lookups ? stored(connection, cards) : Map.of();
                List<MappedCard> changed = new ArrayList<>();
                List<UUID> restored = new ArrayList<>();
                int inserted = 0;
                int updated = 0;
                int restoredCount = 0;
                for (MappedCard card : cards) {
                    Stored current = stored.get(card.id());
                    if (current == null) {
                        changed.add(card);
                        inserted++;
                    } else if (!Arrays.equals(current.digest(), card.contentDigest())) {
                        changed.add(card);
                        updated++;
                        if (current.retired()) {
                            restoredCount++;
                        }
                    } else if (current.retired()) {
                        restored.add(card.id());
                        restoredCount++;
                    }
                }
                upsert(connection, changed);
                writeFaceImages(connection, changed, lookups);
                restore(connection, restored);
                connection.commit();
                counts.inserted += inserted;
                counts.updated += updated;
                counts.restored += restoredCount;
                written += changed.size();
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            }
        }
    }

    private record Stored(byte[] digest, boolean retired) {
    }

    private Map<UUID, Stored> stored(Connection connection, List<MappedCard> cards) throws SQLException {
        long start = System.nanoTime();
        Map<UUID, Stored> stored;
        try (PreparedStatement select = connection.prepareStatement(
                "SELECT id, content_digest, retired_at IS NOT NULL FROM card WHERE id = ANY (?)")) {
            stored = lookUp(connection, select, 1, cards);
        }
        lookupNanos += System.nanoTime() - start;
        lookupBatches++;
        return stored;
    }

    /**
     * Binds the ids of {@code cards} as a {@code uuid[]} at parameter {@code p} and reads the rows of a digest
     * lookup (id, content digest, retired) that {@code select} answers.
     */
    private static Map<UUID, Stored> lookUp(Connection connection, PreparedStatement select, int p,
            List<MappedCard> cards) throws SQLException {
        Array ids = connection.createArrayOf("uuid", cards.stream().map(MappedCard::id).toArray(UUID[]::new));
        select.setArray(p, ids);
        Map<UUID, Stored> stored = new HashMap<>(cards.size() * 2);
        try (ResultSet rows = select.executeQuery()) {
            while (rows.next()) {
                stored.put(rows.getObject(1, UUID.class), new Stored(rows.getBytes(2), rows.getBoolean(3)));
            }
        }
        ids.free();
        return stored;
    }

    private void upsert(Connection connection, List<MappedCard> cards) throws SQLException {
        Timestamp at = Timestamp.from(now);
        for (int from = 0; from < cards.size(); from += MAX_ROWS_PER_STATEMENT) {
            List<MappedCard> chunk = cards.subList(from, Math.min(cards.size(), from + MAX_ROWS_PER_STATEMENT));
            StringBuilder sql = new StringBuilder(INSERT_HEAD.length() + chunk.size() * (ROW.length() + 2)
                    + INSERT_TAIL.length());
            sql.append(INSERT_HEAD);
            for (int i = 0; i < chunk.size(); i++) {
                sql.append(i == 0 ? "" : ", ").append(ROW);
            }
            sql.append(INSERT_TAIL);
            try (PreparedStatement insert = connection.prepareStatement(sql.toString())) {
                int p = 1;
                for (MappedCard card : chunk) {
                    p = bind(insert, p, card, at);
                }
                insert.executeUpdate();
            }
        }
    }

    /**
     * Writes the faces with their own image of {@code cards} (SERVICE.md §5.1), replacing those stored before
     * ({@code replace}: the catalog had cards when the pass began).
     */
    static void writeFaceImages(Connection connection, List<MappedCard> cards, boolean replace) throws SQLException {
        if (replace && !cards.isEmpty()) {
            try (PreparedStatement delete = connection.prepareStatement(
                    "DELETE FROM card_face_image WHERE card_id = ANY (?)")) {
                delete.setArray(1, connection.createArrayOf("uuid", cards.stream().map(MappedCard::id)
                        .toArray(UUID[]::new)));
                delete.executeUpdate();
            }
        }
        if (cards.stream().allMatch(card -> card.faceImages().isEmpty())) {
            return;
        }
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO card_face_image (card_id, face, "
                + "name, illustration_id, image_small_uri) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING")) {
            for (MappedCard card : cards) {
                for (MappedCard.FaceImage face : card.faceImages()) {
                    insert.setObject(1, card.id());
                    insert.setInt(2, face.face());
                    insert.setString(3, face.name());
                    insert.setObject(4, face.illustrationId());
                    insert.setString(5, face.imageSmallUri());
                    insert.addBatch();
                }
            }
            insert.executeBatch();
        }
    }

    /** Binds {@code card}'s values of {@link #ROW} from parameter {@code p} on; returns the next parameter. */
    private static int bind(PreparedStatement statement, int p, MappedCard card, Timestamp at) throws SQLException {
        statement.setObject(p++, card.id());
        statement.setObject(p++, card.oracleId());
        statement.setString(p++, card.name());
        statement.setString(p++, card.searchNames());
        statement.setString(p++, card.lang());
        statement.setString(p++, card.layout());
        statement.setString(p++, card.setCode());
        statement.setString(p++, card.collectorNumber());
        statement.setObject(p++, card.releasedAt());
        statement.setObject(p++, card.illustrationId());
        statement.setString(p++, card.imageSmallUri());
        statement.setBytes(p++, card.contentDigest());
        statement.setBytes(p++, CardObjects.encode(card.json()));
        statement.setTimestamp(p++, at);
        statement.setTimestamp(p++, at);
        return p;
    }

    /**
     * The client side of a batch without writing anything (the refresh warm-up): binds {@code cards} as a batch
     * insert does, sends them as a {@code VALUES} list, and reads them back as a digest lookup does (their ids bound
     * as an array; id, digest and retired read in the same types). No table is touched.
     *
     * @param cards at most {@link #MAX_REHEARSED_ROWS}
     * @return each card's id and the digest read back
     */
    static Map<UUID, byte[]> rehearse(Connection connection, List<MappedCard> cards, Instant at) throws SQLException {
        StringBuilder sql = new StringBuilder("SELECT id, content_digest, retired_at IS NOT NULL FROM (VALUES ");
        for (int i = 0; i < cards.size(); i++) {
            sql.append(i == 0 ? "" : ", ").append(REHEARSED_ROW);
        }
        sql.append(") AS card (id, oracle_id, name, search_names, lang, layout, set_code, collector_number, "
                + "released_at, illustration_id, image_small_uri, content_digest, scryfall, first_seen_at, "
                + "updated_at, retired_at) WHERE id = ANY (?)");
        Map<UUID, byte[]> read = new HashMap<>(cards.size() * 2);
        try (PreparedStatement select = connection.prepareStatement(sql.toString())) {
            int p = 1;
            Timestamp time = Timestamp.from(at);
            for (MappedCard card : cards) {
                p = bind(select, p, card, time);
            }
            lookUp(connection, select, p, cards).forEach((id, stored) -> {
                if (!stored.retired()) {
                    read.put(id, stored.digest());
                }
            });
        }
        return read;
    }

    private void restore(Connection connection, List<UUID> ids) throws SQLException {
        if (ids.isEmpty()) {
            return;
        }
        try (PreparedStatement update = connection.prepareStatement(
                "UPDATE card SET retired_at = NULL, updated_at = ? WHERE id = ANY (?)")) {
            update.setTimestamp(1, Timestamp.from(now));
            update.setArray(2, connection.createArrayOf("uuid", ids.toArray(UUID[]::new)));
            update.executeUpdate();
        }
    }

    /**
     * Retires every active card this complete pass did not see, in batches. Call only after the whole file was
     * read.
     *
     * @return the number of cards retired
     */
    long retireUnseen() throws SQLException {
        List<UUID> unseen = new ArrayList<>();
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try (PreparedStatement select = connection.prepareStatement(
                    "SELECT id FROM card WHERE retired_at IS NULL")) {
                select.setFetchSize(10_000);
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        UUID id = rows.getObject(1, UUID.class);
                        if (!seen.contains(id)) {
                            unseen.add(id);
                        }
                    }
                }
            }
            connection.commit();
        }
        for (int from = 0; from < unseen.size(); from += 10_000) {
            List<UUID> chunk = unseen.subList(from, Math.min(unseen.size(), from + 10_000));
            try (Connection connection = dataSource.getConnection();
                    PreparedStatement update = connection.prepareStatement(
                            "UPDATE card SET retired_at = ?, updated_at = ? WHERE id = ANY (?) AND retired_at IS NULL")) {
                update.setTimestamp(1, Timestamp.from(now));
                update.setTimestamp(2, Timestamp.from(now));
                update.setArray(3, connection.createArrayOf("uuid", chunk.toArray(UUID[]::new)));
                update.executeUpdate();
            }
        }
        return unseen.size();
    }

    private static boolean isDataError(SQLException e) {
        String state = e.getSQLState();
        // class 22: data exception (invalid text representation, untranslatable character, invalid JSON, ...)
        return state != null && state.startsWith("22");
    }
}
