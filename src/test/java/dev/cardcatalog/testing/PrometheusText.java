package dev.cardcatalog.testing;

import java.util.regex.Pattern;

/** Reading series out of the service's {@code /q/metrics} (the Prometheus text and OpenMetrics formats). */
public final class PrometheusText {

    private PrometheusText() {
    }

    /**
     * A pattern, multi-line, that finds each series of {@code name}: group 1 is its labels with their braces (null
     * when it has none), group 2 its value. A counter's line may end in an exemplar ({@code # {span_id=..., trace_id=...}
     * 1.0 <timestamp>}, written while tracing is on), which is not part of the value.
     */
    public static Pattern series(String name) {
        return Pattern.compile("(?m)^" + Pattern.quote(name) + "(\\{[^}]*})? (\\S+)(?: # .*)?$");
    }
}
