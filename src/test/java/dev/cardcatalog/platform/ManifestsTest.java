package dev.cardcatalog.platform;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.cardcatalog.testing.DeployedJvm;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * The Kubernetes manifests in {@code deploy/} (SERVICE.md §9), read as YAML and checked for what an operator relies
 * on: the CronJob's schedule, policy, trigger, credentials and at most 3 POSTs (its script is run against a local
 * HTTP server with the real curl); every environment variable of the Deployment a documented configuration key;
 * every Secret key one the example Secret has; probes on the management port at paths the service serves; the
 * management port not offered to clients; the monitoring overlay built on the base, the base free of the Prometheus
 * Operator's kinds, and a PodDisruptionBudget that keeps one replica. Kustomize's own rules that a reading of the YAML
 * can check are checked too (every file named exists; an overlay never names a directory that contains it), so that
 * {@code kubectl kustomize deploy/} and {@code kubectl kustomize deploy/monitoring/} render without kubectl in CI.
 */
class ManifestsTest {

    /** The base, which {@code deploy/kustomization.yaml} applies and {@code deploy/monitoring/} builds on. */
    private static final Path DEPLOY = Path.of("deploy/base");
    private static final Path MONITORING = Path.of("deploy/monitoring");
    /** The health paths the service serves on its management interface (checked in AccessRulesTest). */
    private static final Set<String> HEALTH_PATHS = Set.of("/q/health/live", "/q/health/ready", "/q/health/started");

    @Test
    void theBaseHoldsNoSecretSoApplyingItNeverReplacesTheRealOne() {
        List<String> resources = list(kustomization().get("resources"));
        assertThat(resources).doesNotContain("secret.example.yaml");
        for (String resource : resources) {
            assertThat(DEPLOY.resolve(resource)).as(resource).isRegularFile();
            assertThat(documents(resource)).as(resource).noneMatch(d -> "Secret".equals(d.get("kind")));
        }
        assertThat(kustomization()).doesNotContainKey("secretGenerator");
    }

    @Test
    void deployAppliesTheBaseAndTheMonitoringOverlayBuildsOnItWithItsRulesDashboardAndPodMonitor() throws IOException {
        Map<String, Object> top = yaml(Path.of("deploy/kustomization.yaml")).get(0);
        assertThat(list(top.get("resources"))).containsExactly("base");

        Map<String, Object> overlay = yaml(MONITORING.resolve("kustomization.yaml")).get(0);
        List<String> resources = list(overlay.get("resources"));
        assertThat(resources).contains("../base", "prometheusrule.yaml", "podmonitor.yaml");
        for (String resource : resources) {
            Path path = MONITORING.resolve(resource).normalize();
            // kustomize refuses a resource directory that contains the overlay ("cycle detected"), and a file
            // outside the overlay's directory (its load restrictor)
            assertThat(MONITORING.toAbsolutePath().normalize().startsWith(path.toAbsolutePath())).as(resource).isFalse();
            if (resource.endsWith(".yaml")) {
                assertThat(path).as(resource).isRegularFile().startsWith(MONITORING);
            } else {
                assertThat(path.resolve("kustomization.yaml")).as(resource).isRegularFile();
            }
        }
        Map<String, Object> generator = map(list(overlay.get("configMapGenerator")).get(0));
        String dashboard = (String) list(generator.get("files")).get(0);
        assertThat(MONITORING.resolve(dashboard)).isRegularFile();
        assertThat(map(map(generator.get("options")).get("labels"))).containsEntry("grafana_dashboard", "1");

        Map<String, Object> rule = yaml(MONITORING.resolve("prometheusrule.yaml")).get(0);
        assertThat(rule.get("apiVersion")).isEqualTo("monitoring.coreos.com/v1");
        assertThat(rule.get("kind")).isEqualTo("PrometheusRule");
        Map<String, Object> monitor = yaml(MONITORING.resolve("podmonitor.yaml")).get(0);
        assertThat(monitor.get("kind")).isEqualTo("PodMonitor");
        Map<String, Object> endpoint = map(list(map(monitor.get("spec")).get("podMetricsEndpoints")).get(0));
        assertThat(endpoint.get("port")).isEqualTo("management");
        assertThat(endpoint.get("path")).isEqualTo("/q/metrics");
        assertThat(map(map(map(monitor.get("spec")).get("selector")).get("matchLabels")))
                .isEqualTo(map(map(map(only("deployment.yaml", "Deployment").get("spec")).get("selector"))
                        .get("matchLabels")));
    }

