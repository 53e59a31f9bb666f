package dev.cardcatalog.job;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.smallrye.reactive.messaging.TracingMetadata;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.MDC;

/**
 * One trace per job (SERVICE.md §9): the trace context a job belongs to, and the span of each run.
 *
 * <p>A job's trace is the one its first command came in (the POST's, or the {@code traceparent} of a command from
 * another service). It is kept on the job row as a W3C {@code traceparent} (and {@code tracestate} when present) so
 * that work done outside a delivery (a takeover, the sweep's re-sends, an operator's run-now) stays in that trace.
 * Each run is a span ({@code <kind> run}) whose parent is the context of the record that delivered the command: the
 * Kafka consumer span that SmallRye Reactive Messaging made from the record's {@code traceparent}. A retried run's
 * command comes from the delay relay, whose record carries the context of the failed run, so the retried run is a
 * descendant of the failed one, in the same trace (docs/architecture.md says why a child, not a link).
 *
 * <p>Outgoing records get their {@code traceparent} from SmallRye's Kafka producer instrumentation, which writes
 * the context given with the message ({@link #within}); the propagation headers a record came with are therefore
 * never carried over ({@link #PROPAGATION}), or a record would hold two {@code traceparent} headers.
 */
@ApplicationScoped
public class JobTracing {

    /** W3C Trace Context: the trace id, the parent span id and the flags. */
    public static final String TRACEPARENT = "traceparent";
    /** W3C Trace Context: vendor data, present when the trace has some. */
    public static final String TRACESTATE = "tracestate";
    /** Headers the propagators (W3C Trace Context and Baggage) write on every record: never carried over. */
    public static final Set<String> PROPAGATION = Set.of(TRACEPARENT, TRACESTATE, "baggage");

    private static final TextMapGetter<Map<String, String>> MAP = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Map<String, String> carrier) {
            return carrier.keySet();
        }

        @Override
        public String get(Map<String, String> carrier, String key) {
            return carrier == null ? null : carrier.get(key);
        }
    };

    private final Tracer tracer;

    public JobTracing(Tracer tracer) {
        this.tracer = tracer;
    }

    /**
     * Starts the span of one run, with the attributes {@code job.id}, {@code job.kind}, {@code job.attempt} and
     * {@code job.trigger}. The caller makes it current on the worker thread and ends it when the run ends.
     *
     * @param parent the context of the delivery that claimed the run, or null to use the job's own trace context
     */
    Span startRun(JobLedger.ClaimedRun run, Context parent) {
        JobLedger.JobRecord job = run.job();
        Context from = parent != null ? parent : job.trace().context();
        return tracer.spanBuilder(job.kind().wire() + " run")
                .setParent(from)
                .setSpanKind(SpanKind.INTERNAL)
                .setAttribute("job.id", job.id().toString())
                .setAttribute("job.kind", job.kind().wire())
                .setAttribute("job.attempt", (long) run.attempt())
                .setAttribute("job.trigger", job.trigger().wire())
                .startSpan();
    }

    /**
     * The context named by a W3C {@code traceparent} (and {@code tracestate}), as a remote parent; the root context
     * when {@code traceparent} is null or not valid.
     */
    public static Context context(String traceparent, String tracestate) {
        if (traceparent == null) {
            return Context.root();
        }
        Map<String, String> carrier = new HashMap<>();
        carrier.put(TRACEPARENT, traceparent);
        if (tracestate != null) {
            carrier.put(TRACESTATE, tracestate);
        }
        return W3CTraceContextPropagator.getInstance().extract(Context.root(), carrier, MAP);
    }

    /** The W3C {@code traceparent} of the span in {@code context}, or null when it has no valid span. */
    public static String traceparent(Context context) {
        SpanContext span = Span.fromContext(context).getSpanContext();
        if (!span.isValid()) {
            return null;
        }
        return "00-" + span.getTraceId() + "-" + span.getSpanId() + "-" + span.getTraceFlags().asHex();
    }

    /** The W3C {@code tracestate} of the span in {@code context}, or null when it has none. */
    public static String tracestate(Context context) {
        SpanContext span = Span.fromContext(context).getSpanContext();
        if (!span.isValid() || span.getTraceState().isEmpty()) {
            return null;
        }
        StringBuilder text = new StringBuilder();
        span.getTraceState().forEach((key, value) -> {
            if (text.length() > 0) {
                text.append(',');
            }
            text.append(key).append('=').append(value);
        });
        return text.toString();
    }

    /** The 32 hex digits of the trace id in a {@code traceparent}, or null. */
    public static String traceId(String traceparent) {
        return traceparent == null || traceparent.length() < 35 ? null : traceparent.substring(3, 35);
    }

    /**
     * The context a delivered record brought: the Kafka consumer span SmallRye made for it (a child of the record's
     * {@code traceparent}), or the current context when tracing is off.
     */
    static Context of(Message<?> message) {
        return TracingMetadata.fromMessage(message).map(TracingMetadata::getCurrentContext).filter(c -> c != null)
                .orElse(Context.current());
    }

    /** {@code message}, to be published as a child of {@code context} (the producer span writes its traceparent). */
    static <T> Message<T> within(Message<T> message, Context context) {
        return message.addMetadata(TracingMetadata.withCurrent(context));
    }

    /**
     * Puts the trace and span ids of {@code context} in the logging MDC ({@code traceId}, {@code spanId}, as
     * Quarkus's own instrumentation names them) for a thread that is not a Vert.x one, where Quarkus does not.
     *
     * @return restores the MDC as it was
     */
    static Scope logWith(Context context) {
        SpanContext span = Span.fromContext(context).getSpanContext();
        if (!span.isValid()) {
            return Scope.noop();
        }
        Object traceId = MDC.get("traceId");
        Object spanId = MDC.get("spanId");
        Object sampled = MDC.get("sampled");
        MDC.put("traceId", span.getTraceId());
        MDC.put("spanId", span.getSpanId());
        MDC.put("sampled", Boolean.toString(span.isSampled()));
        return () -> {
            restore("traceId", traceId);
            restore("spanId", spanId);
            restore("sampled", sampled);
        };
    }

    private static void restore(String key, Object value) {
        if (value == null) {
            MDC.remove(key);
        } else {
            MDC.put(key, value);
        }
    }
}
