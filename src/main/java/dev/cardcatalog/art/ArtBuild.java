package dev.cardcatalog.art;

import dev.cardcatalog.catalog.CatalogVersions;
import dev.cardcatalog.image.ImageDecodeException;
import dev.cardcatalog.image.ImageDecoder;
import dev.cardcatalog.image.RgbImage;
import dev.cardcatalog.platform.PrintableText;
import dev.cardcatalog.platform.Progress;
import dev.cardcatalog.platform.TransientFailure;
import dev.cardcatalog.scryfall.RateLimitedException;
import dev.cardcatalog.scryfall.ScryfallClient;
import dev.cardcatalog.scryfall.ScryfallException;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.logging.Log;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.net.URI;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * The art build of SERVICE.md §5: fingerprints every artwork not yet fingerprinted with the current settings and
 * image version, in batches, then writes the art index file. From the same decoded image it makes the artwork's
 * picture for the match's second look ({@link ArtPicture}, stored beside the fingerprint, never in the index file):
 * an artwork is done when both are current, so a build after the picture's settings change makes every picture
 * again, from the image cache where it can.
 *
 * <ul>
 *   <li>Each image comes from the cache, or is fetched through the Scryfall client (and so the Retry-After rule)
 *       from an allowed host over https, then cached.</li>
 *   <li>An image that answers 404, fails on every attempt (5xx, network), is over the size cap, is on a host not
 *       allowed, or does not decode is one <b>failed image</b>: counted, its id named (the first 20), and the build
 *       goes on. A cached image that does not decode is deleted.</li>
 *   <li>A <b>rate limit stops the build</b> ({@link RateLimitedException} is rethrown after the batch's fingerprints
 *       are stored): no further image is requested, and the job is retried through the delay topic. Cached images
 *       and stored fingerprints stay, so the next run carries on where this one stopped and ends with the same
 *       index as an uninterrupted build.</li>
 *   <li>The index is published ({@link ArtIndexStore#publish}) only when it is no worse than the current one: an
 *       index with no artwork, with failed images over {@code card-catalog.art.max-failed-share} of the artworks
 *       tried, or with fewer artworks than the current index by more than that share fails the build with
 *       {@link ArtIndexIntegrityException}, and the current index stays.</li>
 * </ul>
 * Runs on the job's worker thread and blocks it; its heartbeat is written by the job's scheduler, whatever it does.
 */
@ApplicationScoped
public class ArtBuild {

    /**
     * Past a call's longest under the rule ({@link ScryfallClient#longestCall()}), and past the client's own bound
     * on a call ({@code ScryfallCalls.CALL_MARGIN} after it): a last resort that needs no timer, never the rule.
     */
    private static final Duration IMAGE_TIMEOUT_MARGIN = Duration.ofSeconds(30);

    private final ArtworkSelector selector;
    private final ImageCache cache;
    private final ScryfallClient scryfall;
    private final CatalogVersions versions;
    private final ArtIndexStore store;
    private final DataSource dataSource;
    private final ArtConfig config;
    private final Clock clock;
    private final MeterRegistry metrics;
    private final ImageDecoder decoder;
    private final Duration imageTimeout;

    public ArtBuild(ArtworkSelector selector, ImageCache cache, ScryfallClient scryfall, CatalogVersions versions,
            ArtIndexStore store, DataSource dataSource, ArtConfig config, Clock clock, MeterRegistry metrics) {
        this.selector = selector;
        this.cache = cache;
        this.scryfall = scryfall;
        this.imageTimeout = scryfall.longestCall().plus(IMAGE_TIMEOUT_MARGIN);
        this.versions = versions;
        this.store = store;
        this.dataSource = dataSource;
        this.config = config;
        this.clock = clock;
        this.metrics = metrics;
        this.decoder = new ImageDecoder(config.maxImageBytes(), config.maxImageSide(),
                (long) config.maxImageSide() * config.maxImageSide());
    }

    /**
     * What a build ended with.
     *
     * @param fileName the index file now current
     * @param count artworks in it
     * @param counts {@code artworks}, of which {@code front_faces} (on a card's front face, or its one image) and
     *     {@code other_faces} (on a back or other face with its own image), {@code without_image}, {@code already}
     *     (fingerprinted before), {@code fingerprinted}, {@code cached} (of those, from the cache), {@code failed}
     * @param failedIds the first failed images' illustration ids
     */
    public record Outcome(String fileName, int count, String digest, Map<String, Long> counts, List<UUID> failedIds,
            String message) {
    }

    /**
     * Runs one build.
     *
     * @throws NoCatalogException no refresh has applied yet
     * @throws RateLimitedException the image host asked to wait longer than the client does: the build stopped
     * @throws TransientFailure the database or the disk failed
     * @throws ArtIndexIntegrityException the index would be worse than the current one: not published
     */
    public Outcome run(Progress progress) {
        return run(progress, false);
    }

    /**
     * Runs one build; with {@code acceptFewerArtworks}, an operator's consent (SERVICE.md §5.8), the index is
     * published even when it holds fewer artworks than the current one. The other rules hold all the same: failed
     * images over the share fail the build, and an index with no artwork is never published.
     *
     * @throws NoCatalogException no refresh has applied yet
     * @throws RateLimitedException the image host asked to wait longer than the client does: the build stopped
     * @throws TransientFailure the database or the disk failed
     * @throws ArtIndexIntegrityException the index would be worse than the current one: not published. When it is
     *     refused for its count alone, the run's counts {@code index_artworks} and {@code current_index_artworks}
     *     say by how many artworks, for an operator's consented build.
     */
    public Outcome run(Progress progress, boolean acceptFewerArtworks) {
        String catalogVersion = versions.current().orElseThrow(NoCatalogException::new);
        String digest = FingerprintSettings.FROZEN.digest();
        ArtworkSelector.Selection selection = selector.select();
        Map<UUID, String> done = selector.fingerprinted(digest, ArtPicture.DIGEST);
        List<Artwork> todo = new ArrayList<>();
        for (Artwork artwork : selection.artworks()) {
            String version = Objects.requireNonNullElse(artwork.imageVersion(), "");
            if (!version.equals(done.get(artwork.illustrationId()))) {
                todo.add(artwork);
            }
        }
        Map<String, Long> counts = new LinkedHashMap<>();
        long otherFaces = selection.artworks().stream().filter(Artwork::otherFace).count();
        counts.put("artworks", (long) selection.artworks().size());
        counts.put("front_faces", selection.artworks().size() - otherFaces);
        counts.put("other_faces", otherFaces);
        counts.put("without_image", selection.withoutImage());
        counts.put("already", (long) (selection.artworks().size() - todo.size()));
        counts.put("fingerprinted", 0L);
        counts.put("cached", 0L);
        counts.put("failed", 0L);
        List<UUID> failedIds = new ArrayList<>();
        report(counts, progress);
        progress.stage("fingerprint", todo.size());
        Log.infof("art build: %d artworks (%d on other faces than the front), %d to fingerprint, %d without an image",
                selection.artworks().size(), otherFaces, todo.size(), selection.withoutImage());

        long processed = 0;
        for (int from = 0; from < todo.size(); from += config.batchSize()) {
            List<Artwork> batch = todo.subList(from, Math.min(todo.size(), from + config.batchSize()));
            List<Fingerprinted> results = new ArrayList<>(batch.size());
            try {
                for (Artwork artwork : batch) {
                    progress.checkCancelled();
                    try {
                        results.add(fingerprint(artwork, done.containsKey(artwork.illustrationId()), counts));
                        counts.merge("fingerprinted", 1L, Long::sum);
                    } catch (ImageFailure failure) {
                        counts.merge("failed", 1L, Long::sum);
                        metrics.counter("art.images.failed").increment();
                        if (failedIds.size() < config.failedIdsShown()) {
                            failedIds.add(artwork.illustrationId());
                        }
                        Log.warnf("art build: image of %s failed: %s", artwork.illustrationId(),
                                PrintableText.of(failure.getMessage()));
                    }
                    progress.done(++processed);
                    report(counts, progress);
                }
            } finally {
                // a rate limit stops the build; what this batch fingerprinted is kept for the next run
                store(results);
                if (!results.isEmpty()) {
                    progress.progressed();
                    metrics.counter("art.artworks.fingerprinted").increment(results.size());
                }
            }
        }

        progress.stage("index", -1);
        List<ArtIndexFile.Entry> entries = indexEntries(selection, digest);
        int fewer = checkIntegrity(todo.size(), counts.get("failed"), failedIds, entries.size(), acceptFewerArtworks,
                progress);
        // the last checkpoint: a build cancelled by now publishes nothing (SERVICE.md §6.6)
        progress.checkCancelled();
        byte[] bytes = ArtIndexFile.gzip(digest, entries);
        ArtIndexName name = ArtIndexName.of(catalogVersion, digest, entries.size(), bytes);
        store.publish(name, bytes, entries);
        int count = entries.size();
        String message = "ready " + name + ": " + count + " artworks"
                + (fewer > 0 ? " (" + fewer + " fewer than the index it replaces, by consent)" : "")
                + (counts.get("failed") == 0 ? "" : ", " + counts.get("failed") + " failed images ("
                        + failedList(counts.get("failed"), failedIds) + ")");
        Log.infof("art build %s: %s", message, counts);
        return new Outcome(name.toString(), count, digest, counts, failedIds, message);
    }

    /**
     * The integrity rule (SERVICE.md §5.8): an index with no artwork, with failed images over the configured share
     * of the artworks tried, or with fewer artworks than the current index by more than that share, is not
     * published.
     *
     * @throws ArtIndexIntegrityException naming the counts and the first failed images
     */
    /** Failed images named in an integrity failure's reason; the run's counts have them all. */
    private static final int INTEGRITY_IDS_SHOWN = 10;

    /**
     * The integrity rule (SERVICE.md §5.8) as applied; see {@link #checkIntegrity}'s Javadoc above.
     *
     * @return how many artworks fewer than the current index the new one holds by consent; 0 when the count rule
     *     did not need the consent
     */
    private int checkIntegrity(int tried, long failed, List<UUID> failedIds, int count, boolean acceptFewer,
            Progress progress) {
        double share = config.maxFailedShare();
        String percent = String.format(Locale.ROOT, "%.4g %%", share * 100).replaceAll("\\.?0+ %", " %");
        // the index that stays comes before the list of failures, and the list is short, so that the whole reason
        // fits the 1,000 characters a job's reason keeps (FailureReasons)
        String failures = failed == 0 ? "" : "; first failed images: "
                + failedList(failed, failedIds.subList(0, Math.min(INTEGRITY_IDS_SHOWN, failedIds.size())));
        Optional<ArtIndexStore.StoredIndex> current = store.current();
        String kept = current.map(c -> "; the current index " + c.fileName() + " stays")
                .orElse("; there is still no art index");
        if (failed > share * tried) {
            throw new ArtIndexIntegrityException("the index was not published: " + failed + " of " + tried
                    + " images tried failed, more than the " + percent + " allowed (card-catalog.art.max-failed-share)"
                    + kept + failures);
        }
        if (count == 0) {
            throw new ArtIndexIntegrityException("the index was not published: it would hold 0 artworks ("
                    + failed + " of " + tried + " images tried failed)" + kept + failures);
        }
        int currentCount = current.map(c -> c.name().count()).orElse(0);
        if (count < currentCount * (1 - share) && !acceptFewer) {
            // the counts an operator's "Build again, accepting N fewer artworks" reads (SERVICE.md §5.8, §8)
            progress.count("index_artworks", count);
            progress.count("current_index_artworks", currentCount);
            throw new ArtIndexIntegrityException("the index was not published: it would hold " + count
                    + " artworks, fewer than the " + currentCount + " of the current index by more than " + percent
                    + " (card-catalog.art.max-failed-share); " + failed + " of " + tried + " images tried failed"
                    + kept + failures);
        }
        return count < currentCount * (1 - share) ? currentCount - count : 0;
    }

    private static String failedList(long failed, List<UUID> failedIds) {
        return String.join(", ", failedIds.stream().map(UUID::toString).toList())
                + (failed > failedIds.size() ? ", …" : "");
    }

    private record Fingerprinted(Artwork artwork, byte[] fingerprint, byte[] picture) {
    }

    /** One image's failure: counted, and the build goes on. */
    private static final class ImageFailure extends Exception {
        ImageFailure(String message) {
            super(message, null, false, false);
        }
    }

    private Fingerprinted fingerprint(Artwork artwork, boolean versionChanged, Map<String, Long> counts)
            throws ImageFailure {
        UUID id = artwork.illustrationId();
        byte[] bytes;
        try {
            if (versionChanged) {
                cache.delete(id);
            }
            var cached = cache.read(id);
            if (cached.isPresent()) {
                bytes = cached.get();
                counts.merge("cached", 1L, Long::sum);
            } else {
                checkHost(artwork.imageUri());
                try {
                    bytes = scryfall.image(artwork.imageUri(), config.maxImageBytes()).await().atMost(imageTimeout);
                } catch (RateLimitedException e) {
                    throw e;
                } catch (ScryfallException e) {
                    throw new ImageFailure(e.getMessage());
                } catch (io.smallrye.mutiny.TimeoutException e) {
                    throw new ImageFailure("no answer within " + imageTimeout.toSeconds() + " s");
                }
                cache.write(id, bytes);
            }
        } catch (IOException e) {
            throw new TransientFailure("the image cache failed: " + e.getMessage(), e);
        }
        try {
            RgbImage image = decoder.decode(bytes);
            FingerprintSettings.Offset zero = FingerprintSettings.FROZEN.zeroOffset();
            return new Fingerprinted(artwork, ArtFingerprint.compute(image, zero), ArtPicture.of(image, zero));
        } catch (ImageDecodeException e) {
            try {
                cache.delete(id);
            } catch (IOException ignored) {
                // the next build refetches it either way
            }
            throw new ImageFailure("the image could not be decoded: " + e.getMessage());
        }
    }

    private void checkHost(String url) throws ImageFailure {
        URI uri;
        try {
            uri = URI.create(url);
        } catch (IllegalArgumentException e) {
            throw new ImageFailure("not a URL: " + url);
        }
        if (!"https".equalsIgnoreCase(uri.getScheme())) {
            throw new ImageFailure("not an https URL: " + url);
        }
        String host = uri.getHost() == null ? "" : uri.getHost().toLowerCase(Locale.ROOT);
        if (config.imageHosts().stream().noneMatch(allowed -> allowed.equalsIgnoreCase(host))) {
            throw new ImageFailure("not an allowed image host (card-catalog.art.image-hosts): " + host);
        }
    }

    private void store(List<Fingerprinted> results) {
        if (results.isEmpty()) {
            return;
        }
        Timestamp now = Timestamp.from(clock.instant());
        try (Connection connection = dataSource.getConnection();
                PreparedStatement upsert = connection.prepareStatement("""
                        INSERT INTO art_fingerprint (illustration_id, card_id, image_uri, image_version, settings_digest,
                                                     fingerprint, fingerprinted_at, picture, picture_digest)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                        ON CONFLICT (illustration_id) DO UPDATE SET card_id = EXCLUDED.card_id,
                            image_uri = EXCLUDED.image_uri, image_version = EXCLUDED.image_version,
                            settings_digest = EXCLUDED.settings_digest, fingerprint = EXCLUDED.fingerprint,
                            fingerprinted_at = EXCLUDED.fingerprinted_at, picture = EXCLUDED.picture,
                            picture_digest = EXCLUDED.picture_digest""")) {
            connection.setAutoCommit(false);
            for (Fingerprinted result : results) {
                upsert.setObject(1, result.artwork().illustrationId());
                upsert.setObject(2, result.artwork().cardId());
                upsert.setString(3, result.artwork().imageUri());
                upsert.setString(4, result.artwork().imageVersion());
                upsert.setString(5, FingerprintSettings.FROZEN.digest());
                upsert.setBytes(6, result.fingerprint());
                upsert.setTimestamp(7, now);
                upsert.setBytes(8, result.picture());
                upsert.setString(9, ArtPicture.DIGEST);
                upsert.addBatch();
            }
            upsert.executeBatch();
            connection.commit();
        } catch (SQLException e) {
            throw new TransientFailure("the fingerprints could not be stored: " + e.getMessage(), e);
        }
    }

    /**
     * The index records: the selected artworks' fingerprints with the current digest, each with its face
     * (SERVICE.md §5.1, §5.8).
     */
    private List<ArtIndexFile.Entry> indexEntries(ArtworkSelector.Selection selection, String digest) {
        Map<UUID, Integer> current = new HashMap<>();
        selection.artworks().forEach(artwork -> current.put(artwork.illustrationId(), artwork.face()));
        List<ArtIndexFile.Entry> entries = new ArrayList<>();
        try (Connection connection = dataSource.getConnection();
                PreparedStatement select = connection.prepareStatement(
                        "SELECT illustration_id, fingerprint FROM art_fingerprint WHERE settings_digest = ?")) {
            select.setString(1, digest);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    UUID id = rows.getObject(1, UUID.class);
                    Integer face = current.get(id);
                    if (face != null) {
                        entries.add(new ArtIndexFile.Entry(id, face, rows.getBytes(2)));
                    }
                }
            }
        } catch (SQLException e) {
            throw new TransientFailure("the fingerprints could not be read: " + e.getMessage(), e);
        }
        return entries;
    }

    private static void report(Map<String, Long> counts, Progress progress) {
        counts.forEach(progress::count);
    }
}
