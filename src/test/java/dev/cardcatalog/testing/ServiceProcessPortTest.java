package dev.cardcatalog.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How {@link ServiceProcess} tells a start that lost its free port from any other failed start. */
class ServiceProcessPortTest {

    private static final String TAKEN = "{\"loggerName\":\"io.quarkus.runtime.Application\",\"level\":\"ERROR\","
            + "\"message\":\"Port 42125 seems to be in use by another process. Quarkus may already be running or the"
            + " port is used by another application.\"}\n";

    @TempDir
    Path directory;

    @Test
    void theLogOfThisStartNamesThePortTaken() throws IOException {
        Path log = directory.resolve("a.log");
        Files.writeString(log, "{\"message\":\"starting\"}\n" + TAKEN);

        assertThat(ServiceProcess.portTaken(log, 0)).isEqualTo(42125);
    }

    @Test
    void aPortTakenInAnEarlierStartOfTheSameLogIsNotThisStartsFailure() throws IOException {
        Path log = directory.resolve("a.log");
        Files.writeString(log, TAKEN);
        long earlier = Files.size(log);
        Files.writeString(log, "{\"message\":\"Flyway failed: connection refused\"}\n",
                StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.APPEND);

        assertThat(ServiceProcess.portTaken(log, earlier)).isNull();
        assertThat(ServiceProcess.portTaken(log, 0)).isEqualTo(42125);
    }

    @Test
    void noLogOrAMissingOneNamesNoPort() {
        assertThat(ServiceProcess.portTaken(null, 0)).isNull();
        assertThat(ServiceProcess.portTaken(directory.resolve("none.log"), 0)).isNull();
    }
}
