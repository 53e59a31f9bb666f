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
     * The most photo matches ({@code POST /api/art-index/matches}) that read and decode their upload at once; the
     * available processors when absent. A match is CPU work from its first step to its last, so more at once than
     * cores only shares the cores: with twice as many, a 12 MP photo's match took 6 % more CPU and its p99 was 9 %
     * longer (docs/benchmarks.md, "Why the match runs as it does").
     */
    OptionalInt matchConcurrency();

    /**
     * The most matches that wait for a turn beyond those running; any more are answered 503 at once. The available
     * processors plus 4 when absent, so that a replica admits as many as when twice the processors ran at once.
     */
    OptionalInt matchQueue();

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

    /**
     * The most scans an uploaded JPEG may have; one with more is refused (400 {@code too-many-scans}) from its markers,
     * before it is decoded (SERVICE.md §7). A camera writes 1, a progressive encoder about 10; libjpeg-turbo's own
     * tools stop at 500 ({@code -maxscans}).
     */
    @WithDefault("100")
    int uploadMaxScans();

    /**
     * The most marker segments an uploaded JPEG may have besides its scans (APPn, COM, DQT, DHT, ...; a phone writes
     * fewer than 30), or chunks an uploaded PNG may have; beyond it, 400 {@code too-many-segments} before decoding.
     * At most 65,536.
     */
    @WithDefault("1000")
    int uploadMaxSegments();

    /**
     * The most work an upload may declare: width × height × components × scans for a JPEG (the samples the JDK's
     * reader computes, since it outputs the whole image after each scan of a progressive file), width × height ×
     * channels (× 2 for 16-bit samples) for a PNG (the bytes inflated); beyond it, 400 {@code too-much-work} before
     * decoding. The default, 500,000,000, admits a 16-megapixel (4,928 × 3,264) progressive JPEG of 10 scans and an
     * 8,192 × 8,192 baseline one, and refuses a 16-bit RGBA PNG at the side cap (8,192 × 8,192: 536,870,912). On
     * ImageIO's path a decode costs about 1 to 2 ns of CPU a unit of work (docs/benchmarks.md).
     */
    @WithDefault("500000000")
    long uploadMaxWork();

    /**
     * The most memory, heap and native, one upload's decoding and matching may need as its header says
     * ({@link UploadCost}: a multi-scan JPEG's whole coefficient array, the decoders' buffers, the pixels); beyond
     * it, 400 {@code too-much-memory} before decoding.
     */
    @WithDefault("96M")
    MemorySize uploadMaxMemory();

    /**
     * The most memory uploads being decoded and matched may need together, as their headers say ({@link UploadCost},
     * reserved when an upload gets its decoding turn, released with its answer); an upload that does not fit is
     * answered 503 {@code service-busy} with {@code Retry-After} at once.
     */
    @WithDefault("192M")
    MemorySize uploadDecodeMemory();

    /**
     * The time one upload's decoding, card finding and matching may take together, from its decoding turn; past it
     * the upload is answered 422 {@code upload-too-costly} and its turn is free ({@link UploadDeadline}).
     */
    @WithDefault("2s")
    Duration uploadDeadline();

    /**
     * How long the answer to a refused upload waits before it is sent: a 400 (from its markers, its decoding or an
     * empty body) or a 422 {@code upload-too-costly}. The wait holds no thread and no decoding turn (a timer), so a
     * client sending refused uploads back to back on one connection gets at most one answer per pause, and the cores
     * stay with the uploads that can match. {@code 0s} answers at once. Keep it well under a
     * client's timeout; an honest client that sent a broken photo waits this much longer for its 400.
     */
    @WithDefault("250ms")
    Duration refusalPause();

    /**
     * How many times the match's code runs over six drawn photos at start (one of each kind it is made for), before
     * the replica reports ready, so that its first uploads are not the ones that load and compile it
     * ({@link MatchWarmUp}); 0 turns it off.
     */
    @WithDefault("3")
    int matchWarmUpPasses();

    /**
     * How long the warm-up then goes on over HTTP, after its passes: it posts its drawn photos to this replica's own
     * match endpoint over loopback ({@link WarmUpRequests}), so that the HTTP path (Netty, Vert.x, Quarkus REST,
     * Jackson) and the card search are compiled by the optimising compiler before the replica reports ready, not
     * during its first minute of photos; {@code 0s} leaves it out. Only when the passes are on.
     */
    @WithDefault("30s")
    Duration matchWarmUpOverHttp();

    /**
     * The most expensive uploads (multi-scan JPEGs, or over {@link #cheapUploadWork()} or {@link #cheapUploadBytes()})
     * decoded at once, in a turn pool of their own beside the {@link #matchConcurrency()} turns of cheap ones; half
     * the available processors (at least 1) when absent.
     */
    OptionalInt expensiveMatchConcurrency();

    /** The most expensive uploads that wait for a turn of their pool; any more are answered 503 at once. */
    @WithDefault("2")
    int expensiveMatchQueue();

    /**
     * The most samples (counted as {@link #uploadMaxWork()}) the decoding of a cheap upload computes: a single-scan
     * JPEG or a PNG within it and {@link #cheapUploadBytes()} is decoded in the cheap turn pool. For what ImageIO
     * reads it is the declared work (the default, 16,777,216: a 2,365 × 2,365 colour JPEG or a 2,048 × 2,048 RGBA
     * PNG); for a JPEG read scaled, that of its scaled decodes ({@link UploadDecoder#decodedWork}: a 12-megapixel
     * photo, 2,857,680). A scanner app's guide crop is far smaller.
     */
    @WithDefault("16777216")
    long cheapUploadWork();

    /** The largest body of a cheap upload. */
    @WithDefault("2M")
    MemorySize cheapUploadBytes();
}
