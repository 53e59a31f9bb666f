package dev.cardcatalog.platform;

import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** {@code card-catalog.data-dir}: bulk files ({@code bulk/}), the image cache and art index files ({@code art/}). */
@Singleton
public class DataDirectory {

    private final Path root;

    public DataDirectory(@ConfigProperty(name = "card-catalog.data-dir") Path root) {
        this.root = root.toAbsolutePath();
    }

    /** The sub-directory {@code name}, created when missing. */
    public Path resolve(String name) {
        Path dir = root.resolve(name);
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create data directory " + dir, e);
        }
        return dir;
    }

    public Path root() {
        return root;
    }
}
