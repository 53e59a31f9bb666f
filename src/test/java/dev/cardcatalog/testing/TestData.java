package dev.cardcatalog.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Resetting the shared infrastructure between tests. */
public final class TestData {

    /** The test profile's {@code card-catalog.data-dir}. */
    public static final Path DATA_DIR = Path.of("target/test-data");

    private TestData() {
    }

    /** Empties the database, the data directory and the stand-in's script. */
    public static void reset() {
        TestDatabase.clear();
        ScryfallStandIn.shared().reset();
        deleteTree(DATA_DIR);
    }

    public static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> {
                try {
                    Files.deleteIfExists(path);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