    @Test
    void theBaseHoldsNoPrometheusOperatorKindAndKeepsOneReplicaThroughADisruption() {
        List<String> baseResources = list(kustomization().get("resources"));
        for (String resource : baseResources) {
            assertThat(documents(resource)).as(resource)
                    .noneMatch(d -> String.valueOf(d.get("apiVersion")).startsWith("monitoring.coreos.com/"));
        }
        Map<String, Object> budget = only("poddisruptionbudget.yaml", "PodDisruptionBudget");
        assertThat(budget.get("apiVersion")).isEqualTo("policy/v1");
        Map<String, Object> spec = map(budget.get("spec"));
        assertThat(spec.get("minAvailable")).isEqualTo(1);
        assertThat(spec).doesNotContainKey("maxUnavailable");
        Map<String, Object> deployment = map(only("deployment.yaml", "Deployment").get("spec"));
        assertThat(map(spec.get("selector")).get("matchLabels"))
                .isEqualTo(map(deployment.get("selector")).get("matchLabels"));
        assertThat((Integer) deployment.get("replicas")).isGreaterThan((Integer) spec.get("minAvailable"));
        assertThat(list(kustomization().get("resources"))).contains("poddisruptionbudget.yaml");
    }

    @Test
    void theWeeklyCronJobRunsMondayAt0315UtcOneAtATimeWithoutRetriesOfItsOwn() {
        Map<String, Object> spec = map(only("cronjob-weekly-refresh.yaml", "CronJob").get("spec"));
        assertThat(spec.get("schedule")).isEqualTo("15 3 * * 1");
        assertThat(spec.get("timeZone")).isEqualTo("Etc/UTC");
        assertThat(spec.get("concurrencyPolicy")).isEqualTo("Forbid");
        Map<String, Object> job = map(map(spec.get("jobTemplate")).get("spec"));
        assertThat(job.get("backoffLimit")).isEqualTo(0);
        Map<String, Object> pod = map(map(job.get("template")).get("spec"));
        assertThat(pod.get("restartPolicy")).isEqualTo("Never");
        Map<String, Object> container = map(list(pod.get("containers")).get(0));
        assertThat(String.join(" ", list(container.get("args")))).doesNotContain("--retry")
                .contains("{\"trigger\":\"scheduled\"}");
        Map<String, Object> password = env(container).get("REFRESH_PASSWORD");
        Map<String, Object> secretRef = map(map(password.get("valueFrom")).get("secretKeyRef"));
        assertThat(secretRef.get("name")).isEqualTo("card-catalog");
        assertThat(secretRef.get("key")).isEqualTo("QUARKUS_SECURITY_USERS_EMBEDDED_USERS_OPERATOR");
        assertThat(value(env(container).get("REFRESH_USER"))).isEqualTo("operator");
    }

    @Test
    void theCronJobTreats202And409AsSuccessAndPostsAtMostThreeTimesOnlyAfterNoAnswerOrA5xx() throws Exception {
        assertThat(runCronJob(503, 503, 503, 503, 503)).isEqualTo(new Run(3, 1));
        assertThat(runCronJob(-1, -1, -1, -1)).isEqualTo(new Run(3, 1)); // the connection closed without an answer
        assertThat(runCronJob(202)).isEqualTo(new Run(1, 0));
        assertThat(runCronJob(409)).isEqualTo(new Run(1, 0));
        assertThat(runCronJob(503, -1, 202)).isEqualTo(new Run(3, 0));
        assertThat(runCronJob(502, 409)).isEqualTo(new Run(2, 0));
        assertThat(runCronJob(401, 202)).isEqualTo(new Run(1, 1));
        assertThat(runCronJob(400, 202)).isEqualTo(new Run(1, 1));
    }

