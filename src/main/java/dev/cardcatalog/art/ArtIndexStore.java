package dev.cardcatalog.art;

import dev.cardcatalog.platform.DataDirectory;
import dev.cardcatalog.platform.TransientFailure;
import io.quarkus.logging.Log;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import javax.sql.DataSource;

/**
 * The art index files, kept in PostgreSQL's {@code art_index} table so that every replica serves and matches the
 * same index (SERVICE.md §5.8). The current index is the newest row; a publish keeps the
 * {@value ArtIndexFile#FILES_KEPT} newest.
 *
 * <p>Each replica holds a matcher over the current index. Every {@code card-catalog.art.index-poll-interval} it
 * reads which index is current (a one-row query without the bytes) and, when that changed, loads the new one and
 * only then swaps it in: the old matcher answers until the new one is ready. At start it loads the current index
 * before the service takes requests.
 *
 * <p>{@code <data dir>/art/index} is a cache of the files' bytes, by name. A name carries its content digest
 * ({@link ArtIndexName}), so a cached file is never stale; a replica with an empty cache fetches from the table.
 */
@ApplicationScoped
public class ArtIndexStore {

    /**
     * An index file as the table describes it (without its bytes).
     *
     * @param name          its name, also its {@code ETag}
     * @param contentDigest the SHA-256 of its bytes, 64 lowercase hex characters
     * @param writtenAt     when a build published it (published again when a build wrote the same bytes)
     * @param sizeBytes     length of the file as served (gzip)
     */
    public record StoredIndex(ArtIndexName name, String contentDigest, Instant writtenAt, long sizeBytes) {

        /** The file name. */
        public String fileName() {
            return name.toString();
        }
    }

    /** The matcher a replica answers with, and the index it was loaded from. */
    public record LoadedIndex(StoredIndex index, ArtMatcher matcher) {
    }

    private static final String METADATA =
            "SELECT name, content_digest, written_at, octet_length(bytes) FROM art_index WHERE format_version = "
                    + ArtIndexFile.FORMAT_VERSION + " ";

    private final DataSource dataSource;
    private final DataDirectory dataDirectory;
    private final Clock clock;
    private final Object swap = new Object();
    private volatile LoadedIndex loaded;
    /** The index that could not be loaded, so that the poll does not log it every second. */
    private volatile String unloadable;

    public ArtIndexStore(DataSource dataSource, DataDirectory dataDirectory, Clock clock) {
        this.dataSource = dataSource;
        this.dataDirectory = dataDirectory;
        this.clock = clock;
    }

    /** The cache directory of index files, {@code <data dir>/art/index}. */
    public Path cacheDirectory() {
        return dataDirectory.resolve("art/index");
    }

    /**
     * The current index: the newest row of the current format ({@link ArtIndexFile#FORMAT_VERSION}); empty before
     * the first build. An index of an older format is ignored until a build replaces it (docs/operations.md).
     *
     * @throws TransientFailure if the database cannot be read
     */
    public Optional<StoredIndex> current() {
        return query(METADATA + "ORDER BY written_at DESC, name DESC LIMIT 1", null);
    }

