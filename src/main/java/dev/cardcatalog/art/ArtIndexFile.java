package dev.cardcatalog.art;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.regex.Pattern;
import java.util.zip.Deflater;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * The art index file: what the art build publishes and the browser scanner (and {@link ArtMatcher}) loads
 * (SERVICE.md §5.8, FINGERPRINT.md §9), in format version 2: version 1 (the seed's) with each record's face.
 *
 * <p>The file is gzip (best compression) of a big-endian body:
 * <pre>
 *   offset        size  content
 *   0             4     ASCII "CART"
 *   4             1     format version 2
 *   5             3     00 00 00
 *   8             16    settings digest, 16 ASCII lowercase hex characters
 *   24            4     record count N, uint32
 *   28 + 145k     16    artwork id (the UUID's 16 raw bytes, first hex digit = high nibble of byte 0)
 *   28 + 145k+16  1     the face the artwork's image is of: its index in the card's card_faces, 0 for the front
 *                       face and for a card whose faces share one image (SERVICE.md §5.1)
 *   28 + 145k+17  128   the artwork's zero-offset fingerprint
 * </pre>
 * Records are sorted by artwork id (lowercase hyphenated UUID text order = unsigned byte order of the 16 raw bytes;
 * note that {@link UUID#compareTo} is signed and differs). The body is exactly {@code 28 + 145 * N} bytes. A file
 * of another format version (version 1 had no face byte: 144-byte records) is refused.
 *
 * <p>The file is named as {@link ArtIndexName} says (catalog version, content digest, settings digest, N). The
 * bytes are kept in PostgreSQL ({@link ArtIndexStore}); in a directory (the data directory's cache) a file is
 * written through a temporary file renamed atomically, is never rewritten once it exists, and only the two newest
 * index files are kept.
 */
public final class ArtIndexFile {

    /** Length of the header in bytes. */
    public static final int HEADER_BYTES = 28;

    /** Length of one record in bytes: 16 id bytes, the face byte and a 128-byte fingerprint. */
    public static final int RECORD_BYTES = 16 + 1 + ArtFingerprint.BYTES;

    /** The format version byte this class writes and accepts. */
    public static final int FORMAT_VERSION = 2;

    /** The largest face index a record holds. */
    public static final int MAX_FACE = 255;

    /** How many index files a directory keeps (the one just written and the newest other). */
    public static final int FILES_KEPT = 2;

    /** Default bound on the records a reader accepts (a gzip body can claim, and inflate to, far more). */
    public static final int DEFAULT_MAX_RECORDS = 1_000_000;

    private static final byte[] MAGIC = {'C', 'A', 'R', 'T'};
    private static final Pattern DIGEST = Pattern.compile("[0-9a-f]{16}");

    /** Artwork ids in index order: unsigned comparison of the 16 raw bytes. */
    public static final Comparator<UUID> ID_ORDER = (a, b) -> {
        int c = Long.compareUnsigned(a.getMostSignificantBits(), b.getMostSignificantBits());
        return c != 0 ? c : Long.compareUnsigned(a.getLeastSignificantBits(), b.getLeastSignificantBits());
    };

    private ArtIndexFile() {
    }

    /**
     * One record: an artwork (Scryfall {@code illustration_id}), the face its image is of, and its zero-offset
     * fingerprint.
     *
     * @param artworkId   the artwork id
     * @param face        the face's index in {@code card_faces}, 0 to {@value #MAX_FACE}: 0 for the front face (or
     *                    the card's one image)
     * @param fingerprint 128 bytes (not copied)
     */
    public record Entry(UUID artworkId, int face, byte[] fingerprint) {
        public Entry {
            Objects.requireNonNull(artworkId, "artworkId");
            if (face < 0 || face > MAX_FACE) {
                throw new IllegalArgumentException("a face is 0 to " + MAX_FACE + ": " + face);
            }
            if (fingerprint == null || fingerprint.length != ArtFingerprint.BYTES) {
                throw new IllegalArgumentException("a fingerprint is " + ArtFingerprint.BYTES + " bytes");
            }
        }

        /** A record of an artwork on a front face. */
        public Entry(UUID artworkId, byte[] fingerprint) {
            this(artworkId, 0, fingerprint);
        }
    }

    /**
     * A parsed index.
     *
     * @param digest  the settings digest of the header
     * @param entries the records in file order (sorted by artwork id)
     */
    public record Contents(String digest, List<Entry> entries) {
        public Contents {
            entries = List.copyOf(entries);
        }
    }

    /**
     * The outcome of {@link #write}.
     *
     * @param file    the index file
     * @param created false when a file of that name already existed and was left as it was
     * @param deleted older index files removed to keep the {@value #FILES_KEPT} newest
     */
    public record Written(Path file, boolean created, List<Path> deleted) {
    }

    /** Whether {@code name} is an index file name ({@link ArtIndexName}). */
    public static boolean isValidName(String name) {
        return ArtIndexName.isValid(name);
    }

    /**
     * The uncompressed body for {@code entries}, which are sorted by artwork id here.
     *
     * @throws IllegalArgumentException on a bad digest or a repeated artwork id
     */
    public static byte[] body(String digest, Collection<Entry> entries) {
        List<Entry> sorted = sortedUnique(entries);
        requireDigest(digest);
        ByteArrayOutputStream out = new ByteArrayOutputStream(HEADER_BYTES + RECORD_BYTES * sorted.size());
        try {
            writeBody(out, digest, sorted);
        } catch (IOException e) {
            throw new IllegalStateException("a byte array stream does not fail", e);
        }
        return out.toByteArray();
    }

    /**
     * The index file's bytes for {@code entries}: gzip (best compression) of {@link #body}. The same entries always
     * give the same bytes (the gzip header carries no time).
     *
     * @throws IllegalArgumentException on a bad digest or a repeated artwork id
     */
    public static byte[] gzip(String digest, Collection<Entry> entries) {
        byte[] body = body(digest, entries);
        ByteArrayOutputStream out = new ByteArrayOutputStream(body.length / 2 + 64);
        try (GZIPOutputStream gzip = new GZIPOutputStream(out, 1 << 16) {
            {
                def.setLevel(Deflater.BEST_COMPRESSION);
            }
        }) {
            gzip.write(body);
        } catch (IOException e) {
            throw new IllegalStateException("a byte array stream does not fail", e);
        }
        return out.toByteArray();
    }

    /**
     * Writes the index of {@code entries} into {@code directory} unless a file of that name exists, then deletes
     * all but the {@value #FILES_KEPT} newest index files (the one named here is always kept). The name carries the
     * content digest ({@link ArtIndexName}), so a file of that name holds these very bytes.
     *
     * @param directory      where index files live (created if missing)
     * @param catalogVersion e.g. {@code default-cards-20261008210545}
     * @param digest         the settings digest of every fingerprint in {@code entries}
     * @param entries        one per artwork, in any order
     * @throws IOException              if writing, renaming or listing fails (a partial {@code .part} is removed)
     * @throws IllegalArgumentException on a bad catalog version or digest, or a repeated artwork id
     */
    public static Written write(Path directory, String catalogVersion, String digest, Collection<Entry> entries)
            throws IOException {
        List<Entry> sorted = sortedUnique(entries);
        byte[] bytes = gzip(digest, sorted);
        String name = ArtIndexName.of(catalogVersion, digest, sorted.size(), bytes).toString();
        Path target = directory.resolve(name);
        boolean created = writeIfMissing(target, bytes);
        return new Written(target, created, keepNewest(directory, target));
    }

    /**
     * Writes {@code bytes} to {@code target} through a temporary file renamed atomically, unless {@code target}
     * exists (an index file's name follows its bytes, so it already holds them).
     *
     * @return whether the file was written
     */
    public static boolean writeIfMissing(Path target, byte[] bytes) throws IOException {
        if (Files.exists(target)) {
            return false;
        }
        Path directory = target.getParent();
        Files.createDirectories(directory);
        Path part = Files.createTempFile(directory, target.getFileName().toString(), ".part");
        try {
            try (FileChannel channel = FileChannel.open(part, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                channel.write(ByteBuffer.wrap(bytes));
                channel.force(true);
            }
            Files.move(part, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            return true;
        } finally {
            Files.deleteIfExists(part);
        }
    }

    /**
     * Deletes the index files of {@code directory} other than {@code keep} and the newest other one (newest by
     * last-modified time, then by name), and the temporary {@code .part} files of writes that were cut short (a
     * process killed while writing) once they are older than {@link #ABANDONED_PART_AGE}; a younger one may be a
     * write still going on. Other files are not touched.
     *
     * @return the deleted files
     */
    public static List<Path> keepNewest(Path directory, Path keep) throws IOException {
        List<Path> files = list(directory);
        List<Path> deleted = new ArrayList<>(deleteAbandonedParts(directory));
        int kept = files.contains(keep) ? 1 : 0;
        for (Path file : files) {
            if (file.equals(keep)) {
                continue;
            }
            if (kept < FILES_KEPT) {
                kept++;
            } else if (Files.deleteIfExists(file)) {
                deleted.add(file);
            }
        }
        return List.copyOf(deleted);
    }

    /** How old a {@code .part} file must be to count as left by a write that was cut short: one hour. */
    public static final java.time.Duration ABANDONED_PART_AGE = java.time.Duration.ofHours(1);

    /**
     * Deletes the {@code .part} files of {@code directory} older than {@link #ABANDONED_PART_AGE}: what a write cut
     * short leaves. A younger one may be a write still going on, and is left alone.
     *
     * @return the deleted files
     */
    public static List<Path> deleteAbandonedParts(Path directory) throws IOException {
        List<Path> deleted = new ArrayList<>();
        FileTime before = FileTime.from(java.time.Instant.now().minus(ABANDONED_PART_AGE));
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory, "*.part")) {
            for (Path part : stream) {
                if (Files.isRegularFile(part) && Files.getLastModifiedTime(part).compareTo(before) < 0
                        && Files.deleteIfExists(part)) {
                    deleted.add(part);
                }
            }
        }
        return deleted;
    }

    /** The index files of {@code directory} (valid names only), newest first: last-modified time, then name. */
    public static List<Path> list(Path directory) throws IOException {
        record Dated(Path path, FileTime modified) {
        }
        List<Dated> files = new ArrayList<>();
        if (!Files.isDirectory(directory)) {
            return List.of();
        }
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory)) {
            for (Path path : stream) {
                if (isValidName(path.getFileName().toString()) && Files.isRegularFile(path)) {
                    files.add(new Dated(path, Files.getLastModifiedTime(path)));
                }
            }
        }
        files.sort(Comparator.comparing(Dated::modified).thenComparing(d -> d.path().getFileName().toString())
                .reversed());
        return files.stream().map(Dated::path).toList();
    }

    /**
     * Reads and validates an index file: its name, then magic, version, digest, record count, length and order.
     *
     * @param expectedDigest the settings digest the caller works with
     * @throws ArtIndexFormatException if the file is not a valid index at {@code expectedDigest}
     * @throws IOException             if reading fails
     */
    public static Contents read(Path file, String expectedDigest) throws IOException {
        return read(file, expectedDigest, DEFAULT_MAX_RECORDS);
    }

    /** As {@link #read(Path, String)}, accepting at most {@code maxRecords} records. */
    public static Contents read(Path file, String expectedDigest, int maxRecords) throws IOException {
        String fileName = file.getFileName().toString();
        ArtIndexName name = ArtIndexName.parse(fileName).orElseThrow(
                () -> new ArtIndexFormatException("not an art index file name: " + fileName));
        Contents contents;
        try (InputStream in = Files.newInputStream(file)) {
            contents = read(in, expectedDigest, maxRecords);
        }
        if (!name.settingsDigest().equals(contents.digest())) {
            throw new ArtIndexFormatException("the name's digest differs from the header's: " + name);
        }
        if (name.count() != contents.entries().size()) {
            throw new ArtIndexFormatException("the name's record count differs from the header's: " + name);
        }
        return contents;
    }

    /**
     * Reads and validates a gzip-compressed index from {@code gzipped} (not closed).
     *
     * @param expectedDigest the settings digest the caller works with
     * @param maxRecords     the most records accepted
     * @throws ArtIndexFormatException if the data is not a valid index at {@code expectedDigest}
     */
    public static Contents read(InputStream gzipped, String expectedDigest, int maxRecords) throws IOException {
        InputStream in;
        try {
            in = new BufferedInputStream(new GZIPInputStream(gzipped, 1 << 16), 1 << 16);
        } catch (EOFException | java.util.zip.ZipException e) {
            throw new ArtIndexFormatException("not gzip data");
        }
        try {
            return readBody(in, expectedDigest, maxRecords);
        } catch (java.util.zip.ZipException e) {
            throw new ArtIndexFormatException("damaged gzip data");
        }
    }

    private static Contents readBody(InputStream in, String expectedDigest, int maxRecords) throws IOException {
        byte[] header = in.readNBytes(HEADER_BYTES);
        if (header.length < HEADER_BYTES) {
            throw new ArtIndexFormatException("shorter than the " + HEADER_BYTES + "-byte header");
        }
        for (int k = 0; k < MAGIC.length; k++) {
            if (header[k] != MAGIC[k]) {
                throw new ArtIndexFormatException("wrong magic (not CART)");
            }
        }
        if (header[4] != FORMAT_VERSION) {
            throw new ArtIndexFormatException("unsupported format version " + (header[4] & 0xFF));
        }
        String digest = new String(header, 8, 16, StandardCharsets.US_ASCII);
        if (!DIGEST.matcher(digest).matches()) {
            throw new ArtIndexFormatException("the header's settings digest is not 16 lowercase hex characters");
        }
        if (expectedDigest != null && !expectedDigest.equals(digest)) {
            throw new ArtIndexFormatException("settings digest " + digest + " differs from " + expectedDigest);
        }
        long count = ByteBuffer.wrap(header, 24, 4).getInt() & 0xFFFFFFFFL;
        if (count > maxRecords) {
            throw new ArtIndexFormatException("the header claims " + count + " records, over the limit of "
                    + maxRecords);
        }
        List<Entry> entries = new ArrayList<>((int) Math.min(count, 1 << 16));
        byte[] record = new byte[RECORD_BYTES];
        UUID previous = null;
        for (long k = 0; k < count; k++) {
            if (in.readNBytes(record, 0, RECORD_BYTES) < RECORD_BYTES) {
                throw new ArtIndexFormatException("the body is shorter than 28 + " + RECORD_BYTES + " * " + count
                        + " bytes");
            }
            ByteBuffer buffer = ByteBuffer.wrap(record);
            UUID id = new UUID(buffer.getLong(), buffer.getLong());
            if (previous != null && ID_ORDER.compare(previous, id) >= 0) {
                throw new ArtIndexFormatException("records are not sorted by artwork id (at record " + k + ")");
            }
            previous = id;
            byte[] fingerprint = new byte[ArtFingerprint.BYTES];
            System.arraycopy(record, 17, fingerprint, 0, ArtFingerprint.BYTES);
            entries.add(new Entry(id, record[16] & 0xFF, fingerprint));
        }
        if (in.read() != -1) {
            throw new ArtIndexFormatException("the body is longer than 28 + " + RECORD_BYTES + " * " + count
                    + " bytes");
        }
        return new Contents(digest, entries);
    }

    private static void writeBody(OutputStream out, String digest, List<Entry> sorted) throws IOException {
        ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES);
        header.put(MAGIC).put((byte) FORMAT_VERSION).put(new byte[3]);
        header.put(digest.getBytes(StandardCharsets.US_ASCII));
        header.putInt(sorted.size());
        out.write(header.array());
        ByteBuffer record = ByteBuffer.allocate(RECORD_BYTES);
        for (Entry entry : sorted) {
            record.clear();
            record.putLong(entry.artworkId().getMostSignificantBits());
            record.putLong(entry.artworkId().getLeastSignificantBits());
            record.put((byte) entry.face());
            record.put(entry.fingerprint());
            out.write(record.array());
        }
    }

    private static List<Entry> sortedUnique(Collection<Entry> entries) {
        List<Entry> sorted = new ArrayList<>(entries);
        sorted.sort(Comparator.comparing(Entry::artworkId, ID_ORDER));
        for (int k = 1; k < sorted.size(); k++) {
            if (sorted.get(k - 1).artworkId().equals(sorted.get(k).artworkId())) {
                throw new IllegalArgumentException("artwork " + sorted.get(k).artworkId() + " appears twice");
            }
        }
        return sorted;
    }

    private static void requireDigest(String digest) {
        if (digest == null || !DIGEST.matcher(digest).matches()) {
            throw new IllegalArgumentException("a settings digest is 16 lowercase hex characters");
        }
    }
}
