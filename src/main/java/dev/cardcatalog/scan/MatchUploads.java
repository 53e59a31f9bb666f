package dev.cardcatalog.scan;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cardcatalog.platform.BodyLimit;
import dev.cardcatalog.platform.Problem;
import dev.cardcatalog.platform.ProblemMappers;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.logging.Log;
import io.quarkus.runtime.configuration.MemorySize;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Receives the photo of a match ({@code POST /api/art-index/matches}) whole before the match takes a decoding turn
 * (SERVICE.md §5.9), on the event loop, so that a slow or stalled upload holds no worker thread and no
 * {@link MatchLimit} turn:
 * <ul>
 *   <li>at most {@code card-catalog.art.upload-concurrency} uploads are received at once, and uploads hold at most
 *       {@code card-catalog.art.upload-buffer} bytes together (a declared {@code Content-Length} is reserved when
 *       the request arrives, a chunked body as it grows; the bytes are held until the answer is sent, as the body
 *       waits for its turn in memory); an upload beyond either is answered at once {@code 503} problem+json
 *       {@code service-busy} with {@code Retry-After} ({@code card-catalog.art.match-retry-after}, RFC 9110
 *       §10.2.3), and its body is dropped unread;</li>
 *   <li>the body must arrive within {@code card-catalog.art.upload-timeout} of the request's arrival, else
 *       {@code 408} problem+json {@code request-timeout} (RFC 9110 §15.5.9) and the connection is closed;</li>
 *   <li>a body (sent chunked, without a length) that outgrows {@code quarkus.http.limits.max-body-size} is answered
 *       {@code 413} problem+json {@code body-too-large} at once, the rest dropped and the connection closed (a
 *       declared length over it is refused before, by {@link BodyLimit});</li>
 *   <li>a received body is handed to the resource as one array of exactly its bytes ({@link #body}), the bytes
 *       copied once from the network's buffers: the resource takes no body parameter, so that Quarkus REST does
 *       not copy it again into a stream, nor the resource out of it (a 12 MP photo's half megabyte was copied four
 *       times, 35 % of the bytes a whole match allocated, by JFR).</li>
 * </ul>
 *
 * <p>Metrics: {@code art.uploads.receiving} (gauge), {@code art.uploads.refused} and {@code art.uploads.timed.out}
 * (counters). Thread-safe.
 */
@ApplicationScoped
public class MatchUploads {

    static final String PATH = "/api/art-index/matches";
    /** The request's data key under which {@link Upload#end()} leaves the received body. */
    private static final String BODY = MatchUploads.class.getName() + ".body";
    /** After {@link BodyLimit} (-3) and Quarkus's own length check (-2), before the REST handler. */
    private static final int ORDER = -1;
    /**
     * The first array of a body sent without a length; it doubles as the body arrives, and is cut to the body's
     * length at its end. A body of a declared length gets one array of that length at once: its bytes are already
     * reserved within {@code upload-buffer}, and growing to them copied a 12 MP photo's half megabyte three times
     * over (by JFR).
     */
    private static final int INITIAL_BUFFER = 64 * 1024;

    private final int concurrency;
    private final Semaphore receiving;
    private final Duration timeout;
    private final long retryAfterSeconds;
    private final long maxBodyBytes;
    private final long maxBufferedBytes;
    /** Bytes reserved by uploads, from their arrival until their answer is sent. */
    private final AtomicLong buffered = new AtomicLong();
    private final ObjectMapper json;
    private final Counter refused;
    private final Counter timedOut;

    public MatchUploads(ScanConfig config,
            @ConfigProperty(name = "quarkus.http.limits.max-body-size") Optional<MemorySize> maxBodySize,
            ObjectMapper json, MeterRegistry metrics) {
        if (config.uploadConcurrency() < 1) {
            throw new IllegalArgumentException("card-catalog.art.upload-concurrency must be at least 1");
        }
        this.concurrency = config.uploadConcurrency();
        this.receiving = new Semaphore(concurrency);
        this.timeout = config.uploadTimeout();
        this.retryAfterSeconds = Math.max(1, (config.matchRetryAfter().toMillis() + 999) / 1000);
        this.maxBodyBytes = maxBodySize.map(MemorySize::asLongValue).orElse((long) MatchResource.MAX_BODY_BYTES);
        this.maxBufferedBytes = config.uploadBuffer().asLongValue();
        this.json = json;
        Gauge.builder("art.uploads.receiving", receiving, s -> concurrency - s.availablePermits())
                .description("Photo uploads being received").register(metrics);
        Gauge.builder("art.uploads.buffered", buffered, AtomicLong::get).baseUnit("bytes")
                .description("Bytes reserved by photo uploads until their answer is sent").register(metrics);
        this.refused = Counter.builder("art.uploads.refused")
                .description("Photo uploads answered 503 because as many as allowed were being received")
                .register(metrics);
        this.timedOut = Counter.builder("art.uploads.timed.out")
                .description("Photo uploads answered 408 because the body did not arrive in time")
                .register(metrics);
    }

    void install(@Observes Router router) {
        router.route(HttpMethod.POST, PATH).order(ORDER).handler(this::receive);
        // every method: to anyone but the warm-up the path is as absent as any other (no 405 that says it exists)
        router.route(WarmUpRequests.PATH).order(ORDER).handler(this::receiveWarmUp);
    }

    /**
     * The warm-up's own request ({@link WarmUpRequests}: a POST with its token) is received as an upload; anyone
     * else's is the 404 of a path that does not exist ({@code ProblemMappers}' words), its body not read.
     */
    private void receiveWarmUp(RoutingContext ctx) {
        HttpServerRequest request = ctx.request();
        if (request.method() == HttpMethod.POST && WarmUpRequests.admits(request.getHeader(WarmUpRequests.HEADER))) {
            receive(ctx);
            return;
        }
        // as every answer to a request that may carry credentials (SERVICE.md §7)
        ctx.response().putHeader(HttpHeaders.CACHE_CONTROL, "no-store");
        Problem absent = ProblemMappers.nothingAt(WarmUpRequests.PATH);
        if (declaredLength(request) <= 0 && request.getHeader(HttpHeaders.TRANSFER_ENCODING) == null) {
            // no body to drop: the connection stays open, as for any other 404
            ctx.response().setStatusCode(404).putHeader(HttpHeaders.CONTENT_TYPE, Problem.MEDIA_TYPE)
                    .end(body(absent, ctx));
        } else {
            answerAndDrop(ctx, absent);
        }
    }

    private void receive(RoutingContext ctx) {
        HttpServerRequest request = ctx.request();
        if (!receiving.tryAcquire()) {
            refuse(ctx, "Too many photos are being received");
            return;
        }
        long declared = declaredLength(request);
        if (!reserve(declared)) {
            receiving.release();
            refuse(ctx, "Too many bytes of photos are being held");
            return;
        }
        // the bytes are held until the answer is sent: the body waits for its decoding turn in memory
        long[] held = {declared};
        ctx.addEndHandler(v -> buffered.addAndGet(-held[0]));
        Upload upload = new Upload(ctx, declared < 0 ? held : null, declared);
        upload.timer = ctx.vertx().setTimer(Math.max(1, timeout.toMillis()), id -> upload.timeOut());
        request.handler(upload::chunk);
        request.endHandler(v -> upload.end());
        request.exceptionHandler(upload::failed);
        if (request.version() == HttpVersion.HTTP_1_1
                && "100-continue".equalsIgnoreCase(request.getHeader(HttpHeaders.EXPECT))) {
            // the client waits for this before it sends the body (RFC 9110 §10.1.1); a refused upload gets none
            ctx.response().writeContinue();
        }
        request.resume();
    }

    /** One upload being received; its methods run on the request's event loop. */
    private final class Upload {
        private final RoutingContext ctx;
        private byte[] body;
        private int length;
        /** The bytes reserved for a body sent without a length, grown as it arrives; null with a length. */
        private final long[] growing;
        private long timer = -1;
        private boolean over;

        Upload(RoutingContext ctx, long[] growing, long declared) {
            this.ctx = ctx;
            this.body = new byte[declared < 0 ? INITIAL_BUFFER : (int) Math.min(declared, maxBodyBytes)];
            this.growing = growing;
            if (growing != null) {
                growing[0] = 0;
            }
        }

        void chunk(Buffer chunk) {
            if (over) {
                return;
            }
            if (length + (long) chunk.length() > maxBodyBytes) {
                finish();
                answerAndDrop(ctx, Problem.of("body-too-large", "Body too large", 413, "The body is over the limit of "
                        + maxBodyBytes + " bytes.").with("field", "body"));
                return;
            }
            if (growing != null) {
                if (!reserve(chunk.length())) {
                    finish();
                    refuse(ctx, "Too many bytes of photos are being held");
                    return;
                }
                growing[0] += chunk.length();
            }
            if (length + chunk.length() > body.length) {
                // doubled, up to maxBodyBytes: the check above holds the body within it
                body = Arrays.copyOf(body, (int) Math.min(maxBodyBytes, Math.max(2L * body.length,
                        length + (long) chunk.length())));
            }
            chunk.getBytes(0, chunk.length(), body, length);
            length += chunk.length();
        }

        void end() {
            if (over) {
                return;
            }
            finish();
            ctx.put(BODY, length == body.length ? body : Arrays.copyOf(body, length));
            body = null;
            ctx.next();
        }

        void timeOut() {
            if (over) {
                return;
            }
            timer = -1;
            finish();
            timedOut.increment();
            Log.debugf("a photo upload to %s was not received within %s (%d bytes arrived)", PATH, timeout, length);
            answerAndClose(ctx, Problem.of("request-timeout", "Request timeout", 408, "The photo did not arrive within "
                    + seconds(timeout) + " of the request (" + length + " bytes arrived): send it again.")
                    .with("field", "body"));
        }

        void failed(Throwable cause) {
            if (!over) {
                finish();
            }
        }

        /** Ends the upload's hold: its place among those received, and its timer. */
        private void finish() {
            over = true;
            receiving.release();
            if (timer >= 0) {
                ctx.vertx().cancelTimer(timer);
                timer = -1;
            }
        }
    }

    /**
     * The body of {@code ctx}'s upload as received whole, exactly its bytes (possibly none); the array is the
     * request's own, not copied, and the caller may keep it.
     *
     * @throws IllegalStateException when the request is not an upload this class received: not a {@code POST} to
     *                               {@value #PATH} (or the warm-up's {@link WarmUpRequests#PATH}), or read before
     *                               it ended
     */
    static byte[] body(RoutingContext ctx) {
        byte[] body = ctx.get(BODY);
        if (body == null) {
            throw new IllegalStateException("no upload was received for " + ctx.request().method() + " "
                    + ctx.request().path());
        }
        return body;
    }

    /** The request's {@code Content-Length}, or -1 without one (chunked). */
    private static long declaredLength(HttpServerRequest request) {
        String length = request.getHeader(HttpHeaders.CONTENT_LENGTH);
        try {
            return length == null ? -1 : Long.parseLong(length.trim());
        } catch (NumberFormatException e) {
            return -1; // the HTTP codec refuses a malformed length before any handler runs
        }
    }

    /** Reserves {@code bytes} (nothing when negative) of the upload buffer; false when they do not fit. */
    private boolean reserve(long bytes) {
        if (bytes <= 0) {
            return true;
        }
        while (true) {
            long now = buffered.get();
            if (now + bytes > maxBufferedBytes) {
                return false;
            }
            if (buffered.compareAndSet(now, now + bytes)) {
                return true;
            }
        }
    }

    /** Answers 503 {@code service-busy} with {@code Retry-After} at once ({@code why} ... "at the moment"). */
    private void refuse(RoutingContext ctx, String why) {
        refused.increment();
        ctx.response().putHeader(HttpHeaders.RETRY_AFTER, String.valueOf(retryAfterSeconds));
        answerAndDrop(ctx, Problem.of("service-busy", "Service busy", 503, why + " at the moment; send this photo "
                + "again in " + retryAfterSeconds + " s.").with("retry_after", retryAfterSeconds));
    }

    /** Answers {@code problem} and closes the connection once the answer is written; the rest of the body is lost. */
    private void answerAndClose(RoutingContext ctx, Problem problem) {
        ctx.request().handler(null);
        ctx.request().endHandler(null);
        if (ctx.response().ended() || ctx.response().closed()) {
            ctx.request().connection().close();
            return;
        }
        ctx.response().setStatusCode(problem.status()).putHeader(HttpHeaders.CONTENT_TYPE, Problem.MEDIA_TYPE)
                .putHeader(HttpHeaders.CONNECTION, "close")
                .end(body(problem, ctx))
                .onComplete(written -> ctx.request().connection().close());
    }

    /**
     * Answers {@code problem} at once and drops the rest of the body as it arrives, so that a client that sends all
     * of it before reading the answer gets the answer instead of a reset connection; the connection is closed when
     * the body ends, after the upload timeout, or past twice the body limit, whichever comes first.
     */
    private void answerAndDrop(RoutingContext ctx, Problem problem) {
        HttpServerRequest request = ctx.request();
        ctx.response().setStatusCode(problem.status()).putHeader(HttpHeaders.CONTENT_TYPE, Problem.MEDIA_TYPE)
                .putHeader(HttpHeaders.CONNECTION, "close")
                .end(body(problem, ctx));
        if (request.isEnded()) {
            return;
        }
        long timer = ctx.vertx().setTimer(Math.max(1, timeout.toMillis()), id -> request.connection().close());
        long[] dropped = {0};
        request.handler(chunk -> {
            dropped[0] += chunk.length();
            if (dropped[0] > 2 * maxBodyBytes) {
                ctx.vertx().cancelTimer(timer);
                request.connection().close();
            }
        });
        request.endHandler(v -> {
            ctx.vertx().cancelTimer(timer);
            request.connection().close();
        });
        request.exceptionHandler(e -> ctx.vertx().cancelTimer(timer));
        request.resume();
    }

    private String body(Problem problem, RoutingContext ctx) {
        try {
            return json.writeValueAsString(problem.at(ctx.request().path()));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a problem record is always serialisable", e);
        }
    }

    private static String seconds(Duration duration) {
        long millis = duration.toMillis();
        return millis % 1000 == 0 ? millis / 1000 + " s" : millis + " ms";
    }
}
