package dev.cardcatalog.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.cardcatalog.testing.MonitoringFiles;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * The alert rules proven the way Prometheus users prove them, with Prometheus's own {@code promtool}: the rules are
 * taken out of the PrometheusRule ({@code spec} is a plain rule file) into {@code target/monitoring/}, then
 * {@code promtool check rules} checks them and {@code promtool test rules} runs
 * {@code deploy/monitoring/prometheusrule.test.yaml}, which must give every alert a case that fires it, with all of
 * its labels and annotations, one that does not, and for an alert with a {@code for:} a case still pending within
 * that duration of the firing one. Needs {@code promtool} (Debian's {@code prometheus} package; {@code .ci/run}
 * installs it), found on the {@code PATH} or at {@code -Dcard-catalog.test.promtool=<path>}; without it the tests
 * fail saying what to install.
 */
class AlertRulesTest {

    static final Path TESTS = MonitoringFiles.MONITORING.resolve("prometheusrule.test.yaml");
    /** Where the rules taken out of the PrometheusRule and a copy of the test file go. */
    static final Path WORK = Path.of("target/monitoring");
    /** The name the test file's {@code rule_files} gives the rules taken out of the PrometheusRule. */
    static final String RULE_FILE = "prometheusrule.rules.yaml";
    static final String PROPERTY = "card-catalog.test.promtool";
    static final String MISSING = "The alert rules' tests need promtool, Prometheus's rule checker, and found none"
            + " (none on the PATH, or none at -D" + PROPERTY + "). Install it: apt-get update && apt-get install -y"
            + " prometheus (Debian and Ubuntu; the package brings /usr/bin/promtool), or put the promtool of a"
            + " Prometheus release (https://prometheus.io/download/) on the PATH, or run with -D" + PROPERTY
            + "=/path/to/promtool.";

    @Test
    void promtoolChecksTheRulesTakenOutOfThePrometheusRule() throws Exception {
        Path rules = writeRules();

        Result check = promtool("check", "rules", rules.getFileName().toString());

        assertThat(check.exit()).as("promtool check rules: %s", check.output()).isZero();
        assertThat(check.output()).contains("SUCCESS: " + MonitoringFiles.rules().size() + " rules found");
    }

    @Test
    void promtoolRunsTheRulesUnitTestsAndTheyPass() throws Exception {
        writeRules();
        Files.copy(TESTS, WORK.resolve(TESTS.getFileName()), StandardCopyOption.REPLACE_EXISTING);

        Result test = promtool("test", "rules", TESTS.getFileName().toString());

        assertThat(test.exit()).as("promtool test rules: %s", test.output()).isZero();
        assertThat(test.output()).contains("SUCCESS");
    }

    /**
     * What promtool does not check on its own: that the file tests every alert, both ways, with the labels and
     * annotations the rule gives, and the {@code for:} duration at its edge.
     */
    @Test
    @SuppressWarnings("unchecked")
    void theTestFileFiresEveryAlertWithItsLabelsAndAnnotationsAndHasACaseThatDoesNot() {
        Map<String, Object> file = yaml(TESTS);
        assertThat((List<String>) file.get("rule_files")).containsExactly(RULE_FILE);
        List<Map<String, Object>> groups = (List<Map<String, Object>>) file.get("tests");
        for (Map<String, Object> rule : MonitoringFiles.rules()) {
            String alert = (String) rule.get("alert");
            boolean fires = false;
            boolean silent = false;
            boolean forChecked = !rule.containsKey("for");
            Duration forDuration = rule.containsKey("for") ? duration((String) rule.get("for")) : Duration.ZERO;
            for (Map<String, Object> group : groups) {
                List<Duration> pending = new ArrayList<>();
                List<Duration> firing = new ArrayList<>();
                for (Map<String, Object> test : (List<Map<String, Object>>) group.getOrDefault("alert_rule_test",
                        List.of())) {
                    if (!alert.equals(test.get("alertname"))) {
                        continue;
                    }
                    List<Map<String, Object>> expected = (List<Map<String, Object>>) test.get("exp_alerts");
                    Duration at = duration(String.valueOf(test.get("eval_time")));
                    if (expected == null || expected.isEmpty()) {
                        silent = true;
                        pending.add(at);
                        continue;
                    }
                    fires = true;
                    firing.add(at);
                    for (Map<String, Object> one : expected) {
                        assertThat((Map<String, Object>) one.get("exp_labels")).as("%s's labels", alert)
                                .containsAllEntriesOf((Map<String, Object>) rule.get("labels"));
                        assertThat(((Map<String, Object>) one.get("exp_annotations")).keySet())
                                .as("%s's annotations checked", alert)
                                .containsExactlyInAnyOrderElementsOf(
                                        ((Map<String, Object>) rule.get("annotations")).keySet());
                    }
                }
                for (Duration fired : firing) {
                    forChecked |= pending.stream().anyMatch(before -> before.compareTo(fired) < 0
                            && fired.minus(before).compareTo(forDuration) < 0);
                }
            }
            assertThat(fires).as("a case that fires %s", alert).isTrue();
            assertThat(silent).as("a case where %s does not fire", alert).isTrue();
            assertThat(forChecked).as("a case where %s is still pending less than its for: %s before it fires",
                    alert, rule.get("for")).isTrue();
        }
    }

