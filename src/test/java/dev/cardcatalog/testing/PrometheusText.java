package dev.cardcatalog.testing;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reading series out of the service's {@code /q/metrics} (the Prometheus text and OpenMetrics formats). */
public final class PrometheusText {

    private static final Pattern LINE = Pattern.compile(
            "(?m)^([A-Za-z_:][A-Za-z0-9_:]*)(\\{(?:[^\"}]|\"(?:[^\"\\\\]|\\\\.)*\")*})? (\\S+)(?: # .*)?$");
    private static final Pattern LABEL = Pattern.compile("([A-Za-z_][A-Za-z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    private PrometheusText() {
    }

    /** One series of an exposition: its name, its labels and its value. */
    public record Series(String name, Map<String, String> labels, double value) {
    }

    /**
     * A pattern, multi-line, that finds each series of {@code name}: group 1 is its labels with their braces (null
     * when it has none), group 2 its value. A counter's line may end in an exemplar ({@code # {span_id=..., trace_id=...}
     * 1.0 <timestamp>}, written while tracing is on), which is not part of the value.
     */
    public static Pattern series(String name) {
        return Pattern.compile("(?m)^" + Pattern.quote(name) + "(\\{[^}]*})? (\\S+)(?: # .*)?$");
    }

    /** Every series of an exposition, in order (comment lines, {@code # HELP} and {@code # TYPE}, left out). */
    public static List<Series> parse(String exposition) {
        List<Series> all = new ArrayList<>();
        Matcher line = LINE.matcher(exposition);
        while (line.find()) {
            Map<String, String> labels = new LinkedHashMap<>();
            if (line.group(2) != null) {
                Matcher label = LABEL.matcher(line.group(2));
                while (label.find()) {
                    labels.put(label.group(1), label.group(2).replace("\\\"", "\"").replace("\\n", "\n")
                            .replace("\\\\", "\\"));
                }
            }
            String value = line.group(3);
            all.add(new Series(line.group(1), labels, switch (value) {
                case "+Inf" -> Double.POSITIVE_INFINITY;
                case "-Inf" -> Double.NEGATIVE_INFINITY;
                default -> Double.parseDouble(value);
            }));
        }
        return all;
    }
}
