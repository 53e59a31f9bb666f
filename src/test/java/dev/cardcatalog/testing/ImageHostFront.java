package dev.cardcatalog.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * Scryfall's image hosts as a browser under test reaches them: an HTTPS server on a free local port answering each
 * GET with what the {@link ScryfallStandIn} answers at the same path (its generated {@code small} images, the
 * pictures the art index was built from). A page loads {@code https://cards.scryfall.io/...} as in production, under
 * its real Content-Security-Policy; a {@link Browser} started with {@link Browser#start(Path, java.util.Map)} resolves
 * the hosts to this server and accepts its certificate, a self-signed one that the JDK's own {@code keytool} makes
 * for {@code cards.scryfall.io} and {@code c1.scryfall.com} under {@code target/}. Records the paths asked for.
 */
public final class ImageHostFront implements AutoCloseable {

    private static final Path KEYSTORE_DIR = Path.of("target/image-host-front");

    private final HttpsServer server;
    private final ExecutorService threads;
    private final HttpClient client;
    private final String standIn;
    private final List<String> requested = new CopyOnWriteArrayList<>();
    private final List<String> answered = new CopyOnWriteArrayList<>();

    private ImageHostFront(String standIn) throws IOException, GeneralSecurityException, InterruptedException {
        this.standIn = standIn;
        this.client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        this.server = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
        server.setHttpsConfigurator(new HttpsConfigurator(tls()));
        // a thread per connection, never a fixed few: the JDK's server reads a new TLS connection's first request
        // on an executor thread, and a browser keeps connections it opened ahead (preconnects, backup sockets on a
        // slow connect) idle in its pool, so a fixed pool can be taken whole by connections that send nothing
        this.threads = Executors.newCachedThreadPool();
        server.setExecutor(threads);
        server.createContext("/", this::answer);
        server.start();
    }

    /** Starts one in front of {@code standInBaseUrl} ({@link ScryfallStandIn#baseUrl()}). */
    public static ImageHostFront start(String standInBaseUrl) {
        try {
            return new ImageHostFront(standInBaseUrl);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the front's TLS context: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** The paths asked for, with their queries, in order. */
    public List<String> requested() {
        return List.copyOf(requested);
    }

    /** Each answer written whole, as {@code <status> <path>}, in order (for a test's failure message). */
    public List<String> answered() {
        return List.copyOf(answered);
    }

    private void answer(HttpExchange exchange) throws IOException {
        try (exchange) {
            URI uri = exchange.getRequestURI();
            String path = uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
            requested.add(path);
            if (!"GET".equals(exchange.getRequestMethod())) {
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            HttpResponse<byte[]> answer;
            try {
                answer = client.send(HttpRequest.newBuilder(URI.create(standIn + path)).timeout(Duration.ofSeconds(30))
                        .header("Accept", "image/*").GET().build(), HttpResponse.BodyHandlers.ofByteArray());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                exchange.sendResponseHeaders(503, -1);
                return;
            }
            answer.headers().firstValue("Content-Type")
                    .ifPresent(type -> exchange.getResponseHeaders().set("Content-Type", type));
            byte[] body = answer.body();
            exchange.sendResponseHeaders(answer.statusCode(), body.length == 0 ? -1 : body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
            answered.add(answer.statusCode() + " " + path);
        }
    }

    /** A TLS context with a fresh self-signed certificate for both image hosts, made by the JDK's keytool. */
    private static SSLContext tls() throws IOException, GeneralSecurityException, InterruptedException {
        Files.createDirectories(KEYSTORE_DIR);
        Path keystore = KEYSTORE_DIR.resolve("front-" + UUID.randomUUID() + ".p12");
        char[] password = UUID.randomUUID().toString().toCharArray();
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        Process process = new ProcessBuilder(keytool.toString(), "-genkeypair", "-alias", "front", "-keyalg", "EC",
                "-groupname", "secp256r1", "-dname", "CN=cards.scryfall.io",
                "-ext", "SAN=dns:cards.scryfall.io,dns:c1.scryfall.com", "-validity", "2", "-storetype", "PKCS12",
                "-keystore", keystore.toString(), "-storepass", new String(password), "-keypass", new String(password))
                .redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IllegalStateException("keytool failed: " + output);
        }
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keystore)) {
            store.load(in, password);
        } finally {
            Files.deleteIfExists(keystore);
        }
        KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(store, password);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keys.getKeyManagers(), null, null);
        return context;
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
