package dev.cardcatalog.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The packaged service ({@code target/quarkus-app/quarkus-run.jar}) run as its own process, as in production:
 * for the local run, the benchmarks, and tests that need several instances or a killed process.
 */
public final class ServiceProcess implements AutoCloseable {

    private final Process process;
    private final int port;
    private final int managementPort;
    private final Path log;

    private ServiceProcess(Process process, int port, int managementPort, Path log) {
        this.process = process;
        this.port = port;
        this.managementPort = managementPort;
        this.log = log;
    }

    /** The runner jar built by {@code ./mvnw package}. */
    public static Path runnerJar() {
        String configured = System.getProperty("app.runner");
        Path jar = configured != null ? Path.of(configured) : Path.of("target/quarkus-app/quarkus-run.jar");
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar + " is missing: build the service first (./mvnw package)");
        }
        return jar;
    }

    /** The configuration that points a service at the embedded servers and the stand-in. */
    public static Map<String, String> infrastructure(EmbeddedPostgresServer postgres, EmbeddedKafkaBroker kafka,
            ScryfallStandIn standIn) {
        Map<String, String> config = new LinkedHashMap<>();
        config.put("quarkus.datasource.jdbc.url", postgres.jdbcUrl());
        config.put("quarkus.datasource.reactive.url", postgres.reactiveUrl());
        config.put("quarkus.datasource.username", EmbeddedPostgresServer.USER);
        config.put("quarkus.datasource.password", EmbeddedPostgresServer.PASSWORD);
        config.put("kafka.bootstrap.servers", kafka.bootstrapServers());
        if (standIn != null) {
            config.put("quarkus.rest-client.scryfall.url", standIn.baseUrl());
            config.put("card-catalog.scryfall.image-base-url-override", standIn.baseUrl());
            // the stand-in answers at once: an attempt still going after 45 s is a stall, stopped, named in the log
            // and retried well within the 120 s a test waits for a run to move (Jobs)
            config.put("card-catalog.scryfall.attempt-timeout", "45s");
        }
        return config;
    }

    /** {@link #start(int, List, Map, Map, Path, Duration)} without environment variables of its own. */
    public static ServiceProcess start(int port, List<String> jvmOptions, Map<String, String> config, Path log,
            Duration readyWithin) {
        return start(port, jvmOptions, config, Map.of(), log, readyWithin);
    }

    /**
     * Starts the service and waits until {@code /q/health/ready} answers 200 on its management interface. Unless
     * {@code config} sets {@code quarkus.management.port}, the management interface gets a free port of its own,
     * so that several instances run side by side.
     *
     * <p>A free port is one nothing listened on a moment before the service binds it: another process (another test
     * JVM's service, a client's ephemeral port) can take it meanwhile. A start that fails that way, with ports chosen
     * here, is tried again on other free ports, up to {@value #PORT_ATTEMPTS} times; a port the caller names is not.
     *
     * @param port the HTTP port, 0 for a free one
     * @param jvmOptions e.g. {@code -Xmx256m}
     * @param config Quarkus and card-catalog properties, passed as system properties
     * @param environment environment variables added to this process's, as a Kubernetes Secret supplies them (the
     *                    users' passwords: not on the command line)
     * @param log where the service's output goes; null to inherit this process's
     * @throws IllegalStateException when the service exits before it is ready, or its start stands still for
     *     {@code readyWithin}
     */
    public static ServiceProcess start(int port, List<String> jvmOptions, Map<String, String> config,
            Map<String, String> environment, Path log, Duration readyWithin) {
        for (int attempt = 1; ; attempt++) {
            int httpPort = port > 0 ? port : freePort();
            int managementPort = config.containsKey("quarkus.management.port")
                    ? Integer.parseInt(config.get("quarkus.management.port")) : freePort();
            long logged = sizeOf(log);
            try {
                return startOnce(httpPort, managementPort, jvmOptions, config, environment, log, readyWithin);
            } catch (IllegalStateException e) {
                Integer taken = portTaken(log, logged);
                boolean chosenHere = taken != null && (taken == httpPort && port == 0
                        || taken == managementPort && !config.containsKey("quarkus.management.port"));
                if (!chosenHere || attempt == PORT_ATTEMPTS) {
                    throw e;
                }
            }
        }
    }

    /** How many times {@link #start} tries free ports when one was taken before the service bound it. */
    private static final int PORT_ATTEMPTS = 5;

    /**
     * The port the service's log, after {@code from} bytes, says was in use when it started (Quarkus's words: "Port
     * N seems to be in use by another process"), or null when it says none was.
     */
    static Integer portTaken(Path log, long from) {
        if (log == null) {
            return null;
        }
        try {
            byte[] all = Files.readAllBytes(log);
            int start = (int) Math.min(from, all.length);
            String added = new String(all, start, all.length - start, java.nio.charset.StandardCharsets.UTF_8);
            java.util.regex.Matcher said = java.util.regex.Pattern
                    .compile("Port (\\d+) seems to be in use by another process").matcher(added);
            return said.find() ? Integer.valueOf(said.group(1)) : null;
        } catch (IOException e) {
            return null;
        }
    }

    /** The length of {@code log}, or 0 when there is none (null, not yet written, or unreadable). */
    private static long sizeOf(Path log) {
        try {
            return log != null && Files.exists(log) ? Files.size(log) : 0;
        } catch (IOException e) {
            return 0;
        }
    }

    private static ServiceProcess startOnce(int httpPort, int managementPort, List<String> jvmOptions,
            Map<String, String> config, Map<String, String> environment, Path log, Duration readyWithin) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        Map<String, String> all = new LinkedHashMap<>(config);
        all.put("quarkus.http.port", String.valueOf(httpPort));
        all.put("quarkus.management.port", String.valueOf(managementPort));
        // SmallRye Health logs every DOWN readiness at INFO (SRHCK01001, the whole report): awaitReady's probes, five
        // a second through a warm-up, would fill the log and make it grow, which awaitReady reads as the start moving
        all.putIfAbsent("quarkus.log.category.\"io.smallrye.health\".level", "WARN");
        all.forEach((key, value) -> command.add("-D" + key + "=" + value));
        command.add("-jar");
        command.add(runnerJar().toString());
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(environment);
        if (log == null) {
            builder.inheritIO();
        } else {
            builder.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        }
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("could not start the service", e);
        }
        ServiceProcess service = new ServiceProcess(process, httpPort, managementPort, log);
        service.awaitReady(readyWithin);
        return service;
    }

    /**
     * Waits until the service is ready. {@code within} bounds how long its start may stand still, not how long it
     * may take: while its log grows (it is starting, however slowly on a loaded machine) the wait goes on, for
     * {@value #CEILING_MINUTES} minutes at most. Without a log file, {@code within} bounds the whole wait.
     */
    private void awaitReady(Duration within) {
        long start = System.nanoTime();
        long movedAt = start;
        long logged = logSize();
        while (System.nanoTime() - movedAt < within.toNanos()
                && System.nanoTime() - start < Duration.ofMinutes(CEILING_MINUTES).toNanos()) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the service exited with " + process.exitValue()
                        + (log == null ? "" : "; see " + log));
            }
            if (statusOf(managementUrl() + "/health/ready") == 200) {
                return;
            }
            long size = logSize();
            if (size != logged) {
                logged = size;
                movedAt = System.nanoTime();
            }
            sleep(200);
        }
        process.destroyForcibly();
        throw new IllegalStateException("the service was not ready: its start stood still for " + within
                + (log == null ? "" : "; see " + log));
    }

    /** The longest a start may take, however steadily its log grows. */
    private static final long CEILING_MINUTES = 10;

    /** The length of the service's log file, or 0 when it has none. */
    private long logSize() {
        return sizeOf(log);
    }

    /** The HTTP status of a GET of {@code path} on the HTTP port, or -1 when nothing answers. */
    public int status(String path) {
        return statusOf(baseUrl() + path);
    }

    private static int statusOf(String url) {
        try {
            HttpURLConnection connection = (HttpURLConnection) URI.create(url).toURL().openConnection();
            connection.setConnectTimeout(1000);
            connection.setReadTimeout(5000);
            int status = connection.getResponseCode();
            connection.disconnect();
            return status;
        } catch (IOException e) {
            return -1;
        }
    }

    public String baseUrl() {
        return "http://localhost:" + port;
    }

    public int port() {
        return port;
    }

    /** The management interface's root: health at {@code /health/ready}, metrics at {@code /metrics}. */
    public String managementUrl() {
        return "http://localhost:" + managementPort + "/q";
    }

    /**
     * The last {@code lines} lines of the service's output that matter when a test fails (WARN, ERROR, the
     * service's own INFO lines and Kafka's partition assignments where logged), joined into one line with
     * {@code " | "} so that a failure's one-line message carries them; empty when the output is not kept in a file.
     */
    public String logDigest(int lines) {
        if (log == null || !Files.isRegularFile(log)) {
            return "";
        }
        try (java.util.stream.Stream<String> all = Files.lines(log, java.nio.charset.StandardCharsets.UTF_8)) {
            List<String> kept = all
                    .filter(line -> line.contains(" WARN ") || line.contains(" ERROR ")
                            || line.contains("[dev.cardcatalog.") || line.contains("assigned partitions"))
                    // the broker's answers before the topics exist, at every start
                    .filter(line -> !line.contains("reported a recoverable issue"))
                    .map(ServiceProcess::shortened)
                    .toList();
            return String.join(" | ", kept.subList(Math.max(0, kept.size() - lines), kept.size()));
        } catch (IOException | java.io.UncheckedIOException e) {
            return "(output unreadable: " + e.getMessage() + ")";
        }
    }

    /** A log line without its date and logger package, at most 200 characters. */
    private static String shortened(String line) {
        String shorter = line.replaceFirst("^\\d{4}-\\d{2}-\\d{2} ", "")
                .replaceFirst("\\[(?:[a-z0-9_]+\\.)+([A-Za-z0-9_$]+)\\]", "[$1]")
                .replaceFirst("\\[Consumer clientId=([^,\\]]+), groupId=[^\\]]+\\] ", "[$1] ");
        return shorter.length() > 200 ? shorter.substring(0, 200) + "…" : shorter;
    }

    public long pid() {
        return process.pid();
    }

    public Process process() {
        return process;
    }

    /** Kills the process at once (SIGKILL), as a crash would. */
    public void kill() {
        process.destroyForcibly();
        waitFor();
    }

    /** Stops the process gracefully (SIGTERM). */
    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroy();
            waitFor();
        }
    }

    private void waitFor() {
        try {
            if (!process.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