    @Test
    void everyEnvironmentVariableOfTheServiceIsADocumentedConfigurationKey() throws IOException {
        List<Pattern> documented = documentedEnvironmentNames();
        Map<String, Object> container = serviceContainer();
        Set<String> names = new HashSet<>(env(container).keySet());
        names.addAll(map(only("configmap.yaml", "ConfigMap").get("data")).keySet());
        names.addAll(exampleSecretKeys());
        assertThat(names).isNotEmpty().allSatisfy(name -> assertThat(documented)
                .as("%s is not a key documented in docs/configuration.md", name)
                .anyMatch(p -> p.matcher(name).matches()));
        // envFrom names exactly the ConfigMap and the Secret
        assertThat(list(container.get("envFrom")).stream().map(ManifestsTest::map)
                .map(from -> map(from.getOrDefault("configMapRef", from.get("secretRef"))).get("name")))
                .containsOnly("card-catalog");
    }

    @Test
    void everySecretKeyReferenceNamesAKeyOfTheDocumentedSecret() {
        Set<String> keys = exampleSecretKeys();
        List<Map<String, Object>> references = new ArrayList<>();
        for (String file : List.of("deployment.yaml", "cronjob-weekly-refresh.yaml")) {
            documents(file).forEach(d -> collect(d, "secretKeyRef", references));
        }
        assertThat(references).isNotEmpty().allSatisfy(ref -> {
            assertThat(ref.get("name")).isEqualTo("card-catalog");
            assertThat(keys).contains((String) ref.get("key"));
        });
    }

