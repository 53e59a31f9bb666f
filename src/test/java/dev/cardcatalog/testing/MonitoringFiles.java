package dev.cardcatalog.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.Yaml;

/**
 * What {@code deploy/monitoring/} reads: the alert rules of {@code prometheusrule.yaml}, the PromQL of every target
 * of every panel of {@code card-catalog-dashboard.json} (rows' panels too), and the series selectors in them
 * ({@link #selectors}), so that a test checks a new rule or panel without being told of it.
 */
public final class MonitoringFiles {

    /** The monitoring overlay. */
    public static final Path MONITORING = Path.of("deploy/monitoring");
    public static final Path RULES = MONITORING.resolve("prometheusrule.yaml");
    public static final Path DASHBOARD = MONITORING.resolve("card-catalog-dashboard.json");

    /** Words that group or join, followed by a parenthesised list of labels, not a metric's name. */
    private static final Set<String> GROUPING = Set.of("by", "without", "on", "ignoring", "group_left",
            "group_right");
    /** Operators and literals that read like identifiers. */
    private static final Set<String> KEYWORDS = Set.of("and", "or", "unless", "bool", "offset", "inf", "nan", "atan2");

    private MonitoringFiles() {
    }

    /** A label matcher of a selector: {@code label op "value"} with {@code =}, {@code !=}, {@code =~} or {@code !~}. */
    public record LabelMatcher(String label, String op, String value) {

        /** Whether a series with these labels passes (a missing label is the empty string, as in Prometheus). */
        public boolean matches(Map<String, String> labels) {
            String actual = labels.getOrDefault(label, "");
            return switch (op) {
                case "=" -> actual.equals(value);
                case "!=" -> !actual.equals(value);
                case "=~" -> Pattern.compile(value).matcher(actual).matches();
                case "!~" -> !Pattern.compile(value).matcher(actual).matches();
                default -> throw new IllegalStateException("no matcher " + op);
            };
        }

        @Override
        public String toString() {
            return label + op + "\"" + value + "\"";
        }
    }

    /** An instant or range vector selector: a metric name and its label matchers. */
    public record Selector(String name, List<LabelMatcher> matchers) {

        /** Whether the series is one this selector selects. */
        public boolean selects(PrometheusText.Series series) {
            return series.name().equals(name) && matchers.stream().allMatch(m -> m.matches(series.labels()));
        }

        @Override
        public String toString() {
            return matchers.isEmpty() ? name : name + matchers.toString().replace('[', '{').replace(']', '}');
        }
    }

    /** The rules of every group of the PrometheusRule's {@code spec.groups}. */
    @SuppressWarnings("unchecked")
    public static List<Map<String, Object>> rules() {
        List<Map<String, Object>> rules = new ArrayList<>();
        for (Object group : (List<Object>) ((Map<String, Object>) prometheusRule().get("spec")).get("groups")) {
            rules.addAll((List<Map<String, Object>>) ((Map<String, Object>) group).get("rules"));
        }
        return rules;
    }

    /** The PrometheusRule document. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> prometheusRule() {
        try (Reader reader = Files.newBufferedReader(RULES)) {
            return (Map<String, Object>) new Yaml().load(reader);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every rule's {@code expr}, in order. */
    public static List<String> ruleExpressions() {
        return rules().stream().map(rule -> (String) rule.get("expr")).toList();
    }