    /**
     * Whether an index of an older format is kept and none of the current one: this replica runs a newer format
     * than the last build wrote, and matching waits for a build (SERVICE.md §5.8).
     *
     * @throws TransientFailure if the database cannot be read
     */
    public boolean onlyOlderFormat() {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement select = connection.prepareStatement(
                        "SELECT bool_or(format_version < ?) AND NOT bool_or(format_version = ?) FROM art_index")) {
            select.setInt(1, ArtIndexFile.FORMAT_VERSION);
            select.setInt(2, ArtIndexFile.FORMAT_VERSION);
            try (ResultSet rows = select.executeQuery()) {
                return rows.next() && rows.getBoolean(1);
            }
        } catch (SQLException e) {
            throw new TransientFailure("the art index could not be read: " + e.getMessage(), e);
        }
    }

    /** The kept index named {@code name}; empty when there is none or the name is not an index file name. */
    public Optional<StoredIndex> find(String name) {
        if (!ArtIndexName.isValid(name)) {
            return Optional.empty();
        }
        return query(METADATA + "AND name = ?", name);
    }

    /**
     * The file of {@code index} in the cache, copied there from the table when missing.
     *
     * @return empty when the index is no longer kept
     * @throws TransientFailure if the database or the cache cannot be read or written
     */
    public Optional<Path> file(StoredIndex index) {
        Path path = cacheDirectory().resolve(index.fileName());
        if (Files.isRegularFile(path)) {
            return Optional.of(path);
        }
        Optional<byte[]> bytes = bytes(index.fileName());
        if (bytes.isEmpty()) {
            return Optional.empty();
        }
        cache(path, bytes.get());
        return Optional.of(path);
    }

    /** The matcher this replica answers with; empty before the first index. */
    public Optional<LoadedIndex> matcher() {
        return Optional.ofNullable(loaded);
    }

    /**
     * Makes {@code bytes} the current index for every replica: stores them (or, when a file of that name is kept
     * already, marks it written now), keeps the {@value ArtIndexFile#FILES_KEPT} newest, and loads the matcher here
     * at once; the other replicas load it at their next poll.
     *
     * @param name    the name formed from {@code bytes} ({@link ArtIndexName#of})
     * @param bytes   the file as served (gzip), a valid index at the current settings digest
     * @param entries the file's records, for the matcher
     * @throws TransientFailure if the database fails
     */
    public StoredIndex publish(ArtIndexName name, byte[] bytes, java.util.Collection<ArtIndexFile.Entry> entries) {
        if (!name.names(bytes)) {
            throw new IllegalArgumentException("the name " + name + " was not formed from these bytes");
        }
        Instant now = clock.instant();
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try (PreparedStatement insert = connection.prepareStatement("""
                    INSERT INTO art_index (name, settings_digest, content_digest, artwork_count, catalog_version,
                                           written_at, bytes, format_version)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (name) DO UPDATE SET written_at = EXCLUDED.written_at,
                        format_version = EXCLUDED.format_version""");
                    PreparedStatement trim = connection.prepareStatement("""
                            DELETE FROM art_index WHERE name NOT IN (
                                SELECT name FROM art_index ORDER BY written_at DESC, name DESC LIMIT ?)""")) {
                insert.setString(1, name.toString());
                insert.setString(2, name.settingsDigest());
                insert.setString(3, ArtIndexName.sha256(bytes));
                insert.setInt(4, name.count());
                insert.setString(5, name.catalogVersion());
                insert.setTimestamp(6, Timestamp.from(now));
                insert.setBytes(7, bytes);
                insert.setInt(8, ArtIndexFile.FORMAT_VERSION);
                insert.executeUpdate();
                trim.setInt(1, ArtIndexFile.FILES_KEPT);
                trim.executeUpdate();
            }
            connection.commit();
        } catch (SQLException e) {
            throw new TransientFailure("the art index could not be stored: " + e.getMessage(), e);
        }
        StoredIndex index = new StoredIndex(name, ArtIndexName.sha256(bytes), now, bytes.length);
        cache(cacheDirectory().resolve(name.toString()), bytes);
        swapIn(new LoadedIndex(index, ArtMatcher.of(name.settingsDigest(), entries)));
        return index;
    }

    /** Loads the current index at start, so that a replica started later serves it at once. */
    void start(@Observes StartupEvent event) {
        try {
            switchToCurrent();
        } catch (RuntimeException e) {
            Log.warnf("the current art index could not be loaded at start (%s); the poll tries again",
                    e.getMessage());
        }
    }

    /** Swaps in the current index when another replica published a new one (or drops it when none is kept). */
    @Scheduled(every = "${card-catalog.art.index-poll-interval}", delayed = "${card-catalog.art.index-poll-interval}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void poll() {
        try {
            switchToCurrent();
        } catch (RuntimeException e) {
            Log.warnf("could not check for a new art index (%s); matching keeps the index it has", e.getMessage());
        }
    }

    private void switchToCurrent() {
        // read before the table: a publish here in between has committed its row before swapping its matcher in
        LoadedIndex now = loaded;
        Optional<StoredIndex> current = current();
        if (current.isEmpty()) {
            synchronized (swap) {
                if (loaded == now) {
                    loaded = null;
                }
            }
            return;
        }
        StoredIndex index = current.get();
        if (now != null && now.index().name().equals(index.name())) {
            return;
        }
        if (index.fileName().equals(unloadable)) {
            return;
        }
        try {
            swapIn(new LoadedIndex(index, load(index)));
            unloadable = null;
            Log.infof("art index %s loaded (%d artworks)", index.fileName(), index.name().count());
        } catch (ArtIndexFormatException e) {
            unloadable = index.fileName();
            Log.errorf("the current art index %s cannot be loaded: %s; matching keeps the previous index",
                    index.fileName(), e.getMessage());
            return;
        }
        removeStaleCache();
    }

    private void swapIn(LoadedIndex candidate) {
        synchronized (swap) {
            LoadedIndex now = loaded;
            // a poll that read the table before a publish here must not swap the older index back
            if (now == null || !now.index().writtenAt().isAfter(candidate.index().writtenAt())) {
                loaded = candidate;
            }
        }
    }

    private ArtMatcher load(StoredIndex index) throws ArtIndexFormatException {
        Path path = cacheDirectory().resolve(index.fileName());
        byte[] bytes = null;
        try {
            if (Files.isRegularFile(path)) {
                bytes = Files.readAllBytes(path);
                if (!ArtIndexName.sha256(bytes).equals(index.contentDigest())) {
                    Files.delete(path);
                    bytes = null;
                }
            }
        } catch (IOException e) {
            bytes = null;
        }
        if (bytes == null) {
            bytes = bytes(index.fileName()).orElseThrow(
                    () -> new TransientFailure("the art index " + index.fileName() + " is no longer kept", null));
            cache(path, bytes);
        }
        try {
            ArtIndexFile.Contents contents = ArtIndexFile.read(new ByteArrayInputStream(bytes),
                    FingerprintSettings.FROZEN.digest(), ArtIndexFile.DEFAULT_MAX_RECORDS);
            return ArtMatcher.of(contents.digest(), contents.entries());
        } catch (ArtIndexFormatException e) {
            throw e;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Deletes cached index files the table no longer keeps, and temporary files of writes cut short
     * ({@link ArtIndexFile#deleteAbandonedParts}); a younger temporary file may be a write going on, and stays.
     */
    private void removeStaleCache() {
        Set<String> kept = new HashSet<>();
        try (Connection connection = dataSource.getConnection();
                PreparedStatement select = connection.prepareStatement("SELECT name FROM art_index");
                ResultSet rows = select.executeQuery()) {
            while (rows.next()) {
                kept.add(rows.getString(1));
            }
        } catch (SQLException e) {
            return;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(cacheDirectory(), "art-index-*")) {
            for (Path file : files) {
                String name = file.getFileName().toString();
                if (!name.endsWith(".part") && !kept.contains(name)) {
                    Files.deleteIfExists(file);
                }
            }
            ArtIndexFile.deleteAbandonedParts(cacheDirectory());
        } catch (IOException e) {
            Log.warnf("the art index cache could not be tidied: %s", e.getMessage());
        }
    }

    private void cache(Path path, byte[] bytes) {
        try {
            ArtIndexFile.writeIfMissing(path, bytes);
        } catch (IOException e) {
            throw new TransientFailure("the art index cache could not be written: " + e.getMessage(), e);
        }
    }

    private Optional<byte[]> bytes(String name) {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement select = connection.prepareStatement(
                        "SELECT bytes FROM art_index WHERE name = ?")) {
            select.setString(1, name);
            try (ResultSet rows = select.executeQuery()) {
                return rows.next() ? Optional.of(rows.getBytes(1)) : Optional.empty();
            }
        } catch (SQLException e) {
            throw new TransientFailure("the art index " + name + " could not be read: " + e.getMessage(), e);
        }
    }

    private Optional<StoredIndex> query(String sql, String name) {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement select = connection.prepareStatement(sql)) {
            if (name != null) {
                select.setString(1, name);
            }
            try (ResultSet rows = select.executeQuery()) {
                if (!rows.next()) {
                    return Optional.empty();
                }
                ArtIndexName parsed = ArtIndexName.parse(rows.getString(1)).orElseThrow(
                        () -> new IllegalStateException("art_index holds a row that is not an index file name"));
                return Optional.of(new StoredIndex(parsed, rows.getString(2), rows.getTimestamp(3).toInstant(),
                        rows.getLong(4)));
            }
        } catch (SQLException e) {
            throw new TransientFailure("the art index could not be read: " + e.getMessage(), e);
        }
    }
}