    @Test
    void theDeploymentRunsTwoReplicasNonRootReadOnlyAndProbesTheManagementPort() throws IOException {
        Map<String, Object> deployment = only("deployment.yaml", "Deployment");
        Map<String, Object> spec = map(deployment.get("spec"));
        assertThat(spec.get("replicas")).isEqualTo(2);
        Map<String, Object> pod = map(map(spec.get("template")).get("spec"));
        assertThat(map(pod.get("securityContext")).get("runAsNonRoot")).isEqualTo(true);
        Map<String, Object> container = serviceContainer();
        assertThat(map(container.get("securityContext")).get("readOnlyRootFilesystem")).isEqualTo(true);
        assertThat(map(map(container.get("resources")).get("requests"))).containsKeys("cpu", "memory");
        assertThat(map(map(container.get("resources")).get("limits"))).containsKey("memory");

        Map<String, Integer> ports = new LinkedHashMap<>();
        list(container.get("ports")).stream().map(ManifestsTest::map)
                .forEach(p -> ports.put((String) p.get("name"), (Integer) p.get("containerPort")));
        assertThat(ports).containsEntry("http", Integer.parseInt(property("quarkus.http.port")))
                .containsEntry("management", Integer.parseInt(property("quarkus.management.port")));
        for (String probe : List.of("readinessProbe", "livenessProbe", "startupProbe")) {
            Map<String, Object> get = map(map(container.get(probe)).get("httpGet"));
            assertThat(get.get("port")).as(probe).isEqualTo("management");
            assertThat(HEALTH_PATHS).as(probe).contains((String) get.get("path"));
        }
        assertThat(map(container.get("readinessProbe")).toString()).contains("/q/health/ready");
        assertThat(map(container.get("livenessProbe")).toString()).contains("/q/health/live");

        // writable volumes where the service writes: its data directory and /tmp
        List<String> mounts = list(container.get("volumeMounts")).stream()
                .map(m -> (String) map(m).get("mountPath")).toList();
        String dataDir = (String) map(only("configmap.yaml", "ConfigMap").get("data")).get("CARD_CATALOG_DATA_DIR");
        assertThat(mounts).contains(dataDir, "/tmp");

        // the JVM options the image sets are kept when the Deployment sets its own
        Matcher image = Pattern.compile("ENV JAVA_OPTS_APPEND=\"([^\"]*)\"")
                .matcher(Files.readString(Path.of("src/main/docker/Dockerfile.jvm")));
        assertThat(image.find()).isTrue();
        String options = value(env(container).get("JAVA_OPTS_APPEND"));
        assertThat(List.of(options.split("\\s+"))).containsAll(List.of(image.group(1).split("\\s+")));
        // JavaCPP extracts the native JPEG decoder to its cache directory: on a writable volume, not ~/.javacpp
        Matcher cache = Pattern.compile("-Dorg\\.bytedeco\\.javacpp\\.cachedir=(\\S+)").matcher(options);
        assertThat(cache.find()).as("the JavaCPP cache directory is set").isTrue();
        assertThat(mounts).anySatisfy(mount -> assertThat(cache.group(1)).startsWith(mount + "/"));
        // a few malloc arenas, in the image and the Deployment: a native decode's memory is reused, not kept in an
        // arena per thread (the hostile mix grew the process past the memory limit without it)
        assertThat(value(env(container).get("MALLOC_ARENA_MAX"))).isEqualTo("2");
        assertThat(Files.readString(Path.of("src/main/docker/Dockerfile.jvm"))).contains("ENV MALLOC_ARENA_MAX=2");
        // the heap, the collector and its survivor spaces as measured (docs/benchmarks.md, issue 24), and the match
        // benchmark runs the service with them
        List<String> deployed = List.of(options.split("\\s+"));
        assertThat(deployed).containsAll(DeployedJvm.options(DeployedJvm.HEAP));
        Matcher bench = Pattern.compile("(?m)^JVM_OPTIONS=\"([^\"]*)\"")
                .matcher(Files.readString(Path.of("bench/match-http-bench.sh")));
        assertThat(bench.find()).as("bench/match-http-bench.sh's default JVM options").isTrue();
        assertThat(deployed).containsAll(List.of(bench.group(1).split("\\s+")));
    }

    @Test
    void clientsReachOnlyTheHttpPortAndOnlyPrometheusTheManagementPort() throws IOException {
        int http = Integer.parseInt(property("quarkus.http.port"));
        int management = Integer.parseInt(property("quarkus.management.port"));
        Map<String, Object> service = only("service.yaml", "Service");
        assertThat(list(map(service.get("spec")).get("ports"))).hasSize(1).allSatisfy(port -> {
            assertThat(map(port).get("targetPort")).isEqualTo("http");
        });

        Map<String, Object> policy = map(only("networkpolicy.yaml", "NetworkPolicy").get("spec"));
        assertThat(map(map(policy.get("podSelector")).get("matchLabels")))
                .containsEntry("app.kubernetes.io/name", "card-catalog");
        assertThat(list(policy.get("policyTypes"))).contains("Ingress");
        boolean httpOpen = false;
        boolean managementForPrometheus = false;
        for (Object item : list(policy.get("ingress"))) {
            Map<String, Object> rule = map(item);
            assertThat(rule).as("an ingress rule without ports opens every port").containsKey("ports");
            Set<Object> rulePorts = new HashSet<>();
            list(rule.get("ports")).forEach(p -> rulePorts.add(map(p).get("port")));
            if (rulePorts.contains(management)) {
                assertThat(rule).as("the management port is open to some sources only").containsKey("from");
                assertThat(rule.get("from").toString()).contains("prometheus");
                managementForPrometheus = true;
            }
            assertThat(rulePorts).as("only the two ports").isSubsetOf(http, management);
            httpOpen |= rulePorts.contains(http) && !rule.containsKey("from");
        }
        assertThat(httpOpen).as("clients reach the HTTP port").isTrue();
        assertThat(managementForPrometheus).as("Prometheus reaches the management port").isTrue();
    }

