package dev.cardcatalog.catalog;

import dev.cardcatalog.platform.DataDirectory;
import dev.cardcatalog.platform.PrintableText;
import dev.cardcatalog.platform.Progress;
import dev.cardcatalog.scryfall.BulkDataItem;
import dev.cardcatalog.scryfall.FileResponse;
import dev.cardcatalog.scryfall.ScryfallClient;
import dev.cardcatalog.scryfall.ScryfallUnavailableException;
import io.quarkus.logging.Log;
import io.vertx.mutiny.core.buffer.Buffer;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

/**
 * Downloads a bulk file to {@code <data dir>/bulk/<version>.jsonl.gz} (or {@code .json.gz} for the legacy shape)
 * through a {@code .part} file (SERVICE.md §4.3). The byte count is checked against the size Scryfall published:
 * {@code compressed_size} against the bytes as received, or the legacy {@code size} against the decoded JSON. On a
 * mismatch the part file is deleted and {@link BulkFileIntegrityException} raised. A complete file already present
 * is reused; the newest {@code keep-bulk-files} files are kept.
 */
@ApplicationScoped
public class BulkFileDownloader {

    /** Longest a download may take to start (the Retry-After rule waits at most 60 s within a call). */
    private static final Duration OPEN_TIMEOUT = Duration.ofMinutes(5);

    private final ScryfallClient scryfall;
    private final DataDirectory dataDirectory;
    private final CatalogConfig config;

    public BulkFileDownloader(ScryfallClient scryfall, DataDirectory dataDirectory, CatalogConfig config) {
        this.scryfall = scryfall;
        this.dataDirectory = dataDirectory;
        this.config = config;
    }

    /** The path of {@code item}'s file once downloaded. */
    Path target(BulkDataItem item) {
        return dataDirectory.resolve("bulk").resolve(item.version() + (item.jsonLines() ? ".jsonl.gz" : ".json.gz"));
    }

    /**
     * Returns the complete local file of {@code item}, downloading it when it is not already there.
     *
     * @throws BulkFileIntegrityException the byte count differs from the published size
     * @throws ScryfallUnavailableException the download broke off (transient)
     */
    Path fetch(BulkDataItem item, Progress progress) {
        Path target = target(item);
        long published = publishedSize(item);
        progress.stage("download", published);
        if (Files.isRegularFile(target) && reusable(item, target)) {
            Log.infof("bulk file %s already downloaded; reusing it", target.getFileName());
            progress.done(published);
            touch(target);
            return target;
        }
        Path part = target.resolveSibling(target.getFileName() + ".part");
        try {
            download(item, part, progress);
            check(item, part);
            Files.move(part, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            progress.progressed(); // a file downloaded is work a retry need not do again
        } catch (IOException e) {
            deleteQuietly(part);
            throw new UncheckedIOException("could not write " + part, e);
        } catch (RuntimeException e) {
            deleteQuietly(part);
            throw e;
        }
        prune(target.getParent());
        return target;
    }

    private void download(BulkDataItem item, Path part, Progress progress) throws IOException {
        String url = item.fileUri();
        FileResponse response = scryfall.openFile(url).await().atMost(OPEN_TIMEOUT);
        if (publishedSize(item) < 0 && response.contentLength() >= 0) {
            progress.stage("download", response.contentLength());
        }
        long written = 0;
        try (FileChannel out = FileChannel.open(part, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            for (Buffer buffer : response.body().subscribe().asIterable()) {
                ByteBuffer bytes = ByteBuffer.wrap(buffer.getBytes());
                while (bytes.hasRemaining()) {
                    written += out.write(bytes);
                }
                progress.done(written);
                progress.checkCancelled();
            }
        }
        if (response.contentLength() >= 0 && written != response.contentLength()) {
            throw new ScryfallUnavailableException(url, 200, "the download of " + url + " broke off after "
                    + written + " of " + response.contentLength() + " bytes", null);
        }
        progress.done(written);
        Log.infof("downloaded %s: %d bytes", PrintableText.of(url), written);
    }

    private void check(BulkDataItem item, Path part) throws IOException {
        long actual;
        long expected;
        String what;
        if (item.compressedSize() != null) {
            expected = item.compressedSize();
            actual = Files.size(part);
            what = "compressed_size";
        } else if (item.size() != null) {
            expected = item.size();
            actual = decodedSize(part);
            what = "size";
        } else {
            return;
        }
        if (actual != expected) {
            throw new BulkFileIntegrityException("bulk file " + item.version() + " has " + actual + " bytes where "
                    + what + " says " + expected + "; the download was discarded");
        }
    }

    private boolean reusable(BulkDataItem item, Path file) {
        try {
            if (item.compressedSize() != null) {
                return Files.size(file) == item.compressedSize();
            }
            return item.size() == null || decodedSize(file) == item.size();
        } catch (IOException e) {
            return false;
        }
    }

    /** The size of the file's content once gzip is undone (the file's own size when it is not gzip). */
    private static long decodedSize(Path file) throws IOException {
        try (InputStream raw = new java.io.BufferedInputStream(Files.newInputStream(file))) {
            raw.mark(2);
            boolean gzip = raw.read() == 0x1f && raw.read() == 0x8b;
            raw.reset();
            if (!gzip) {
                return Files.size(file);
            }
            try (InputStream in = new GZIPInputStream(raw, 1 << 16)) {
                long total = 0;
                byte[] buffer = new byte[1 << 16];
                int n;
                while ((n = in.read(buffer)) > 0) {
                    total += n;
                }
                return total;
            } catch (java.io.EOFException | java.util.zip.ZipException e) {
                return -1;
            }
        }
    }

    private static long publishedSize(BulkDataItem item) {
        if (item.compressedSize() != null) {
            return item.compressedSize();
        }
        return -1;
    }

    private void prune(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            List<Path> complete = files.filter(Files::isRegularFile)
                    .filter(p -> !p.getFileName().toString().endsWith(".part"))
                    .sorted(Comparator.comparing(BulkFileDownloader::modified).reversed())
                    .toList();
            for (Path old : complete.subList(Math.min(config.keepBulkFiles(), complete.size()), complete.size())) {
                Log.infof("deleting old bulk file %s", old.getFileName());
                deleteQuietly(old);
            }
        } catch (IOException e) {
            Log.warnf("could not prune %s: %s", dir, e.getMessage());
        }
    }

    private static FileTime modified(Path path) {
        try {
            return Files.getLastModifiedTime(path);
        } catch (IOException e) {
            return FileTime.fromMillis(0);
        }
    }

    private static void touch(Path path) {
        try {
            Files.setLastModifiedTime(path, FileTime.fromMillis(System.currentTimeMillis()));
        } catch (IOException ignored) {
            // only the pruning order depends on it
        }
    }

    private static void deleteQuietly(Path path) {
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            Log.warnf("could not delete %s: %s", path, e.getMessage());
        }
    }
}
