package dev.cardcatalog.scan;

import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.OptionalInt;

/**
 * The keys of uploaded photos (SERVICE.md §5.9–§5.11, §7): receiving them, their decoding turns, how they are decoded.
 * They keep the {@code card-catalog.art.} prefix they had before the photo side had a package of its own, so
 * operators' settings stay as they are; the art build's keys under it are {@code dev.cardcatalog.art.ArtConfig}'s.
 */
@ConfigMapping(prefix = "card-catalog.art")
public interface ScanConfig {

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
     * less than 204 pixels on its longer side; {@link UploadDecoder}). False: every upload is decoded by ImageIO, as
     * before, whether or not the native library loads.
     */
    @WithDefault("true")
    boolean uploadScaledDecoding();
}