    // ---- the CronJob's script, run ------------------------------------------------------------------------------

    /** How many POSTs reached the server, and the script's exit code. */
    record Run(int posts, int exitCode) {
    }

    /**
     * Runs the CronJob's container command with /bin/sh and the real curl against a local server that answers the
     * POSTs with {@code statuses} in turn ({@code -1}: close the connection without an answer), the CronJob's own
     * environment but the URL, the password and the delay between POSTs; {@code MAX_POSTS} is set higher than the
     * manifest's, to show that the script's own bound of 3 holds.
     */
    private Run runCronJob(int... statuses) throws Exception {
        Map<String, Object> container = map(list(map(map(map(map(map(only("cronjob-weekly-refresh.yaml", "CronJob")
                .get("spec")).get("jobTemplate")).get("spec")).get("template")).get("spec")).get("containers")).get(0));
        AtomicInteger posts = new AtomicInteger();
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        String password = "weekly \"pass\\word\" 1";
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            int n = posts.getAndIncrement();
            check(exchange, password, failures);
            int status = n < statuses.length ? statuses[n] : 500;
            if (status < 0) {
                exchange.close(); // no answer at all
                return;
            }
            byte[] body = ("{\"status\":" + status + "}").getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        try {
            List<String> command = new ArrayList<>(list(container.get("command")));
            command.addAll(list(container.get("args")));
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
            Map<String, String> environment = builder.environment();
            env(container).forEach((name, variable) -> {
                if (variable.containsKey("value")) {
                    environment.put(name, value(variable));
                }
            });
            environment.put("CARD_CATALOG_URL", "http://127.0.0.1:" + server.getAddress().getPort());
            environment.put("REFRESH_PASSWORD", password);
            environment.put("RETRY_DELAY_SECONDS", "0");
            environment.put("MAX_POSTS", "10");
            Process process = builder.start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(process.waitFor(60, TimeUnit.SECONDS)).as(output).isTrue();
            assertThat(failures).as(output).isEmpty();
            return new Run(posts.get(), process.exitValue());
        } finally {
            server.stop(0);
        }
    }

    private static void check(HttpExchange exchange, String password, ConcurrentLinkedQueue<String> failures)
            throws IOException {
        String expectedAuthorization = "Basic " + Base64.getEncoder()
                .encodeToString(("operator:" + password).getBytes(StandardCharsets.UTF_8));
        try (InputStream in = exchange.getRequestBody()) {
            String body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            if (!exchange.getRequestMethod().equals("POST") || !exchange.getRequestURI().getPath()
                    .equals("/api/refreshes")) {
                failures.add(exchange.getRequestMethod() + " " + exchange.getRequestURI());
            }
            if (!expectedAuthorization.equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
                failures.add("Authorization " + exchange.getRequestHeaders().getFirst("Authorization"));
            }
            if (!"application/json".equals(exchange.getRequestHeaders().getFirst("Content-Type"))
                    || !body.equals("{\"trigger\":\"scheduled\"}")) {
                failures.add("body " + body);
            }
        }
    }

    // ---- reading ----------------------------------------------------------------------------------------------

    private static Map<String, Object> serviceContainer() {
        Map<String, Object> pod = map(map(map(only("deployment.yaml", "Deployment").get("spec")).get("template"))
                .get("spec"));
        return map(list(pod.get("containers")).get(0));
    }

    private static Set<String> exampleSecretKeys() {
        Map<String, Object> secret = only("secret.example.yaml", "Secret");
        assertThat(map(secret.get("metadata")).get("name")).isEqualTo("card-catalog");
        return map(secret.get("stringData")).keySet();
    }

