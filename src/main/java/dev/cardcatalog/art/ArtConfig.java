package dev.cardcatalog.art;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;

/**
 * {@code card-catalog.art.*}: the art build and the art index (SERVICE.md §5). The keys of uploaded photos under the
 * same prefix are {@code dev.cardcatalog.scan.ScanConfig}'s. The fingerprint's own settings are frozen, not
 * configured ({@link FingerprintSettings}).
 */
@ConfigMapping(prefix = "card-catalog.art")
public interface ArtConfig {

    /** When true, an applied catalog refresh starts an art build. */
    @WithDefault("true")
    boolean enabled();

    /** The only hosts images are fetched from, over https. */
    @WithDefault("cards.scryfall.io")
    List<String> imageHosts();

    /** Artworks fingerprinted between two writes of their fingerprints. */
    @WithDefault("50")
    int batchSize();

    /** The largest image body accepted, in bytes (a Scryfall small image is about 10 to 20 KB). */
    @WithDefault("4194304")
    int maxImageBytes();

    /** The largest width or height an image may declare, in pixels; refused before decoding. */
    @WithDefault("4096")
    int maxImageSide();

    /** Failed images named in the run's message; the rest are counted. */
    @WithDefault("20")
    int failedIdsShown();

    /**
     * The integrity rule's share, 0 to 1 (SERVICE.md §5.8): a build fails, and the current index stays, when its
     * failed images exceed this share of the artworks it tried, or when its index would hold fewer artworks than
     * the current one by more than this share of the current count.
     */
    @WithDefault("0.02")
    double maxFailedShare();

    /**
     * How often each replica reads which index is current (a one-row query) and, when a new one was written, loads
     * it into its matcher. Keep it well under 5 s.
     */
    @WithDefault("1s")
    Duration indexPollInterval();
}
