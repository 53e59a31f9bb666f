package dev.cardcatalog.art;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ArtIndexFileTest {

    private static final String DIGEST = FingerprintSettings.FROZEN.digest();

    @TempDir
    Path dir;

    @Test
    void writesTheHeaderAndRecordsSortedByArtworkId() throws IOException {
        List<ArtIndexFile.Entry> entries = entries(40, 1);
        // Ids whose top bit is set sort after the others, as their lowercase text does.
        entries.add(entry(UUID.fromString("ffffffff-0000-4000-8000-000000000001"), 2));
        entries.add(entry(UUID.fromString("80000000-0000-4000-8000-000000000001"), 3));
        entries.add(entry(UUID.fromString("00000000-0000-4000-8000-000000000001"), 4));
        entries.add(entry(UUID.fromString("7fffffff-ffff-4fff-bfff-ffffffffffff"), 5));

        ArtIndexFile.Written written = ArtIndexFile.write(dir, "default-cards-20261008210545", DIGEST, entries);

        assertTrue(written.created());
        byte[] gzipped = Files.readAllBytes(written.file());
        assertEquals("art-index-default-cards-20261008210545-" + sha256(gzipped).substring(0, 16)
                + "-aa574ad30218cd69-44.bin.gz", written.file().getFileName().toString());
        byte[] body = gunzip(gzipped);
        assertEquals(28 + 145 * 44, body.length);
        assertEquals("CART", new String(body, 0, 4, StandardCharsets.US_ASCII));
        assertEquals(2, body[4]);
        assertArrayEquals(new byte[3], java.util.Arrays.copyOfRange(body, 5, 8));
        assertEquals("aa574ad30218cd69", new String(body, 8, 16, StandardCharsets.US_ASCII));
        assertEquals(44, ByteBuffer.wrap(body, 24, 4).getInt());

        List<ArtIndexFile.Entry> byText = new ArrayList<>(entries);
        byText.sort(Comparator.comparing(e -> e.artworkId().toString()));
        for (int k = 0; k < byText.size(); k++) {
            int at = 28 + 145 * k;
            assertEquals(byText.get(k).artworkId().toString().replace("-", ""),
                    HexFormat.of().formatHex(body, at, at + 16), "record " + k);
            assertEquals(byText.get(k).face(), body[at + 16] & 0xFF, "record " + k);
            assertArrayEquals(byText.get(k).fingerprint(), java.util.Arrays.copyOfRange(body, at + 17, at + 145));
        }
        assertEquals("00000000-0000-4000-8000-000000000001", byText.get(0).artworkId().toString());
        assertEquals("ffffffff-0000-4000-8000-000000000001", byText.get(43).artworkId().toString());
        assertArrayEquals(body, ArtIndexFile.body(DIGEST, entries));
    }

    @Test
    void readsBackWhatItWrote() throws IOException {
        List<ArtIndexFile.Entry> entries = entries(300, 2);
        Path file = ArtIndexFile.write(dir, "default-cards-1", DIGEST, entries).file();

        ArtIndexFile.Contents contents = ArtIndexFile.read(file, DIGEST);

        assertEquals(DIGEST, contents.digest());
        assertEquals(300, contents.entries().size());
        List<ArtIndexFile.Entry> sorted = new ArrayList<>(entries);
        sorted.sort(Comparator.comparing(ArtIndexFile.Entry::artworkId, ArtIndexFile.ID_ORDER));
        for (int k = 0; k < sorted.size(); k++) {
            assertEquals(sorted.get(k).artworkId(), contents.entries().get(k).artworkId());
            assertEquals(sorted.get(k).face(), contents.entries().get(k).face());
            assertArrayEquals(sorted.get(k).fingerprint(), contents.entries().get(k).fingerprint());
        }
    }

    @Test
    void writesAnEmptyIndex() throws IOException {
        Path file = ArtIndexFile.write(dir, "v1", DIGEST, List.of()).file();
        assertTrue(file.getFileName().toString().matches("art-index-v1-[0-9a-f]{16}-aa574ad30218cd69-0\\.bin\\.gz"));
        assertEquals(28, gunzip(Files.readAllBytes(file)).length);
        assertEquals(0, ArtIndexFile.read(file, DIGEST).entries().size());
    }

    @Test
    void acceptsOnlyIndexFileNames() {
        String good = "art-index-default-cards-20261008210545-3f2a9c0d41be7e58-aa574ad30218cd69-41234.bin.gz";
        assertTrue(ArtIndexFile.isValidName(good));
        // the browser scanner's pattern (FINGERPRINT.md §9) still accepts it
        assertTrue(good.matches("^art-index-[a-z0-9-]+-[0-9a-f]{16}-\\d+\\.bin\\.gz$"));
        ArtIndexName parsed = ArtIndexName.parse(good).orElseThrow();
        assertEquals(new ArtIndexName("default-cards-20261008210545", "3f2a9c0d41be7e58", DIGEST, 41234), parsed);
        assertEquals(good, parsed.toString());
        assertTrue(ArtIndexFile.isValidName(ArtIndexName.of("v1", DIGEST, 0, new byte[] {1}).toString()));
        for (String bad : new String[] {
                null, "", "art-index.bin.gz",
                "art-index-default-cards-aa574ad30218cd69-1.bin.gz", // no content digest
                "art-index-default-cards-3f2a9c0d41be7e58-AA574AD30218CD69-1.bin.gz", // upper-case digest
                "art-index-default-cards-3f2a9c0d41be7e58-aa574ad30218cd6-1.bin.gz", // 15 hex characters
                "art-index-default-cards-3f2a9c0d41be7e5-aa574ad30218cd69-1.bin.gz", // content digest too short
                "art-index-Default-3f2a9c0d41be7e58-aa574ad30218cd69-1.bin.gz", // upper-case catalog version
                "art-index-default_cards-3f2a9c0d41be7e58-aa574ad30218cd69-1.bin.gz",
                "art-index-v-3f2a9c0d41be7e58-aa574ad30218cd69-1.bin",
                "art-index-v-3f2a9c0d41be7e58-aa574ad30218cd69-.bin.gz",
                "art-index-v-3f2a9c0d41be7e58-aa574ad30218cd69-1.bin.gz.part",
                "../art-index-v-3f2a9c0d41be7e58-aa574ad30218cd69-1.bin.gz",
                "art-index-v-3f2a9c0d41be7e58-aa574ad30218cd69-1.bin.gz/x",
                "art-index--3f2a9c0d41be7e58-aa574ad30218cd69-1.bin.gz",
                "xart-index-v-3f2a9c0d41be7e58-aa574ad30218cd69-1.bin.gz",
                "art-index-v-3f2a9c0d41be7e58-aa574ad30218cd69-99999999999.bin.gz", // count over an int
                "art-index-v-3f2a9c0d41be7e58-aa574ad30218cd69-1.bin.gz\n"}) {
            assertFalse(ArtIndexFile.isValidName(bad), String.valueOf(bad));
        }
        assertThrows(IllegalArgumentException.class, () -> ArtIndexName.of("Default", DIGEST, 1, new byte[1]));
        assertThrows(IllegalArgumentException.class, () -> ArtIndexName.of("v1/..", DIGEST, 1, new byte[1]));
        assertThrows(IllegalArgumentException.class,
                () -> ArtIndexName.of("v1", "AA574AD30218CD69", 1, new byte[1]));
    }

    @Test
    void theNameFollowsTheBytes() throws IOException {
        Path first = ArtIndexFile.write(dir, "v1", DIGEST, entries(5, 3)).file();
        byte[] before = Files.readAllBytes(first);

        // the same catalog version, digest and count, one fingerprint different: another name
        List<ArtIndexFile.Entry> changed = entries(5, 3);
        byte[] fingerprint = changed.get(2).fingerprint().clone();
        fingerprint[0] ^= 1;
        changed.set(2, new ArtIndexFile.Entry(changed.get(2).artworkId(), fingerprint));
        ArtIndexFile.Written other = ArtIndexFile.write(dir, "v1", DIGEST, changed);
        // the same entries again: the same bytes, the same name, not rewritten
        ArtIndexFile.Written same = ArtIndexFile.write(dir, "v1", DIGEST, entries(5, 3));

        assertTrue(other.created());
        assertFalse(other.file().equals(first));
        assertFalse(same.created());
        assertEquals(first, same.file());
        assertArrayEquals(before, Files.readAllBytes(first));
        assertArrayEquals(before, ArtIndexFile.gzip(DIGEST, entries(5, 3)));
        assertTrue(ArtIndexName.parse(first.getFileName().toString()).orElseThrow().names(before));
        assertFalse(ArtIndexName.parse(other.file().getFileName().toString()).orElseThrow().names(before));
    }

    @Test
    void keepsTheTwoNewestIndexFilesAndLeavesNoPart() throws IOException {
        Path unrelated = Files.writeString(dir.resolve("notes.txt"), "keep me");
        Path v1 = ArtIndexFile.write(dir, "v1", DIGEST, entries(3, 5)).file();
        Files.setLastModifiedTime(v1, FileTime.from(Instant.parse("2026-01-01T00:00:00Z")));
        Path v2 = ArtIndexFile.write(dir, "v2", DIGEST, entries(4, 6)).file();
        Files.setLastModifiedTime(v2, FileTime.from(Instant.parse("2026-02-01T00:00:00Z")));
        assertTrue(Files.exists(v1));

        ArtIndexFile.Written v3 = ArtIndexFile.write(dir, "v3", DIGEST, entries(5, 7));

        assertEquals(List.of(v1), v3.deleted());
        assertFalse(Files.exists(v1));
        assertTrue(Files.exists(v2));
        assertTrue(Files.exists(v3.file()));
        assertTrue(Files.exists(unrelated));
        assertEquals(List.of(v3.file(), v2), ArtIndexFile.list(dir));
        try (var files = Files.list(dir)) {
            assertTrue(files.noneMatch(p -> p.toString().endsWith(".part")));
        }
    }

    @Test
    void aPartLeftByAWriteCutShortIsDeletedOnceItIsAnHourOldAndAYoungerOneIsLeftAlone() throws IOException {
        // what a process killed inside writeIfMissing leaves: Files.createTempFile's name, ending in .part
        Path old = Files.writeString(dir.resolve("art-index-v0-x.bin.gz12345.part"), "half an index");
        Files.setLastModifiedTime(old, FileTime.from(Instant.now().minus(ArtIndexFile.ABANDONED_PART_AGE)
                .minusSeconds(60)));
        Path young = Files.writeString(dir.resolve("art-index-v0-y.bin.gz67890.part"), "a write going on");
        Path notes = Files.writeString(dir.resolve("notes.part.txt"), "not a part");
        Files.setLastModifiedTime(notes, FileTime.from(Instant.parse("2020-01-01T00:00:00Z")));

        ArtIndexFile.Written written = ArtIndexFile.write(dir, "v1", DIGEST, entries(3, 15));

        assertEquals(List.of(old), written.deleted());
        assertFalse(Files.exists(old));
        assertTrue(Files.exists(young));
        assertTrue(Files.exists(notes));
        assertTrue(Files.exists(written.file()));
    }

    @Test
    void theFileAskedForIsKeptEvenWhenItIsTheOldest() throws IOException {
        Path v1 = ArtIndexFile.write(dir, "v1", DIGEST, entries(3, 8)).file();
        Files.setLastModifiedTime(v1, FileTime.from(Instant.parse("2020-01-01T00:00:00Z")));
        Path v2 = ArtIndexFile.write(dir, "v2", DIGEST, entries(3, 9)).file();
        Files.setLastModifiedTime(v2, FileTime.from(Instant.parse("2025-01-01T00:00:00Z")));
        Path v3 = Files.copy(v2, dir.resolve(ArtIndexName.of("v3", DIGEST, 3, Files.readAllBytes(v2)).toString()));
        Files.setLastModifiedTime(v3, FileTime.from(Instant.parse("2030-01-01T00:00:00Z")));

        // Asking again for v1 (already there, the oldest) keeps it and the newest other.
        ArtIndexFile.Written again = ArtIndexFile.write(dir, "v1", DIGEST, entries(3, 8));

        assertFalse(again.created());
        assertEquals(List.of(v2), again.deleted());
        assertTrue(Files.exists(v1));
        assertTrue(Files.exists(v3));
    }

    @Test
    void refusesARepeatedArtwork() {
        List<ArtIndexFile.Entry> entries = entries(3, 11);
        entries.add(entry(entries.get(0).artworkId(), 12));
        assertThrows(IllegalArgumentException.class, () -> ArtIndexFile.write(dir, "v1", DIGEST, entries));
    }

    @Test
    void refusesInvalidFiles() throws IOException {
        byte[] good = ArtIndexFile.body(DIGEST, entries(3, 13));

        assertInvalid(patch(good, 0, (byte) 'X'), "wrong magic");
        // format 1 (the seed's, without the face byte) is refused: a replica ignores such an index
        assertInvalid(patch(good, 4, (byte) 1), "unsupported format version 1");
        assertInvalid(patch(good, 4, (byte) 3), "unsupported format version 3");
        assertInvalid(patch(good, 8, (byte) 'b'), "differs");
        assertInvalid(java.util.Arrays.copyOf(good, good.length - 1), "shorter");
        assertInvalid(java.util.Arrays.copyOf(good, good.length + 145), "longer");
        assertInvalid(java.util.Arrays.copyOf(good, 20), "header");
        byte[] swapped = good.clone();
        System.arraycopy(good, 28, swapped, 28 + 145, 145);
        System.arraycopy(good, 28 + 145, swapped, 28, 145);
        assertInvalid(swapped, "not sorted");
        byte[] huge = good.clone();
        ByteBuffer.wrap(huge).putInt(24, -1);
        assertInvalid(huge, "over the limit");
        ArtIndexFormatException notGzip = assertThrows(ArtIndexFormatException.class,
                () -> ArtIndexFile.read(new ByteArrayInputStream(good), DIGEST, 10));
        assertTrue(notGzip.getMessage().contains("gzip"));
    }

    @Test
    void refusesAFileWhoseNameDisagreesWithItsHeader() throws IOException {
        Path file = ArtIndexFile.write(dir, "v1", DIGEST, entries(3, 14)).file();
        Path misnamed = Files.move(file, dir.resolve("art-index-v1-aa574ad30218cd69-4.bin.gz"));
        assertThrows(ArtIndexFormatException.class, () -> ArtIndexFile.read(misnamed, DIGEST));
        Path badName = Files.move(misnamed, dir.resolve("index.bin.gz"));
        assertThrows(ArtIndexFormatException.class, () -> ArtIndexFile.read(badName, DIGEST));
    }

    private static void assertInvalid(byte[] body, String reason) {
        ArtIndexFormatException e = assertThrows(ArtIndexFormatException.class,
                () -> ArtIndexFile.read(new ByteArrayInputStream(gzip(body)), DIGEST, 1000));
        assertTrue(e.getMessage().contains(reason), e.getMessage() + " should say " + reason);
    }

    private static byte[] patch(byte[] body, int at, byte value) {
        byte[] copy = body.clone();
        copy[at] = value;
        return copy;
    }

    static List<ArtIndexFile.Entry> entries(int count, long seed) {
        Random random = new Random(seed);
        List<ArtIndexFile.Entry> entries = new ArrayList<>();
        for (int k = 0; k < count; k++) {
            byte[] fp = new byte[128];
            random.nextBytes(fp);
            entries.add(new ArtIndexFile.Entry(new UUID(random.nextLong(), random.nextLong()), random.nextInt(3), fp));
        }
        return entries;
    }

    private static ArtIndexFile.Entry entry(UUID id, long seed) {
        byte[] fp = new byte[128];
        new Random(seed).nextBytes(fp);
        return new ArtIndexFile.Entry(id, (int) (seed % 3), fp);
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static byte[] gunzip(byte[] gz) throws IOException {
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(gz))) {
            return in.readAllBytes();
        }
    }

    private static byte[] gzip(byte[] body) {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
                gz.write(body);
            }
            return out.toByteArray();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