    /** Every {@code expr} of every target of every panel of the dashboard, rows' panels included. */
    public static List<String> dashboardExpressions() {
        try {
            List<String> expressions = new ArrayList<>();
            collect(new ObjectMapper().readTree(DASHBOARD.toFile()), expressions);
            return expressions;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void collect(JsonNode node, List<String> expressions) {
        for (JsonNode panel : node.path("panels")) {
            for (JsonNode target : panel.path("targets")) {
                if (target.hasNonNull("expr")) {
                    expressions.add(target.get("expr").asText());
                }
            }
            collect(panel, expressions);
        }
    }

    /** The rules' expressions, then the dashboard's. */
    public static List<String> expressions() {
        List<String> all = new ArrayList<>(ruleExpressions());
        all.addAll(dashboardExpressions());
        return all;
    }

    /**
     * The series selectors of a PromQL expression, in order: every metric name outside strings, with the label
     * matchers in its braces. Function and aggregation names (followed by a parenthesis, or by {@code by} or
     * {@code without}), the label lists of {@code by}, {@code without}, {@code on} and {@code ignoring}, ranges,
     * durations, numbers and keywords are not metric names. A selector without a name ({@code {__name__="x"}})
     * counts under its {@code __name__} when that is an equality, and is left out otherwise.
     */
    public static List<Selector> selectors(String expression) {
        List<Selector> selectors = new ArrayList<>();
        String text = expression;
        int n = text.length();
        int i = 0;
        while (i < n) {
            char c = text.charAt(i);
            if (c == '"' || c == '\'' || c == '`') {
                i = endOfString(text, i);
            } else if (c == '[') {
                i = text.indexOf(']', i) + 1;
            } else if (c == '{') {
                int end = endOfMatchers(text, i);
                List<LabelMatcher> matchers = matchers(text.substring(i + 1, end));
                matchers.stream().filter(m -> m.label().equals("__name__") && m.op().equals("=")).findFirst()
                        .ifPresent(name -> selectors.add(new Selector(name.value(), matchers.stream()
                                .filter(m -> !m.label().equals("__name__")).toList())));
                i = end + 1;
            } else if (Character.isDigit(c) || c == '.') {
                while (i < n && (Character.isLetterOrDigit(text.charAt(i)) || text.charAt(i) == '.')) {
                    i++;
                }
            } else if (Character.isLetter(c) || c == '_' || c == ':') {
                int start = i;
                while (i < n && (Character.isLetterOrDigit(text.charAt(i)) || text.charAt(i) == '_'
                        || text.charAt(i) == ':')) {
                    i++;
                }
                String word = text.substring(start, i);
                String lower = word.toLowerCase(Locale.ROOT);
                int next = skipSpaces(text, i);
                boolean parenthesis = next < n && text.charAt(next) == '(';
                if (GROUPING.contains(lower)) {
                    if (parenthesis) {
                        i = text.indexOf(')', next) + 1;
                    }
                } else if (parenthesis || startsWord(text, next, "by") || startsWord(text, next, "without")) {
                    // a function, or an aggregation with its parameters or its grouping first
                } else if (!KEYWORDS.contains(lower)) {
                    List<LabelMatcher> matchers = List.of();
                    if (next < n && text.charAt(next) == '{') {
                        int end = endOfMatchers(text, next);
                        matchers = matchers(text.substring(next + 1, end));
                        i = end + 1;
                    }
                    selectors.add(new Selector(word, matchers));
                }
            } else {
                i++;
            }
        }
        return selectors;
    }

    private static boolean startsWord(String text, int at, String word) {
        int end = at + word.length();
        return text.startsWith(word, at) && (end == text.length() || !Character.isLetterOrDigit(text.charAt(end))
                && text.charAt(end) != '_');
    }

    private static int skipSpaces(String text, int at) {
        while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
            at++;
        }
        return at;
    }

    /** The index just past the string literal that starts at {@code at}. */
    private static int endOfString(String text, int at) {
        char quote = text.charAt(at);
        int i = at + 1;
        while (i < text.length() && text.charAt(i) != quote) {
            i += text.charAt(i) == '\\' && quote != '`' ? 2 : 1;
        }
        return i + 1;
    }

    /** The index of the {@code }} that closes the braces opened at {@code at}. */
    private static int endOfMatchers(String text, int at) {
        int i = at + 1;
        while (text.charAt(i) != '}') {
            char c = text.charAt(i);
            i = c == '"' || c == '\'' || c == '`' ? endOfString(text, i) : i + 1;
        }
        return i;
    }

    private static List<LabelMatcher> matchers(String inside) {
        List<LabelMatcher> matchers = new ArrayList<>();
        int i = 0;
        int n = inside.length();
        while (i < n) {
            i = skipSpaces(inside, i);
            if (i >= n) {
                break;
            }
            int start = i;
            while (i < n && (Character.isLetterOrDigit(inside.charAt(i)) || inside.charAt(i) == '_')) {
                i++;
            }
            String label = inside.substring(start, i);
            i = skipSpaces(inside, i);
            String op = inside.startsWith("=~", i) || inside.startsWith("!~", i) || inside.startsWith("!=", i)
                    ? inside.substring(i, i + 2) : inside.substring(i, i + 1);
            if (!Set.of("=", "!=", "=~", "!~").contains(op)) {
                throw new IllegalArgumentException("not a label matcher: " + inside);
            }
            i = skipSpaces(inside, i + op.length());
            int end = endOfString(inside, i);
            String value = inside.substring(i + 1, end - 1);
            if (inside.charAt(i) != '`') {
                value = value.replace("\\\"", "\"").replace("\\'", "'").replace("\\\\", "\\");
            }
            matchers.add(new LabelMatcher(label, op, value));
            i = skipSpaces(inside, end);
            if (i < n && inside.charAt(i) == ',') {
                i++;
            }
        }
        return matchers;
    }
}
