package dev.cardcatalog.job;

import io.opentelemetry.context.Context;

/**
 * The trace a job belongs to, as W3C Trace Context headers: {@code traceparent}
 * ({@code 00-<32 hex trace id>-<16 hex span id>-<2 hex flags>}) and {@code tracestate} (null when the trace has
 * none). Both null when the job has no trace (tracing off, or a row older than migration V15).
 */
public record JobTrace(String traceparent, String tracestate) {

    /** No trace. */
    public static final JobTrace NONE = new JobTrace(null, null);

    /** The trace of the span in {@code context}. */
    public static JobTrace of(Context context) {
        return new JobTrace(JobTracing.traceparent(context), JobTracing.tracestate(context));
    }

    /** The trace of the current span: the POST's, the run's. */
    public static JobTrace current() {
        return of(Context.current());
    }

    /** The 32 hex digits of the trace id, or null. */
    public String traceId() {
        return JobTracing.traceId(traceparent);
    }

    /** The context to continue the trace from, as a remote parent; the root context when there is none. */
    public Context context() {
        return JobTracing.context(traceparent, tracestate);
    }
}
