package dev.cardcatalog.art;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cardcatalog.image.RgbImage;
import dev.cardcatalog.testing.FingerprintVectors;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ArtMatcherTest {

    private static final String DIGEST = FingerprintSettings.FROZEN.digest();

    @Test
    void theNearestArtworkToAnIndexedFingerprintIsItselfAtDistanceZero() {
        List<ArtIndexFile.Entry> entries = ArtIndexFileTest.entries(500, 1);
        ArtMatcher matcher = ArtMatcher.of(DIGEST, entries);
        for (int k = 0; k < entries.size(); k += 37) {
            ArtMatcher.Match best = matcher.nearest(new byte[][] {entries.get(k).fingerprint()}, 10).get(0);
            assertEquals(entries.get(k).artworkId(), best.artworkId());
            assertEquals(0, best.distance());
            assertTrue(best.confident());
        }
    }

    @Test
    void ordersByDistanceThenByIndexPosition() {
        // Artwork ids in index order a < b < c < d; distances from the zero query: d 5, b 7, a 7, c 9.
        UUID a = UUID.fromString("00000000-0000-4000-8000-000000000001");
        UUID b = UUID.fromString("10000000-0000-4000-8000-000000000001");
        UUID c = UUID.fromString("90000000-0000-4000-8000-000000000001");
        UUID d = UUID.fromString("f0000000-0000-4000-8000-000000000001");
        ArtMatcher matcher = ArtMatcher.of(DIGEST, List.of(entry(c, bits(9, 0)), entry(a, bits(7, 0)),
                entry(d, bits(5, 0)), entry(b, bits(7, 100))));

        List<ArtMatcher.Match> matches = matcher.nearest(new byte[][] {new byte[128]}, 10);

        assertEquals(List.of(d, a, b, c), matches.stream().map(ArtMatcher.Match::artworkId).toList());
        assertEquals(List.of(5, 7, 7, 9), matches.stream().map(ArtMatcher.Match::distance).toList());
        assertEquals(List.of(d, a), matcher.nearest(new byte[][] {new byte[128]}, 2).stream()
                .map(ArtMatcher.Match::artworkId).toList());
    }

    @Test
    void anArtworksDistanceIsTheSmallestOverTheQueries() {
        UUID id = UUID.fromString("00000000-0000-4000-8000-000000000001");
        ArtMatcher matcher = ArtMatcher.of(DIGEST, List.of(entry(id, bits(600, 0))));
        byte[] far = new byte[128];
        byte[] nearer = bits(550, 0); // shares 550 of the 600 set bits: distance 50
        assertEquals(50, matcher.nearest(new byte[][] {far, nearer, far}, 1).get(0).distance());
        assertEquals(600, matcher.nearest(new byte[][] {far}, 1).get(0).distance());
    }

    @Test
    void isConfidentUpToThreeHundredBitsInclusive() {
        UUID at300 = UUID.fromString("00000000-0000-4000-8000-000000000001");
        UUID at301 = UUID.fromString("00000000-0000-4000-8000-000000000002");
        ArtMatcher matcher = ArtMatcher.of(DIGEST, List.of(entry(at300, bits(300, 0)), entry(at301, bits(301, 0))));

        List<ArtMatcher.Match> matches = matcher.nearest(new byte[][] {new byte[128]}, 10);

        assertEquals(new ArtMatcher.Match(at300, 300, true), matches.get(0));
        assertEquals(new ArtMatcher.Match(at301, 301, false), matches.get(1));
        assertEquals(300, ArtMatcher.CONFIDENT_DISTANCE);
    }

    @Test
    void agreesWithABruteForceSearchOnClusteredFingerprints() {
        Random random = new Random(7);
        // a varying number of bits flipped, so many distances tie and early exits happen at every depth
        List<ArtIndexFile.Entry> entries = clustered(random, 3000, 600);
        ArtMatcher matcher = ArtMatcher.of(DIGEST, entries);
        List<ArtIndexFile.Entry> sorted = new ArrayList<>(entries);
        sorted.sort(Comparator.comparing(ArtIndexFile.Entry::artworkId, ArtIndexFile.ID_ORDER));
        for (int trial = 0; trial < 30; trial++) {
            byte[][] queries = new byte[1 + random.nextInt(6)][];
            for (int q = 0; q < queries.length; q++) {
                queries[q] = sorted.get(random.nextInt(sorted.size())).fingerprint().clone();
                queries[q][random.nextInt(128)] ^= (byte) random.nextInt(256);
            }
            int limit = 1 + random.nextInt(40);
            assertEquals(bruteForce(sorted, queries, limit), matcher.nearest(queries, limit), "trial " + trial);
        }
    }

    @Test
    void searchesMergedAFewQueriesAtATimeGiveWhatOneSearchOverAllTheQueriesGives() {
        // Clustered fingerprints, so distances tie and an artwork is near several queries; the splits include
        // empty-ish ones (a single query), the first and the second search holding the tie, and limits above 10.
        Random random = new Random(11);
        List<ArtIndexFile.Entry> entries = clustered(random, 1500, 300);
        ArtMatcher matcher = ArtMatcher.of(DIGEST, entries);
        for (int trial = 0; trial < 200; trial++) {
            byte[][] queries = new byte[2 + random.nextInt(30)][];
            for (int q = 0; q < queries.length; q++) {
                queries[q] = flipped(random, entries.get(random.nextInt(entries.size())).fingerprint(), 40);
                if (q > 0 && random.nextInt(5) == 0) {
                    queries[q] = queries[random.nextInt(q)].clone(); // the same query in both searches: a tie
                }
            }
            int limit = 1 + random.nextInt(25);
            List<ArtMatcher.Match> merged = List.of();
            int done = 0;
            while (done < queries.length) {
                int batch = 1 + random.nextInt(queries.length - done);
                byte[][] some = java.util.Arrays.copyOfRange(queries, done, done + batch);
                merged = done == 0 ? matcher.nearest(some, limit)
                        : ArtMatcher.merged(merged, matcher.nearest(some, limit), done, limit);
                done += batch;
            }
            assertEquals(matcher.nearest(queries, limit), merged, "trial " + trial);
        }
    }

    /** {@code count} artworks around one random fingerprint, each with up to {@code maxFlips} of its bits flipped. */
    private static List<ArtIndexFile.Entry> clustered(Random random, int count, int maxFlips) {
        List<ArtIndexFile.Entry> entries = new ArrayList<>();
        byte[] centre = new byte[128];
        random.nextBytes(centre);
        for (int k = 0; k < count; k++) {
            byte[] fp = flipped(random, centre, maxFlips);
            entries.add(new ArtIndexFile.Entry(new UUID(random.nextLong(), random.nextLong()), fp));
        }
        return entries;
    }

    /** A copy of {@code fingerprint} with up to {@code maxFlips} random bits flipped. */
    private static byte[] flipped(Random random, byte[] fingerprint, int maxFlips) {
        byte[] fp = fingerprint.clone();
        for (int flips = random.nextInt(maxFlips); flips > 0; flips--) {
            int bit = random.nextInt(1024);
            fp[bit >> 3] ^= (byte) (0x80 >>> (bit & 7));
        }
        return fp;
    }

    @Test
    void agreesWithTheExhaustiveScanOnRandomCaptures() {
        agreesWithTheExhaustiveScan(2_000, 2_000, 15);
    }

    @Test
    void agreesWithTheExhaustiveScanAcrossBlocks() {
        // Two whole blocks of the scan and a part of a third, so artworks on both sides of each block boundary compete.
        agreesWithTheExhaustiveScan(2 * ArtMatcher.BLOCK + 501, 200, 16);
    }

    /**
     * Captures as the match endpoint makes them: 24 query fingerprints, 4 turns x 6 offsets. In most, one turn's
     * six are an indexed artwork with 0-350 bits flipped (a photo of it) and the others are unrelated; in a fifth,
     * all 24 are unrelated (no card in the index). The index has clusters, so distances often tie: the run must
     * have met ties at the limit's cut (the last artwork kept and the first left out equally near, where only the
     * position decides) in at least one capture of five (about two in five do), or it shows nothing about them.
     */
    private static void agreesWithTheExhaustiveScan(int artworks, int captures, long seed) {
        Random random = new Random(seed);
        List<ArtIndexFile.Entry> entries = new ArrayList<>();
        byte[][] centres = new byte[20][128];
        for (byte[] centre : centres) {
            random.nextBytes(centre);
        }
        for (int k = 0; k < artworks; k++) {
            byte[] fp = k % 2 == 0 ? centres[random.nextInt(centres.length)].clone() : new byte[128];
            if (k % 2 == 0) {
                flip(fp, random.nextInt(500), random);
            } else {
                random.nextBytes(fp);
            }
            entries.add(new ArtIndexFile.Entry(new UUID(random.nextLong(), random.nextLong()), fp));
        }
        ArtMatcher matcher = ArtMatcher.of(DIGEST, entries);
        List<ArtIndexFile.Entry> sorted = new ArrayList<>(entries);
        sorted.sort(Comparator.comparing(ArtIndexFile.Entry::artworkId, ArtIndexFile.ID_ORDER));
        long[][] index = sorted.stream().map(e -> ArtFingerprint.toLongs(e.fingerprint())).toArray(long[][]::new);

        int tiesAtTheCut = 0;
        for (int capture = 0; capture < captures; capture++) {
            byte[][] queries = new byte[24][];
            int turn = random.nextInt(5); // 4: no photo of an indexed artwork
            byte[] photographed = sorted.get(random.nextInt(sorted.size())).fingerprint();
            for (int k = 0; k < queries.length; k++) {
                if (k / 6 == turn) {
                    queries[k] = photographed.clone();
                    flip(queries[k], random.nextInt(350), random);
                } else {
                    queries[k] = new byte[128];
                    random.nextBytes(queries[k]);
                }
            }
            int limit = capture % 10 == 0 ? 1 + random.nextInt(40) : 10;
            List<ArtMatcher.Match> expected = exhaustive(index, sorted, queries, limit + 1);
            if (expected.get(limit).distance() == expected.get(limit - 1).distance()) {
                tiesAtTheCut++;
            }
            assertEquals(expected.subList(0, limit), matcher.nearest(queries, limit), "capture " + capture);
        }
        assertTrue(tiesAtTheCut * 5 >= captures, tiesAtTheCut + " captures of " + captures + " tie at the cut");
    }

    /**
     * Every artwork's distance to every query, the smallest kept (the first query on a tie), all sorted by
     * (distance, position): the definition of the search, without any shortcut.
     */
    private static List<ArtMatcher.Match> exhaustive(long[][] index, List<ArtIndexFile.Entry> sorted,
            byte[][] queries, int limit) {
        long[][] q = new long[queries.length][];
        for (int k = 0; k < queries.length; k++) {
            q[k] = ArtFingerprint.toLongs(queries[k]);
        }
        long[] keys = new long[index.length];
        for (int a = 0; a < index.length; a++) {
            int best = Integer.MAX_VALUE;
            int bestQuery = -1;
            for (int k = 0; k < q.length; k++) {
                int distance = 0;
                for (int w = 0; w < 16; w++) {
                    distance += Long.bitCount(index[a][w] ^ q[k][w]);
                }
                if (distance < best) {
                    best = distance;
                    bestQuery = k;
                }
            }
            keys[a] = (long) best << 40 | (long) a << 8 | bestQuery;
        }
        java.util.Arrays.sort(keys);
        List<ArtMatcher.Match> matches = new ArrayList<>();
        for (int r = 0; r < Math.min(limit, keys.length); r++) {
            int distance = (int) (keys[r] >>> 40);
            matches.add(new ArtMatcher.Match(sorted.get((int) (keys[r] >>> 8)).artworkId(), distance,
                    distance <= 300, (int) (keys[r] & 0xFF)));
        }
        return matches;
    }

    private static void flip(byte[] fingerprint, int bits, Random random) {
        for (int k = 0; k < bits; k++) {
            int bit = random.nextInt(1024);
            fingerprint[bit >> 3] ^= (byte) (0x80 >>> (bit & 7));
        }
    }

    @Test
    void reproducesTheSearchOfCollectorsScanner() {
        // vectors.json: art.js parseIndex + search over the six pictures' zero-offset fingerprints.
        JsonNode json = FingerprintVectors.json();
        List<String> files = new ArrayList<>();
        List<ArtIndexFile.Entry> entries = new ArrayList<>();
        int n = 1;
        for (JsonNode picture : json.get("images")) {
            files.add(picture.get("file").asText());
            entries.add(new ArtIndexFile.Entry(UUID.fromString("00000000-0000-4000-8000-00000000000" + n++),
                    HexFormat.of().parseHex(picture.get("fingerprints").get(0).get("hex").asText())));
        }
        ArtMatcher matcher = ArtMatcher.of(DIGEST, entries);
        for (JsonNode result : json.get("hamming").get("searchWithArtJs").get("results")) {
            RgbImage query = FingerprintVectors.png(result.get("query").asText());
            List<ArtMatcher.Match> matches = matcher.nearest(ArtFingerprint.queries(query), 10);
            JsonNode expected = result.get("nearest");
            assertEquals(expected.size(), matches.size());
            for (int k = 0; k < expected.size(); k++) {
                int position = files.indexOf(expected.get(k).get("file").asText());
                assertEquals(entries.get(position).artworkId(), matches.get(k).artworkId(), "rank " + k);
                assertEquals(expected.get(k).get("distance").asInt(), matches.get(k).distance(), "rank " + k);
            }
        }
    }

    @Test
    void loadsAnIndexFile(@TempDir Path dir) throws Exception {
        List<ArtIndexFile.Entry> entries = ArtIndexFileTest.entries(50, 3);
        Path file = ArtIndexFile.write(dir, "v1", DIGEST, entries).file();

        ArtMatcher matcher = ArtMatcher.load(file, DIGEST);

        assertEquals(50, matcher.size());
        assertEquals(DIGEST, matcher.digest());
        assertEquals(entries.get(9).artworkId(),
                matcher.nearest(new byte[][] {entries.get(9).fingerprint()}, 1).get(0).artworkId());
        assertThrows(ArtIndexFormatException.class, () -> ArtMatcher.load(file, "0000000000000000"));
    }

    @Test
    void handlesLimitsAndBadQueries() {
        ArtMatcher matcher = ArtMatcher.of(DIGEST, ArtIndexFileTest.entries(5, 4));
        byte[][] query = {new byte[128]};
        assertEquals(List.of(), matcher.nearest(query, 0));
        assertEquals(5, matcher.nearest(query, 100).size());
        assertEquals(List.of(), ArtMatcher.of(DIGEST, List.of()).nearest(query, 10));
        assertThrows(IllegalArgumentException.class, () -> matcher.nearest(new byte[0][], 10));
        assertThrows(IllegalArgumentException.class, () -> matcher.nearest(new byte[][] {new byte[64]}, 10));
        assertThrows(IllegalArgumentException.class, () -> matcher.nearest(query, -1));
        assertFalse(matcher.nearest(query, 1).isEmpty());
    }

    static List<ArtMatcher.Match> bruteForce(List<ArtIndexFile.Entry> sorted, byte[][] queries, int limit) {
        record Scored(int position, int distance, int query) {
        }
        List<Scored> scored = new ArrayList<>();
        for (int k = 0; k < sorted.size(); k++) {
            int best = Integer.MAX_VALUE;
            int bestQuery = -1;
            for (int q = 0; q < queries.length; q++) {
                int distance = ArtFingerprint.hamming(queries[q], sorted.get(k).fingerprint());
                if (distance < best) {
                    best = distance;
                    bestQuery = q;
                }
            }
            scored.add(new Scored(k, best, bestQuery));
        }
        scored.sort(Comparator.comparingInt(Scored::distance).thenComparingInt(Scored::position));
        return scored.stream().limit(limit)
                .map(s -> new ArtMatcher.Match(sorted.get(s.position()).artworkId(), s.distance(), s.distance() <= 300,
                        s.query()))
                .toList();
    }

    /** A fingerprint with {@code count} bits set, starting at bit {@code from} (wrapping). */
    private static byte[] bits(int count, int from) {
        byte[] fp = new byte[128];
        for (int k = 0; k < count; k++) {
            int bit = (from + k) % 1024;
            fp[bit >> 3] |= (byte) (0x80 >>> (bit & 7));
        }
        return fp;
    }

    private static ArtIndexFile.Entry entry(UUID id, byte[] fingerprint) {
        return new ArtIndexFile.Entry(id, fingerprint);
    }
}