    @Test
    void promtoolsDurationsAreRead() {
        assertThat(duration("12535m")).isEqualTo(Duration.ofMinutes(12535));
        assertThat(duration("1d2h30m15s")).isEqualTo(Duration.ofDays(1).plusHours(2).plusMinutes(30).plusSeconds(15));
        assertThat(duration("1w")).isEqualTo(Duration.ofDays(7));
        assertThat(duration("500ms")).isEqualTo(Duration.ofMillis(500));
    }

    /** A Prometheus duration ({@code 1d2h30m}, units y, w, d, h, m, s, ms). */
    static Duration duration(String text) {
        Matcher part = Pattern.compile("(\\d+)(ms|y|w|d|h|m|s)").matcher(text);
        Duration total = Duration.ZERO;
        int end = 0;
        while (part.find()) {
            if (part.start() != end) {
                break;
            }
            long n = Long.parseLong(part.group(1));
            total = total.plus(switch (part.group(2)) {
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                case "d" -> Duration.ofDays(n);
                case "w" -> Duration.ofDays(7 * n);
                default -> Duration.ofDays(365 * n);
            });
            end = part.end();
        }
        if (end == 0 || end != text.length()) {
            throw new IllegalArgumentException("not a Prometheus duration: " + text);
        }
        return total;
    }

    /** The PrometheusRule's {@code spec}, a plain rule file, written to {@link #WORK}. */
    static Path writeRules() throws IOException {
        Files.createDirectories(WORK);
        Map<String, Object> spec = new LinkedHashMap<>();
        @SuppressWarnings("unchecked")
        Map<String, Object> given = (Map<String, Object>) MonitoringFiles.prometheusRule().get("spec");
        spec.putAll(given);
        DumperOptions options = new DumperOptions();
        options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        options.setSplitLines(false);
        Path rules = WORK.resolve(RULE_FILE);
        Files.writeString(rules, "# taken out of " + MonitoringFiles.RULES + " by AlertRulesTest\n"
                + new Yaml(options).dump(spec), StandardCharsets.UTF_8);
        return rules;
    }

    record Result(int exit, String output) {
    }

    /** Runs promtool in {@link #WORK}, or fails saying what to install when there is none. */
    static Result promtool(String... arguments) throws IOException, InterruptedException {
        Path promtool = find().orElse(null);
        if (promtool == null) {
            fail(MISSING);
        }
        List<String> command = new ArrayList<>();
        command.add(promtool.toString());
        command.addAll(List.of(arguments));
        Process process = new ProcessBuilder(command).directory(WORK.toFile()).redirectErrorStream(true).start();
        process.getOutputStream().close();
        byte[] output = process.getInputStream().readAllBytes();
        if (!process.waitFor(2, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            fail("promtool " + String.join(" ", arguments) + " did not end within 2 minutes");
        }
        return new Result(process.exitValue(), new String(output, StandardCharsets.UTF_8));
    }

    /** promtool: {@code -Dcard-catalog.test.promtool}, else the first on the {@code PATH}. */
    static Optional<Path> find() {
        String configured = System.getProperty(PROPERTY);
        if (configured != null && !configured.isBlank()) {
            Path path = Path.of(configured);
            return Files.isExecutable(path) ? Optional.of(path) : Optional.empty();
        }
        String path = System.getenv().getOrDefault("PATH", "");
        for (String directory : path.split(java.io.File.pathSeparator)) {
            if (!directory.isBlank() && Files.isExecutable(Path.of(directory, "promtool"))) {
                return Optional.of(Path.of(directory, "promtool"));
            }
        }
        return Optional.empty();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> yaml(Path file) {
        try (Reader reader = Files.newBufferedReader(file)) {
            return (Map<String, Object>) new Yaml().load(reader);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