    /**
     * The environment variable names of the keys documented in docs/configuration.md, by MicroProfile Config's rule
     * (every character that is not a letter or a digit becomes {@code _}, in upper case): absolute keys in backticks,
     * keys relative to a section's {@code prefix.*}, and variable names the document names as they are. A
     * {@code <placeholder>} stands for any name.
     */
    private static List<Pattern> documentedEnvironmentNames() throws IOException {
        List<Pattern> names = new ArrayList<>();
        String prefix = null;
        Pattern key = Pattern.compile("`([A-Za-z0-9_.<>\"-]+)`");
        Pattern sectionPrefix = Pattern.compile("^#+ .*\\(`([a-z0-9.-]+)\\.\\*`");
        for (String line : Files.readAllLines(Path.of("docs/configuration.md"))) {
            Matcher section = sectionPrefix.matcher(line);
            if (line.startsWith("#")) {
                prefix = section.find() ? section.group(1) : null;
            }
            boolean firstCell = line.startsWith("| `");
            Matcher keys = key.matcher(line);
            while (keys.find()) {
                String found = keys.group(1);
                if (found.matches("[A-Z][A-Z0-9_]*")) {
                    names.add(Pattern.compile(Pattern.quote(found)));
                } else if (found.matches("(quarkus|card-catalog|kafka|mp)\\..*")) {
                    names.add(environmentName(found));
                } else if (firstCell && prefix != null && found.matches("[a-z0-9<>-]+(\\.[a-z0-9<>-]+)*")) {
                    names.add(environmentName(prefix + "." + found));
                }
                firstCell = false;
            }
        }
        return names;
    }

    private static Pattern environmentName(String property) {
        StringBuilder pattern = new StringBuilder();
        for (String part : property.split("(?=<)|(?<=>)")) {
            pattern.append(part.startsWith("<") ? "[A-Z0-9_]+"
                    : Pattern.quote(part.replaceAll("[^A-Za-z0-9]", "_").toUpperCase(java.util.Locale.ROOT)));
        }
        return Pattern.compile(pattern.toString());
    }

    private static String property(String name) throws IOException {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(Path.of("src/main/resources/application.properties"))) {
            properties.load(reader);
        }
        return properties.getProperty(name);
    }

    private static Map<String, Object> kustomization() {
        return documents("kustomization.yaml").get(0);
    }

    private static Map<String, Object> only(String file, String kind) {
        List<Map<String, Object>> found = documents(file).stream().filter(d -> kind.equals(d.get("kind"))).toList();
        assertThat(found).as("one %s in %s", kind, file).hasSize(1);
        return found.get(0);
    }

    private static List<Map<String, Object>> documents(String file) {
        return yaml(DEPLOY.resolve(file));
    }

    static List<Map<String, Object>> yaml(Path file) {
        try (Reader reader = Files.newBufferedReader(file)) {
            List<Map<String, Object>> documents = new ArrayList<>();
            new Yaml().loadAll(reader).forEach(d -> {
                if (d != null) {
                    documents.add(map(d));
                }
            });
            return documents;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A container's {@code env}, by name. */
    private static Map<String, Map<String, Object>> env(Map<String, Object> container) {
        Map<String, Map<String, Object>> env = new LinkedHashMap<>();
        if (container.get("env") != null) {
            list(container.get("env")).forEach(e -> env.put((String) map(e).get("name"), map(e)));
        }
        return env;
    }

    private static String value(Map<String, Object> variable) {
        return String.valueOf(variable.get("value"));
    }

    private static void collect(Object node, String name, List<Map<String, Object>> found) {
        if (node instanceof Map<?, ?> m) {
            m.forEach((k, v) -> {
                if (name.equals(k)) {
                    found.add(map(v));
                } else {
                    collect(v, name, found);
                }
            });
        } else if (node instanceof List<?> l) {
            l.forEach(item -> collect(item, name, found));
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object node) {
        assertThat(node).isInstanceOf(Map.class);
        return (Map<String, Object>) node;
    }

    @SuppressWarnings("unchecked")
    private static <T> List<T> list(Object node) {
        assertThat(node).isInstanceOf(List.class);
        return (List<T>) node;
    }
}
