package dev.cardcatalog.platform;

import io.quarkus.vertx.http.ManagementInterface;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * Serves the AsyncAPI 3 document of the Kafka interface ({@code docs/asyncapi.yaml}, packaged as
 * {@code META-INF/asyncapi.yaml}) on the management interface at {@code /q/asyncapi}, next to {@code /q/openapi}
 * (SERVICE.md §9): {@code application/yaml}, UTF-8.
 */
@ApplicationScoped
public class AsyncApiEndpoint {

    static final String PATH = "/q/asyncapi";
    private static final String RESOURCE = "META-INF/asyncapi.yaml";

    void serve(@Observes ManagementInterface management) {
        byte[] document = read();
        management.router().get(PATH).handler(context -> context.response()
                .putHeader("Content-Type", "application/yaml; charset=UTF-8")
                .putHeader("X-Content-Type-Options", "nosniff")
                .end(io.vertx.core.buffer.Buffer.buffer(document)));
    }

    private static byte[] read() {
        try (InputStream in = Thread.currentThread().getContextClassLoader().getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is not packaged");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
