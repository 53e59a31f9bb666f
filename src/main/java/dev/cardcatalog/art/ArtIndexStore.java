package dev.cardcatalog.art;

import dev.cardcatalog.platform.DataDirectory;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The art index files in {@code <data dir>/art/index} (SERVICE.md §5.8): the current one is the newest, and the
 * matcher over it is loaded once and kept until a build writes a new one.
 */
@ApplicationScoped
public class ArtIndexStore {

    private final DataDirectory dataDirectory;
    private Path loadedFile;
    private ArtMatcher matcher;

    public ArtIndexStore(DataDirectory dataDirectory) {
        this.dataDirectory = dataDirectory;
    }

    /** The directory of the index files. */
    public Path directory() {
        return dataDirectory.resolve("art/index");
    }

    /** The current index file, the newest; empty before the first build. */
    public Optional<Path> current() {
        try {
            List<Path> files = ArtIndexFile.list(directory());
            return files.isEmpty() ? Optional.empty() : Optional.of(files.get(0));
        } catch (IOException e) {
            throw new UncheckedIOException("the art index directory cannot be read", e);
        }
    }

    /** The index file named {@code name}, if it is a valid index file name and the file exists. */
    public Optional<Path> file(String name) {
        if (name == null || !ArtIndexFile.isValidName(name)) {
            return Optional.empty();
        }
        Path file = directory().resolve(name);
        return Files.isRegularFile(file) ? Optional.of(file) : Optional.empty();
    }

    /** The matcher over the current index, loaded on first use and after each new index; empty before any. */
    public synchronized Optional<ArtMatcher> matcher() {
        Optional<Path> current = current();
        if (current.isEmpty()) {
            return Optional.empty();
        }
        if (!current.get().equals(loadedFile)) {
            try {
                matcher = ArtMatcher.load(current.get(), ArtSettings.FROZEN.digest());
                loadedFile = current.get();
            } catch (IOException e) {
                throw new UncheckedIOException("the art index " + current.get().getFileName() + " cannot be read", e);
            }
        }
        return Optional.of(matcher);
    }

    /** The file the matcher was loaded from. */
    public synchronized Optional<Path> matcherFile() {
        return Optional.ofNullable(loadedFile);
    }

    /** Forgets the loaded matcher: a build wrote a new index. */
    public synchronized void refresh() {
        loadedFile = null;
        matcher = null;
    }
}
