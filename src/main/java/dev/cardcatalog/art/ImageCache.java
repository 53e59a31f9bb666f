package dev.cardcatalog.art;

import dev.cardcatalog.platform.DataDirectory;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;
import java.util.UUID;

/**
 * The image cache of SERVICE.md §5.3: {@code <data dir>/art/small/<illustration_id>.jpg}, written through a
 * {@code .part} file and renamed, so a file present is always complete. A cached image is never fetched again
 * (unless its image version changed, when the build drops it first).
 */
@ApplicationScoped
public class ImageCache {

    private final DataDirectory dataDirectory;

    public ImageCache(DataDirectory dataDirectory) {
        this.dataDirectory = dataDirectory;
    }

    Path path(UUID illustrationId) {
        return dataDirectory.resolve("art/small").resolve(illustrationId + ".jpg");
    }

    /** The cached bytes, if the image is cached. */
    Optional<byte[]> read(UUID illustrationId) throws IOException {
        Path file = path(illustrationId);
        return Files.isRegularFile(file) ? Optional.of(Files.readAllBytes(file)) : Optional.empty();
    }

    void write(UUID illustrationId, byte[] bytes) throws IOException {
        Path file = path(illustrationId);
        Path part = file.resolveSibling(file.getFileName() + ".part");
        Files.write(part, bytes);
        Files.move(part, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    void delete(UUID illustrationId) throws IOException {
        Files.deleteIfExists(path(illustrationId));
    }
}
