package dev.cardcatalog.art;

import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;

/** {@code card-catalog.art.*}: the art build and the art index (SERVICE.md §5). */
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

    /**
     * The most photo matches ({@code POST /api/art-index/matches}) that read and decode their upload at once; twice
     * the available processors when absent.
     */
    OptionalInt matchConcurrency();

    /** The most matches that wait for a turn beyond those running; any more are answered 503 at once. */
    @WithDefault("4")
    int matchQueue();

    /** The longest a match waits for a turn before it is answered 503. */
    @WithDefault("5s")
    Duration matchQueueWait();

    /** The wait a 503 asks for in {@code Retry-After}, in whole seconds (rounded up, at least 1). */
    @WithDefault("2s")
    Duration matchRetryAfter();

    /**
     * The longest a photo upload ({@code POST /api/art-index/matches}) may take to arrive whole, from the request's
     * arrival; a slower one is answered 408 and its connection closed (SERVICE.md §5.9).
     */
    @WithDefault("10s")
    Duration uploadTimeout();

    /**
     * The most photo uploads one replica receives at once; one more is answered 503 with {@code Retry-After} at
     * once. The bytes they hold are bounded by {@link #uploadBuffer()}.
     */
    @WithDefault("32")
    int uploadConcurrency();

    /**
     * The most bytes that photo uploads hold together, from their arrival until their answer is sent (a declared
     * {@code Content-Length} counts whole at once); an upload that does not fit is answered 503 with
     * {@code Retry-After} at once.
     */
    @WithDefault("64M")
    MemorySize uploadBuffer();

    /**
     * Whether a large uploaded JPEG is decoded scaled while it is decoded (libjpeg-turbo's DCT scaling, down to no
     * less than 204 pixels on its longer side; {@link ImageDecoder}). False: every upload is decoded by ImageIO, as
     * before, whether or not the native library loads.
     */
    @WithDefault("true")
    boolean uploadScaledDecoding();
}
