package dev.cardcatalog.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A server on a free port is started again on another when the port it was given is taken before it binds it
 * (two test JVMs starting at once did so in a clean clone's suite); a server on a port it was told to use is not.
 * The taken port is held on both loopback addresses, as PostgreSQL listens on "localhost".
 */
class EmbeddedPostgresPortTest {

    @Test
    void aTakenPortIsLeftForAnotherAndTheServerTakesConnectionsThere() throws Exception {
        try (Held held = Held.take()) {
            AtomicInteger asked = new AtomicInteger();
            try (EmbeddedPostgresServer server = EmbeddedPostgresServer.start(null,
                    () -> asked.getAndIncrement() == 0 ? held.port : 0, 2, Duration.ofSeconds(5))) {
                assertThat(asked.get()).isEqualTo(2);
                assertThat(server.port()).isNotEqualTo(held.port);
                try (Connection connection = DriverManager.getConnection(
                        "jdbc:postgresql://localhost:" + server.port() + "/postgres", "postgres", "postgres")) {
                    assertThat(connection.isValid(5)).isTrue();
                }
            }
            // told to use that port, it fails, saying so
            assertThatThrownBy(() -> EmbeddedPostgresServer.start(null, () -> held.port, 1, Duration.ofSeconds(3)))
                    .isInstanceOf(UncheckedIOException.class).hasMessageContaining("could not start");
        }
    }

    /** A port held on 127.0.0.1 and, where the machine has it, on ::1. */
    private record Held(int port, List<ServerSocket> sockets) implements AutoCloseable {
        static Held take() throws IOException {
            List<ServerSocket> sockets = new ArrayList<>();
            ServerSocket v4 = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
            sockets.add(v4);
            try {
                sockets.add(new ServerSocket(v4.getLocalPort(), 50, InetAddress.getByName("::1")));
            } catch (IOException noIpv6) {
                // no IPv6 loopback here: PostgreSQL cannot listen there either
            }
            return new Held(v4.getLocalPort(), sockets);
        }

        @Override
        public void close() throws IOException {
            for (ServerSocket socket : sockets) {
                socket.close();
            }
        }
    }
}
