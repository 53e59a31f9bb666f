package dev.cardcatalog.art;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * An immutable in-memory art index that finds the artworks nearest to a capture (SERVICE.md §5.9, FINGERPRINT.md
 * §8).
 *
 * <p>An artwork's distance to a query is the <em>smallest</em> Hamming distance between its zero-offset
 * fingerprint and any of the query fingerprints (for an uploaded photo the 24 of {@link CaptureQueries}: six
 * offsets of four turns; Collector's scanner sends the six of {@link ArtFingerprint#queries}). Each match says which
 * query gave its distance. Results are ordered by (distance, position in the index), the index being sorted by
 * artwork id, exactly as Collector's browser search orders them. A match is <em>confident</em> when its distance is
 * at most {@value #CONFIDENT_DISTANCE} bits (Collector's {@code ART_MARGIN}, inclusive).
 *
 * <p>The scan is exhaustive and single-threaded over a flat {@code long[]} of fingerprints (16 words each): every
 * artwork's distance to every query is computed in full. Pruned searches were measured and not kept: on these
 * fingerprints the tenth-nearest artwork, which bounds the search, is still 310–400 bits away while unrelated art
 * is 450–520 away, so neither partial sums nor bounds over bits the queries share rule out enough pairs to pay for
 * themselves (docs/benchmarks.md, "Why the scan is not pruned"). Thread-safe.
 */
public final class ArtMatcher {

    /** The largest distance, in bits, of a confident match (inclusive). */
    public static final int CONFIDENT_DISTANCE = 300;

    /** The most query fingerprints one search takes. */
    public static final int MAX_QUERIES = 255;

    /**
     * One nearby artwork.
     *
     * @param artworkId the artwork (Scryfall {@code illustration_id})
     * @param distance  smallest Hamming distance over the query fingerprints, 0–1,024 bits
     * @param confident whether {@code distance <= 300}
     * @param query     which of the query fingerprints gave the distance: its index in the array passed to
     *                  {@link #nearest}, the first one when several give the same distance
     */
    public record Match(UUID artworkId, int distance, boolean confident, int query) {

        /** A match found by the first query fingerprint. */
        public Match(UUID artworkId, int distance, boolean confident) {
            this(artworkId, distance, confident, 0);
        }
    }

    private final String digest;
    private final long[] idHigh;
    private final long[] idLow;
    private final long[] fingerprints;

    private ArtMatcher(String digest, List<ArtIndexFile.Entry> sorted) {
        this.digest = digest;
        int n = sorted.size();
        this.idHigh = new long[n];
        this.idLow = new long[n];
        this.fingerprints = new long[n * ArtFingerprint.LONGS];
        for (int k = 0; k < n; k++) {
            ArtIndexFile.Entry entry = sorted.get(k);
            idHigh[k] = entry.artworkId().getMostSignificantBits();
            idLow[k] = entry.artworkId().getLeastSignificantBits();
            ArtFingerprint.toLongs(entry.fingerprint(), fingerprints, k * ArtFingerprint.LONGS);
        }
    }

    /**
     * An index of {@code entries}, sorted here by artwork id.
     *
     * @param digest the settings digest the fingerprints were made with
     * @throws IllegalArgumentException if an artwork id appears twice
     */
    public static ArtMatcher of(String digest, Collection<ArtIndexFile.Entry> entries) {
        List<ArtIndexFile.Entry> sorted = new ArrayList<>(entries);
        sorted.sort(Comparator.comparing(ArtIndexFile.Entry::artworkId, ArtIndexFile.ID_ORDER));
        for (int k = 1; k < sorted.size(); k++) {
            if (sorted.get(k - 1).artworkId().equals(sorted.get(k).artworkId())) {
                throw new IllegalArgumentException("artwork " + sorted.get(k).artworkId() + " appears twice");
            }
        }
        return new ArtMatcher(Objects.requireNonNull(digest, "digest"), sorted);
    }

    /**
     * Loads an index file written by {@link ArtIndexFile#write}.
     *
     * @throws ArtIndexFormatException if the file is not a valid index at {@code expectedDigest}
     */
    public static ArtMatcher load(Path indexFile, String expectedDigest) throws IOException {
        ArtIndexFile.Contents contents = ArtIndexFile.read(indexFile, expectedDigest);
        return new ArtMatcher(contents.digest(), contents.entries());
    }

    /** The settings digest of the fingerprints. */
    public String digest() {
        return digest;
    }

    /** The number of artworks. */
    public int size() {
        return idHigh.length;
    }

    /**
     * The {@code limit} artworks nearest to the query, nearest first.
     *
     * @param queryFingerprints one or more 128-byte fingerprints of the capture (for an upload the 24 of
     *                          {@link CaptureQueries#of}; Collector's scanner sends six)
     * @param limit             the most matches returned (Collector sends 10); 0 gives an empty list
     * @return at most {@code min(limit, size())} matches ordered by (distance, index position)
     * @throws IllegalArgumentException if there is no query fingerprint or more than {@value #MAX_QUERIES}, one is
     *                                  not 128 bytes, or limit &lt; 0
     */
    public List<Match> nearest(byte[][] queryFingerprints, int limit) {
        if (queryFingerprints == null || queryFingerprints.length == 0) {
            throw new IllegalArgumentException("at least one query fingerprint is needed");
        }
        if (queryFingerprints.length > MAX_QUERIES) {
            throw new IllegalArgumentException("at most " + MAX_QUERIES + " query fingerprints");
        }
        if (limit < 0) {
            throw new IllegalArgumentException("limit must not be negative");
        }
        final int words = ArtFingerprint.LONGS;
        final int queries = queryFingerprints.length;
        final long[] q = new long[queries * words];
        for (int k = 0; k < queries; k++) {
            if (queryFingerprints[k] == null || queryFingerprints[k].length != ArtFingerprint.BYTES) {
                throw new IllegalArgumentException("a query fingerprint is " + ArtFingerprint.BYTES + " bytes");
            }
            ArtFingerprint.toLongs(queryFingerprints[k], q, k * words);
        }
        final int n = size();
        final int k = Math.min(limit, n);
        if (k == 0) {
            return List.of();
        }

        // A max-heap of the k best so far, keyed (distance << 40 | position << 8 | query): the root is the worst
        // kept. The query does not take part in the order: (distance, position) is unique.
        final long[] heap = new long[k];
        int held = 0;
        // An artwork enters only with distance < bound. A tie with the worst kept loses: it has a later position.
        int bound = ArtFingerprint.BITS + 1;
        final long[] f = fingerprints;
        final int pairs = queries / 2 * 2 * words;
        final int end = queries * words;
        for (int a = 0, base = 0; a < n; a++, base += words) {
            // Every distance is computed in full, with no branch: on this data a partial sum almost never rules a
            // query out (docs/benchmarks.md), and a branch that goes either way costs more than the words it saves.
            // The first half of the artwork's words stay in registers; two queries are taken together for more
            // independent work per loaded word. best packs (distance << 8 | query), so its minimum is the smallest
            // distance and, among equal ones, the first query.
            final long a0 = f[base];
            final long a1 = f[base + 1];
            final long a2 = f[base + 2];
            final long a3 = f[base + 3];
            final long a4 = f[base + 4];
            final long a5 = f[base + 5];
            final long a6 = f[base + 6];
            final long a7 = f[base + 7];
            int best = Integer.MAX_VALUE;
            int qb = 0;
            for (int query = 0; qb < pairs; qb += 2 * words, query += 2) {
                final int qc = qb + words;
                int d = (Long.bitCount(a0 ^ q[qb]) + Long.bitCount(a1 ^ q[qb + 1]))
                        + (Long.bitCount(a2 ^ q[qb + 2]) + Long.bitCount(a3 ^ q[qb + 3]))
                        + (Long.bitCount(a4 ^ q[qb + 4]) + Long.bitCount(a5 ^ q[qb + 5]))
                        + (Long.bitCount(a6 ^ q[qb + 6]) + Long.bitCount(a7 ^ q[qb + 7]));
                int e = (Long.bitCount(a0 ^ q[qc]) + Long.bitCount(a1 ^ q[qc + 1]))
                        + (Long.bitCount(a2 ^ q[qc + 2]) + Long.bitCount(a3 ^ q[qc + 3]))
                        + (Long.bitCount(a4 ^ q[qc + 4]) + Long.bitCount(a5 ^ q[qc + 5]))
                        + (Long.bitCount(a6 ^ q[qc + 6]) + Long.bitCount(a7 ^ q[qc + 7]));
                final long a8 = f[base + 8];
                final long a9 = f[base + 9];
                final long a10 = f[base + 10];
                final long a11 = f[base + 11];
                final long a12 = f[base + 12];
                final long a13 = f[base + 13];
                final long a14 = f[base + 14];
                final long a15 = f[base + 15];
                d += (Long.bitCount(a8 ^ q[qb + 8]) + Long.bitCount(a9 ^ q[qb + 9]))
                        + (Long.bitCount(a10 ^ q[qb + 10]) + Long.bitCount(a11 ^ q[qb + 11]))
                        + (Long.bitCount(a12 ^ q[qb + 12]) + Long.bitCount(a13 ^ q[qb + 13]))
                        + (Long.bitCount(a14 ^ q[qb + 14]) + Long.bitCount(a15 ^ q[qb + 15]));
                e += (Long.bitCount(a8 ^ q[qc + 8]) + Long.bitCount(a9 ^ q[qc + 9]))
                        + (Long.bitCount(a10 ^ q[qc + 10]) + Long.bitCount(a11 ^ q[qc + 11]))
                        + (Long.bitCount(a12 ^ q[qc + 12]) + Long.bitCount(a13 ^ q[qc + 13]))
                        + (Long.bitCount(a14 ^ q[qc + 14]) + Long.bitCount(a15 ^ q[qc + 15]));
                best = Math.min(best, Math.min(d << 8 | query, e << 8 | (query + 1)));
            }
            if (qb < end) { // an odd number of queries: the last one alone
                int d = 0;
                for (int w = 0; w < words; w++) {
                    d += Long.bitCount(f[base + w] ^ q[qb + w]);
                }
                best = Math.min(best, d << 8 | (queries - 1));
            }
            final int bestQuery = best & 0xFF;
            best >>>= 8;
            if (best < bound) {
                long key = ((long) best << 40) | ((long) a << 8) | bestQuery;
                if (held < k) {
                    heap[held] = key;
                    siftUp(heap, held++);
                } else {
                    heap[0] = key;
                    siftDown(heap, held);
                }
                if (held == k) {
                    bound = (int) (heap[0] >>> 40);
                }
            }
        }

        long[] keys = Arrays.copyOf(heap, held);
        Arrays.sort(keys);
        List<Match> matches = new ArrayList<>(held);
        for (long key : keys) {
            int distance = (int) (key >>> 40);
            int position = (int) (key >>> 8);
            matches.add(new Match(new UUID(idHigh[position], idLow[position]), distance,
                    distance <= CONFIDENT_DISTANCE, (int) (key & 0xFF)));
        }
        return List.copyOf(matches);
    }

    private static void siftUp(long[] heap, int i) {
        long v = heap[i];
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (heap[parent] >= v) {
                break;
            }
            heap[i] = heap[parent];
            i = parent;
        }
        heap[i] = v;
    }

    private static void siftDown(long[] heap, int size) {
        long v = heap[0];
        int i = 0;
        while (true) {
            int child = 2 * i + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && heap[child + 1] > heap[child]) {
                child++;
            }
            if (heap[child] <= v) {
                break;
            }
            heap[i] = heap[child];
            i = child;
        }
        heap[i] = v;
    }
}
