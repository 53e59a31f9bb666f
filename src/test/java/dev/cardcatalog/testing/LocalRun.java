package dev.cardcatalog.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The local run ({@code ./mvnw -Plocal package}): a real PostgreSQL and a real KRaft Kafka broker started embedded
 * in this process, the Scryfall stand-in serving the bundled real data (unless {@code -Dlocal.scryfall=real}), and
 * the packaged service in a process of its own pointed at them. Ctrl-C stops everything. The service has one user,
 * {@code operator}, with a password generated for this run and printed once the service is ready.
 *
 * <p>Properties: {@code local.port} (8080), {@code local.dir} ({@code .local}: the database, the broker's log and
 * the service's data directory), {@code local.scryfall} ({@code stand-in} or {@code real}), {@code local.jvm-options}
 * (for the service, e.g. {@code -Xmx256m}).
 */
public final class LocalRun {

    private LocalRun() {
    }

    public static void main(String[] args) throws Exception {
        int port = Integer.getInteger("local.port", 8080);
        Path dir = Path.of(System.getProperty("local.dir", ".local")).toAbsolutePath();
        boolean real = "real".equals(System.getProperty("local.scryfall", "stand-in"));
        String jvmOptions = System.getProperty("local.jvm-options", "");
        Files.createDirectories(dir);

        System.out.println("Starting PostgreSQL (data in " + dir.resolve("postgres") + ") ...");
        EmbeddedPostgresServer postgres = EmbeddedPostgresServer.start(dir.resolve("postgres"), 0);
        // One hook stops everything, the last started first: the service before the database it hands runs back to.
        java.util.Deque<AutoCloseable> started = new java.util.concurrent.ConcurrentLinkedDeque<>();
        started.push(postgres);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> started.forEach(LocalRun::closeQuietly),
                "local-run-stop"));
        System.out.println("Starting Kafka ...");
        Path kafkaDir = dir.resolve("kafka");
        TestData.deleteTree(kafkaDir);
        EmbeddedKafkaBroker kafka = EmbeddedKafkaBroker.start(kafkaDir);
        started.push(kafka);
        ScryfallStandIn standIn = null;
        if (!real) {
            System.out.println("Starting the Scryfall stand-in ...");
            standIn = ScryfallStandIn.start(Integer.getInteger("local.stand-in.port", 0));
            started.push(standIn);
        }
        Map<String, String> config = ServiceProcess.infrastructure(postgres, kafka, standIn);
        config.put("card-catalog.data-dir", dir.resolve("data").toString());
        if (!real) {
            // the bundled sample also links images on Scryfall's older host; the stand-in serves both
            config.put("card-catalog.art.image-hosts", "cards.scryfall.io,c1.scryfall.com");
        }
        List<String> options = jvmOptions.isBlank() ? List.of() : List.of(jvmOptions.trim().split("\\s+"));
        // the operator's password is passed as an environment variable, as a Secret would, not on the command line
        String password = generatedPassword();
        Map<String, String> users = Map.of("QUARKUS_SECURITY_USERS_EMBEDDED_USERS_OPERATOR", password,
                "QUARKUS_SECURITY_USERS_EMBEDDED_ROLES_OPERATOR", "operator");

        System.out.println("Starting card-catalog ...");
        ServiceProcess service = ServiceProcess.start(port, options, config, users, null, Duration.ofMinutes(3));
        started.push(service);

        System.out.println();
        System.out.println("card-catalog is running at " + service.baseUrl());
        System.out.println("  Scryfall:   " + (real ? "https://api.scryfall.com (real)" : standIn.baseUrl()
                + " (the stand-in, serving the bundled sample)"));
        System.out.println("  PostgreSQL: " + postgres.jdbcUrl() + " (user postgres, password postgres)");
        System.out.println("  Kafka:      " + kafka.bootstrapServers());
        System.out.println("  Health, metrics, OpenAPI: " + service.managementUrl() + "/health, /metrics, /openapi");
        System.out.println();
        System.out.println("Operator user:    operator");
        System.out.println("Its password:     " + password + "   (generated for this run)");
        System.out.println();
        System.out.println("Start a refresh:  curl -i -u operator:" + password + " -X POST " + service.baseUrl()
                + "/api/refreshes");
        System.out.println("Watch it:         curl -u operator:" + password + " " + service.baseUrl()
                + "/api/jobs/<id from the answer>");
        System.out.println("Match a photo:    curl -X POST -H 'Content-Type: image/jpeg' --data-binary "
                + "@docs/examples/photo-of-a-card.jpg " + service.baseUrl() + "/api/art-index/matches");
        if (standIn != null) {
            System.out.println("A card picture:   curl -o card.jpg " + standIn.baseUrl() + "/small/front/9/8/"
                    + "98a9ef61-1c6d-49d1-b185-2b022482b442.jpg (any card id works)");
        }
        System.out.println("Stop with Ctrl-C.");
        System.exit(service.process().waitFor());
    }

    /** 24 random characters from the URL-safe Base64 alphabet (144 bits). */
    private static String generatedPassword() {
        byte[] random = new byte[18];
        new java.security.SecureRandom().nextBytes(random);
        return java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(random);
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception ignored) {
            // stopping anyway
        }
    }
}
