package dev.cardcatalog.scryfall;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.logging.Log;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.smallrye.faulttolerance.api.TypedGuard;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.util.TypeLiteral;
import jakarta.inject.Singleton;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The Retry-After rule of SERVICE.md §3.2 and §3.3, in one place, for every Scryfall request: API calls, bulk
 * files and images. A call makes at most {@code max-attempts} (3) attempts through a SmallRye Fault Tolerance
 * {@link TypedGuard} with the {@link RetryAfterBackoff} strategy. Each attempt
 * <ol>
 *   <li>fails at once, without a request, while another call's quiet window for the host is open;</li>
 *   <li>sets up its connection, then waits for its slot in the request spacing, and says when the request is
 *       written ({@link Wire}), so the spacing holds between requests on the wire;</li>
 *   <li>sends the request and classifies the answer:
 *     <ul>
 *       <li>2xx: the value;</li>
 *       <li>429: waits what {@code Retry-After} asks (RFC 9110 §10.2.3), or Scryfall's 30 s lockout when it gives
 *           no usable value, and opens the quiet window that long;</li>
 *       <li>5xx: waits what {@code Retry-After} asks (opening the quiet window), else 1 s then 2 s;</li>
 *       <li>network error: 1 s then 2 s; so is an attempt still going after {@code attempt-timeout} (2 min),
 *           whatever it waits for (the quiet window's read, a connection, its slot, the answer), stopped then;</li>
 *       <li>a wait over {@code MAX_BACK_OFF} (30 s): ends the call at once with {@link RateLimitedException}
 *           carrying the wait asked for — no sleep, no further request;</li>
 *       <li>other 4xx: ends the call with {@link ScryfallRequestException} after one request.</li>
 *     </ul>
 *   </li>
 * </ol>
 * No wait follows the last attempt. Attempts that run out on 429s end in {@link RateLimitedException} with the
 * last wait asked for (or none), on 5xx or network errors in {@link ScryfallUnavailableException}. Waits are timers,
 * never a blocked thread.
 *
 * <p>A call as a whole is bounded too: one still going after {@link #longestCall()} plus {@link #CALL_MARGIN} (every
 * attempt stopped at {@code attempt-timeout}, every wait {@code MAX_BACK_OFF}) is stopped, whatever it waits for
 * (a wait between attempts, the quiet window's write), and ends in {@link ScryfallUnavailableException} naming the
 * attempt and what it was waiting for, logged as a warning. The attempt timeout and this bound run on the client's
 * own timer thread ({@code scryfall-timer}), not on a scheduler it shares with the framework: a timer lost there once
 * left an image call with no answer and no warning for minutes, and the art build waiting on it.
 *
 * <p>Each call is a client span ({@code scryfall api}, {@code scryfall file}, {@code scryfall image}; SERVICE.md §9)
 * in the caller's trace, with the URL, the last status and the attempts made; every wait between attempts is a span
 * event ({@code retry-after wait} with the seconds asked for, {@code back-off wait} with the fallback), as are a
 * refusal by the quiet window ({@code quiet window refusal}) and a call ended because the wait asked for is over
 * {@code MAX_BACK_OFF} ({@code wait over max back-off}).
 *
 * <p>Metrics: {@code scryfall.requests{host,status}} (status {@code 2xx}, the code of any other answer, or
 * {@code network}), {@code scryfall.rate.limits{host}}, {@code scryfall.waits.seconds} (the seconds waited between
 * attempts) with the summary {@code scryfall.wait.seconds}, and {@code scryfall.calls.ended.early{reason}}. They are
 * registered at 0 when the service starts ({@link #registerMeters}) for the label values known then, so that a
 * dashboard has their series from the start and an {@code increase()} sees the first event after a restart: the
 * hosts of {@code quarkus.rest-client.scryfall.url} and of the images (the {@code image-base-url-override}, else each
 * of {@code card-catalog.art.image-hosts}), the statuses {@link #STATUSES_KNOWN_IN_ADVANCE}, and every reason. A
 * bulk file's host is known only from the bulk-data list, and another status only when it is answered: those series
 * start at their first request.
 */
@Singleton
public class ScryfallCalls {

    /** The {@code status} values of {@code scryfall.requests} registered at 0 for every host known at start. */
    static final List<String> STATUSES_KNOWN_IN_ADVANCE = List.of("2xx", "429", "network");
    /** Every {@code reason} of {@code scryfall.calls.ended.early}. */
    static final List<String> ENDED_EARLY_REASONS = List.of("quiet-window", "wait-too-long", "attempts-exhausted");

    /**
     * Past {@link #longestCall()}: what a call may take beyond its attempts and waits (its quiet window's reads and
     * writes between them) before it is stopped.
     */
    static final Duration CALL_MARGIN = Duration.ofSeconds(10);

    private static final ObjectMapper JSON = new ObjectMapper();

    private final ScryfallConfig config;
    private final RequestSpacing spacing;
    private final QuietWindow quietWindow;
    private final Clock clock;
    private final MeterRegistry metrics;
    private final TypedGuard<Uni<Object>> guard;
    private final Tracer tracer;
    /** The attempt timeouts' and the call bound's timer thread (see the class Javadoc). */
    private final ScheduledExecutorService timers;

    public ScryfallCalls(ScryfallConfig config, RequestSpacing spacing, QuietWindow quietWindow, Clock clock,
            MeterRegistry metrics, Tracer tracer) {
        this.tracer = tracer;
        this.config = config;
        this.spacing = spacing;
        this.quietWindow = quietWindow;
        this.clock = clock;
        this.metrics = metrics;
        ScheduledThreadPoolExecutor timerThread = new ScheduledThreadPoolExecutor(1, task -> {
            Thread thread = new Thread(task, "scryfall-timer");
            thread.setDaemon(true);
            return thread;
        });
        // a stopped attempt's timer is cancelled at once, not kept until its time
        timerThread.setRemoveOnCancelPolicy(true);
        this.timers = timerThread;
        if (config.maxAttempts() < 1) {
            throw new IllegalArgumentException("card-catalog.scryfall.max-attempts must be at least 1");
        }
        if (config.fallbackWaits().isEmpty()) {
            throw new IllegalArgumentException("card-catalog.scryfall.fallback-waits needs at least one wait");
        }
        this.guard = TypedGuard.create(new TypeLiteral<Uni<Object>>() {
        })
                .withDescription("scryfall")
                .withRetry()
                .maxRetries(config.maxAttempts() - 1)
                .delay(0, ChronoUnit.MILLIS)
                .jitter(0, ChronoUnit.MILLIS)
                // the waits are bounded by MAX_BACK_OFF each; the duration bound is not the rule, so keep it out
                .maxDuration(1, ChronoUnit.DAYS)
                .retryOn(RetryableAnswer.class)
                .withCustomBackoff()
                .strategy(() -> new RetryAfterBackoff(config.fallbackWaits(), this::recordWait))
                .done()
                .done()
                .build();
    }

    @PreDestroy
    void stopTimers() {
        timers.shutdownNow();
    }

    /**
     * The longest one call can take under the rule: every attempt stopped at {@code attempt-timeout}, every wait
     * between two of them {@code MAX_BACK_OFF} (the longest sat out), as a Duration. A call is stopped
     * {@link #CALL_MARGIN} after it.
     */
    public Duration longestCall() {
        int attempts = config.maxAttempts();
        return config.attemptTimeout().multipliedBy(attempts).plus(config.maxBackOff().multipliedBy(attempts - 1));
    }

    /**
     * Registers this client's meters at 0 at start, for the hosts known from the configuration (see the class
     * Javadoc).
     *
     * @param apiUrl {@code quarkus.rest-client.scryfall.url}
     * @param imageHosts {@code card-catalog.art.image-hosts}: images are fetched from them over https, or from
     *     {@code card-catalog.scryfall.image-base-url-override} when it is set
     */
    void registerMeters(@Observes StartupEvent start,
            @org.eclipse.microprofile.config.inject.ConfigProperty(name = "quarkus.rest-client.scryfall.url") String apiUrl,
            @org.eclipse.microprofile.config.inject.ConfigProperty(name = "card-catalog.art.image-hosts",
                    defaultValue = "cards.scryfall.io") List<String> imageHosts) {
        Set<String> hosts = new LinkedHashSet<>();
        hosts.add(scope(URI.create(apiUrl)));
        config.imageBaseUrlOverride().ifPresentOrElse(base -> hosts.add(scope(URI.create(base))),
                () -> imageHosts.forEach(host -> hosts.add(scope(URI.create("https://" + host.trim())))));
        for (String host : hosts) {
            for (String status : STATUSES_KNOWN_IN_ADVANCE) {
                metrics.counter("scryfall.requests", "host", host, "status", status);
            }
            metrics.counter("scryfall.rate.limits", "host", host);
        }
        metrics.counter("scryfall.waits.seconds");
        metrics.summary("scryfall.wait.seconds");
        for (String reason : ENDED_EARLY_REASONS) {
            metrics.counter("scryfall.calls.ended.early", "reason", reason);
        }
    }

    /** Which spacing lane and quiet-window scope a request belongs to. */
    public enum Lane { API, FILE, IMAGE }

    /** An attempt's place in the request spacing, used by the code that puts the request on the wire. */
    public interface Wire {
        /** Completes when the request may be written; call it once the connection is set up. */
        Uni<Void> ready();

        /** Call when the request has been written: the spacing to the next request starts now. */
        void sent();
    }

    /**
     * Runs one call under the rule.
     *
     * @param url the URL requested (for messages and the quiet window's scope: its host and port)
     * @param lane API requests are spaced 100 ms (500 ms for the search-like paths), images 100 ms, bulk files not
     * @param send sends one request through the given {@link Wire}: sets up the connection, waits for
     *     {@link Wire#ready()}, writes the request and calls {@link Wire#sent()}; its Uni fails with
     *     {@link HttpStatusFailure} for a non-2xx answer, anything else for a network error
     */
    public <T> Uni<T> call(String url, Lane lane, Function<Wire, Uni<T>> send) {
        // the caller's context (a run's span), taken now: the call may be subscribed to on another thread
        Context parent = Context.current();
        return Uni.createFrom().deferred(() -> {
            URI uri = URI.create(url);
            Span span = tracer.spanBuilder("scryfall " + lane.name().toLowerCase(java.util.Locale.ROOT))
                    .setParent(parent)
                    .setSpanKind(SpanKind.CLIENT)
                    .setAttribute("http.request.method", "GET")
                    .setAttribute("url.full", url)
                    .setAttribute("server.address", uri.getHost() == null ? "" : uri.getHost())
                    .startSpan();
            CallTrace trace = new CallTrace(span, clock);
            Duration bound = longestCall().plus(CALL_MARGIN);
            return this.<T>traced(url, lane, send, trace)
                    .ifNoItem().after(bound).on(timers).failWith(() -> stalled(url, bound, trace))
                    .onTermination().invoke((item, failure, cancelled) -> {
                        span.setAttribute("scryfall.attempts", (long) trace.attempts);
                        if (trace.status > 0) {
                            span.setAttribute("http.response.status_code", (long) trace.status);
                        }
                        if (failure != null) {
                            span.recordException(failure);
                            span.setStatus(StatusCode.ERROR, failure.getMessage() == null ? "" : failure.getMessage());
                        }
                        span.end();
                    });
        });
    }

    /** What a call's span learns from its attempts, and where the call is now. */
    private static final class CallTrace {
        final Span span;
        private final Clock clock;
        volatile int attempts;
        volatile int status;
        private volatile Stage stage = Stage.STARTING;
        private volatile java.time.Instant since;

        CallTrace(Span span, Clock clock) {
            this.span = span;
            this.clock = clock;
            this.since = clock.instant();
        }

        void at(Stage stage) {
            this.stage = stage;
            this.since = clock.instant();
        }

        Stage stage() {
            return stage;
        }

        /** Where the call is, for a message: "attempt 2 of 3, waiting for a connection for 41 s". */
        String where(int maxAttempts) {
            long seconds = Math.max(0, Duration.between(since, clock.instant()).toSeconds());
            return (attempts == 0 ? "before its first attempt" : "attempt " + attempts + " of " + maxAttempts)
                    + ", " + stage.waiting + " for " + seconds + " s";
        }

        /** A wait before the next attempt, when one follows ({@code attempts} below the maximum). */
        void waiting(String name, Duration wait, int status) {
            span.addEvent(name, Attributes.of(AttributeKey.doubleKey("wait.seconds"), SaturatingWaits.toSeconds(wait),
                    AttributeKey.longKey("http.response.status_code"), (long) status,
                    AttributeKey.longKey("scryfall.attempt"), (long) attempts));
        }
    }

    @SuppressWarnings("unchecked")
    private <T> Uni<T> traced(String url, Lane lane, Function<Wire, Uni<T>> send, CallTrace trace) {
        URI uri = URI.create(url);
        String scope = scope(uri);
        String callId = UUID.randomUUID().toString();
        Duration[] lastAsked = new Duration[1];
        Wire wire = new Wire() {
            @Override
            public Uni<Void> ready() {
                trace.at(Stage.SPACING);
                Uni<Void> slot = switch (lane) {
                    case API -> spacing.awaitApi(uri.getPath());
                    case FILE -> spacing.awaitFile();
                    case IMAGE -> spacing.awaitImage();
                };
                return slot.invoke(() -> trace.at(Stage.ANSWER));
            }

            @Override
            public void sent() {
                switch (lane) {
                    case API -> spacing.sentApi(uri.getPath());
                    case FILE -> spacing.sentFile();
                    case IMAGE -> spacing.sentImage();
                }
            }
        };
        Supplier<Uni<Object>> attempt = () -> Uni.createFrom().deferred(() -> {
            trace.attempts++;
            trace.at(Stage.QUIET_WINDOW);
            return quietWindow.admit(scope, callId, url)
                    .onFailure(RateLimitedException.class).invoke(refused -> trace.span.addEvent(
                            "quiet window refusal", Attributes.of(AttributeKey.stringKey("reason"),
                                    String.valueOf(refused.getMessage()))))
                    .invoke(() -> trace.at(Stage.CONNECTION))
                    .chain(() -> (Uni<Object>) (Uni<?>) send.apply(wire))
                    .ifNoItem().after(config.attemptTimeout()).on(timers).failWith(() -> overTime(url, trace.stage()))
                    .onItem().invoke(item -> countRequest(uri, "2xx"))
                    .onFailure(f -> !(f instanceof RateLimitedException))
                    .recoverWithUni(failure -> classify(url, scope, callId, failure, lastAsked, trace))
                    .onFailure(RetryableAnswer.class).invoke(() -> trace.at(Stage.BETWEEN_ATTEMPTS));
        });
        return (Uni<T>) guard.get(attempt)
                .onFailure(RetryableAnswer.class)
                .transform(failure -> exhausted(url, (RetryableAnswer) failure, lastAsked[0]));
    }

    /**
     * Where a call is: what an attempt stopped at {@code attempt-timeout}, or a call stopped at its bound, was
     * waiting for.
     */
    enum Stage {
        STARTING("starting"),
        QUIET_WINDOW("reading the quiet window"),
        CONNECTION("waiting for a connection"),
        SPACING("waiting for its slot in the request spacing"),
        ANSWER("its slot taken, waiting for the answer"),
        OPENING_QUIET_WINDOW("storing the quiet window"),
        BETWEEN_ATTEMPTS("waiting before the next attempt");

        final String waiting;

        Stage(String waiting) {
            this.waiting = waiting;
        }
    }

    /** The failure of a call stopped at its bound, logged as a warning: a stall outside any attempt, named. */
    private ScryfallUnavailableException stalled(String url, Duration bound, CallTrace trace) {
        String message = "the call was stopped after " + bound.toSeconds() + " s, past the longest it may take under "
                + "the rule (" + trace.where(config.maxAttempts()) + ")";
        Log.warnf("Scryfall request to %s: %s", url, message);
        return new ScryfallUnavailableException(url, trace.status, message, null);
    }

    /** The failure of an attempt stopped at {@code attempt-timeout}, logged as a warning: a stall, named. */
    private java.util.concurrent.TimeoutException overTime(String url, Stage stage) {
        String message = "the attempt was stopped after " + config.attemptTimeout().toSeconds()
                + " s (card-catalog.scryfall.attempt-timeout), " + stage.waiting;
        Log.warnf("Scryfall request to %s: %s", url, message);
        return new java.util.concurrent.TimeoutException(message);
    }

    private Uni<Object> classify(String url, String scope, String callId, Throwable failure, Duration[] lastAsked,
            CallTrace trace) {
        URI uri = URI.create(url);
        boolean another = trace.attempts < config.maxAttempts();
        if (!(failure instanceof HttpStatusFailure answer)) {
            Log.debugf(failure, "request to %s got no answer", url);
            countRequest(uri, "network");
            if (another) {
                trace.waiting("back-off wait", fallback(trace.attempts), 0);
            }
            return Uni.createFrom().failure(new RetryableAnswer(RetryableAnswer.Kind.NETWORK, 0, null, null,
                    "network error: " + describe(failure), failure));
        }
        int status = answer.status();
        trace.status = status;
        countRequest(uri, String.valueOf(status));
        Optional<Duration> asked = RetryAfter.fromHeaders(answer.header("Retry-After"),
                answer.firstHeader("Date"), clock);
        asked.ifPresent(wait -> lastAsked[0] = wait);
        if (status == 429) {
            metrics.counter("scryfall.rate.limits", "host", scope).increment();
            Duration wait = asked.orElse(config.rateLimitLockout());
            String reason = "429 from " + url + (asked.isPresent()
                    ? " asking for " + wait.toSeconds() + " s" : " without a usable Retry-After");
            trace.at(Stage.OPENING_QUIET_WINDOW);
            return quietWindow.openFor(scope, wait, callId, reason).chain(() -> {
                if (wait.compareTo(config.maxBackOff()) > 0) {
                    trace.waiting("wait over max back-off", wait, status);
                    return endEarly(url, asked.orElse(null), reason);
                }
                if (another) {
                    trace.waiting("retry-after wait", wait, status);
                }
                return Uni.createFrom().failure(new RetryableAnswer(RetryableAnswer.Kind.RATE_LIMITED, status,
                        wait, asked.orElse(null), reason, null));
            });
        }
        if (status >= 500) {
            if (asked.isEmpty()) {
                if (another) {
                    trace.waiting("back-off wait", fallback(trace.attempts), status);
                }
                return Uni.createFrom().failure(new RetryableAnswer(RetryableAnswer.Kind.SERVER_ERROR, status,
                        null, null, status + " from " + url, null));
            }
            Duration wait = asked.get();
            String reason = status + " from " + url + " asking for " + wait.toSeconds() + " s";
            trace.at(Stage.OPENING_QUIET_WINDOW);
            Uni<Void> window = wait.isZero() ? Uni.createFrom().voidItem()
                    : quietWindow.openFor(scope, wait, callId, reason);
            return window.chain(() -> {
                if (wait.compareTo(config.maxBackOff()) > 0) {
                    trace.waiting("wait over max back-off", wait, status);
                    return endEarly(url, wait, reason);
                }
                if (another) {
                    trace.waiting("retry-after wait", wait, status);
                }
                return Uni.createFrom().failure(new RetryableAnswer(RetryableAnswer.Kind.SERVER_ERROR, status,
                        wait, wait, reason, null));
            });
        }
        return Uni.createFrom().failure(permanent(url, answer));
    }

    /** The fallback wait after attempt {@code attempt} (as {@link RetryAfterBackoff} takes it). */
    private Duration fallback(int attempt) {
        return config.fallbackWaits().get(Math.min(attempt, config.fallbackWaits().size()) - 1);
    }

    private Uni<Object> endEarly(String url, Duration asked, String reason) {
        metrics.counter("scryfall.calls.ended.early", "reason", "wait-too-long").increment();
        Log.infof("Scryfall call ended early: %s (over the %d s MAX_BACK_OFF)", reason,
                config.maxBackOff().toSeconds());
        return Uni.createFrom().failure(new RateLimitedException(url, asked,
                reason + "; more than the " + config.maxBackOff().toSeconds() + " s this client waits"));
    }

    private RuntimeException exhausted(String url, RetryableAnswer last, Duration lastAsked) {
        int attempts = config.maxAttempts();
        if (last.kind == RetryableAnswer.Kind.RATE_LIMITED) {
            metrics.counter("scryfall.calls.ended.early", "reason", "attempts-exhausted").increment();
            return new RateLimitedException(url, last.asked != null ? last.asked : lastAsked,
                    "rate limited by Scryfall " + attempts + " times in a row: " + last.getMessage());
        }
        return new ScryfallUnavailableException(url, last.status,
                "Scryfall unavailable after " + attempts + " attempts: " + last.getMessage(), last.getCause());
    }

    private static ScryfallRequestException permanent(String url, HttpStatusFailure answer) {
        String code = null;
        String subcode = null;
        String details = null;
        if (answer.body() != null && !answer.body().isBlank()) {
            try {
                JsonNode error = JSON.readTree(answer.body());
                code = text(error, "code");
                subcode = text(error, "subcode");
                details = text(error, "details");
            } catch (Exception notJson) {
                details = answer.body().length() > 200 ? answer.body().substring(0, 200) + "…" : answer.body();
            }
        }
        return new ScryfallRequestException(url, answer.status(), code, subcode, details);
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node == null ? null : node.get(field);
        return value == null || value.isNull() ? null : value.asText();
    }

    private void countRequest(URI uri, String status) {
        metrics.counter("scryfall.requests", "host", scope(uri), "status", status).increment();
    }

    private void recordWait(Duration wait) {
        metrics.counter("scryfall.waits.seconds").increment(SaturatingWaits.toSeconds(wait));
        metrics.summary("scryfall.wait.seconds").record(SaturatingWaits.toSeconds(wait));
    }

    /** The quiet window's scope of a URL: its host, with the port when one is given. */
    static String scope(URI uri) {
        return uri.getPort() < 0 ? uri.getHost() : uri.getHost() + ":" + uri.getPort();
    }

    private static String describe(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage();
        if (root instanceof java.util.concurrent.TimeoutException || root instanceof java.net.SocketTimeoutException) {
            return "timed out" + (message == null ? "" : ": " + message);
        }
        return message == null || message.isBlank() ? "the connection failed" : message;
    }
}
