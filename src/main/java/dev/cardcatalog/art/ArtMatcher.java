package dev.cardcatalog.art;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * An immutable in-memory art index that finds the artworks nearest to a capture (SERVICE.md §5.9, FINGERPRINT.md
 * §8).
 *
 * <p>An artwork's distance to a query is the <em>smallest</em> Hamming distance between its zero-offset
 * fingerprint and any of the query fingerprints (for an uploaded photo the 12 or 24 of {@link CaptureQueries}:
 * six offsets of two or four turns; Collector's scanner sends the six of {@link ArtFingerprint#queries}). Each
 * match says which query gave its distance. Results are ordered by (distance, position in the index), the index
 * being sorted by artwork id, exactly as Collector's browser search orders them. A match is <em>confident</em>
 * when its distance is at most {@value #CONFIDENT_DISTANCE} bits (Collector's {@code ART_MARGIN}, inclusive).
 *
 * <p>The scan is exhaustive and single-threaded: every artwork's distance to every query is computed in full, so the
 * answer is the definition's, with no bound to get wrong. The fingerprints are held in blocks, column by column (word
 * {@code w} of every artwork in one {@code int[]}), and the scan goes over blocks of {@value #BLOCK} artworks in
 * loops that C2 compiles to vector instructions, 16 artworks per instruction (see {@code scanBlock}). Pruned
 * searches were measured and not kept: on these fingerprints the tenth-nearest artwork, which bounds the search, is
 * still 310–400 bits away while unrelated art is 450–520 away, so no lower bound cheaper than the distance itself
 * rules out enough artworks to pay for itself (docs/benchmarks.md, "Why the scan is not pruned"). Thread-safe.
 */
public final class ArtMatcher {

    /** The largest distance, in bits, of a confident match (inclusive). */
    public static final int CONFIDENT_DISTANCE = 300;

    /** The most query fingerprints one search takes. */
    public static final int MAX_QUERIES = 255;

    /** Artworks scanned together: every query goes over one block before the next block is read. */
    static final int BLOCK = 4096;

    /** 32-bit words in a fingerprint. */
    private static final int WORDS = ArtFingerprint.BYTES / 4;

    private static final VarHandle INT_BE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);

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
    /**
     * The fingerprints in blocks of {@value #BLOCK} artworks, column by column: {@code blocks[b][w][i]} is 32-bit
     * word {@code w} (big-endian, of bytes 4w..4w+3) of the artwork at position {@code b * BLOCK + i}.
     */
    private final int[][][] blocks;

    private ArtMatcher(String digest, List<ArtIndexFile.Entry> sorted) {
        this.digest = digest;
        int n = sorted.size();
        this.idHigh = new long[n];
        this.idLow = new long[n];
        this.blocks = new int[(n + BLOCK - 1) / BLOCK][][];
        for (int b = 0; b < blocks.length; b++) {
            blocks[b] = new int[WORDS][Math.min(BLOCK, n - b * BLOCK)];
        }
        for (int k = 0; k < n; k++) {
            ArtIndexFile.Entry entry = sorted.get(k);
            idHigh[k] = entry.artworkId().getMostSignificantBits();
            idLow[k] = entry.artworkId().getLeastSignificantBits();
            for (int w = 0; w < WORDS; w++) {
                blocks[k / BLOCK][w][k % BLOCK] = (int) INT_BE.get(entry.fingerprint(), w * 4);
            }
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
     * @param queryFingerprints one or more 128-byte fingerprints of the capture (for an upload the 12 or
     *                          24 of {@link CaptureQueries#of}; Collector's scanner sends six)
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
        final int queries = queryFingerprints.length;
        final int[] q = new int[queries * WORDS];
        for (int k = 0; k < queries; k++) {
            if (queryFingerprints[k] == null || queryFingerprints[k].length != ArtFingerprint.BYTES) {
                throw new IllegalArgumentException("a query fingerprint is " + ArtFingerprint.BYTES + " bytes");
            }
            for (int w = 0; w < WORDS; w++) {
                q[k * WORDS + w] = (int) INT_BE.get(queryFingerprints[k], w * 4);
            }
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
        // Scratch indexed like a block's columns (see scanBlock): dist holds running sums, best
        // (distance << 8 | query).
        final int[] dist = new int[BLOCK];
        final int[] best = new int[BLOCK];
        for (int b = 0; b < blocks.length; b++) {
            final int length = blocks[b][0].length;
            scanBlock(blocks[b], q, queries, length, dist, best);
            for (int i = 0; i < length; i++) {
                final int distance = best[i] >>> 8;
                if (distance < bound) {
                    long key = ((long) distance << 40) | ((long) (b * BLOCK + i) << 8) | (best[i] & 0xFF);
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

    /**
     * The {@code limit} nearest artworks of two searches of one index taken together: what one {@link #nearest} call
     * over the first search's query fingerprints followed by the second's gives, so a capture can be searched a few
     * queries at a time and stopped early. Each list must be a {@link #nearest} answer with at least {@code limit}
     * entries unless it holds the whole index (an artwork kept by neither is then farther than all that are kept).
     *
     * @param first        the nearest artworks of the first queries
     * @param second       the nearest artworks of the queries after them
     * @param secondOffset how many queries the first search had: the second's {@link Match#query} is shifted by it
     * @param limit        the most matches returned
     * @return at most {@code limit} matches ordered by (distance, artwork id in the index's order), each at its
     *         smaller distance of the two and with the query that gave it (the first search's on a tie)
     */
    public static List<Match> merged(List<Match> first, List<Match> second, int secondOffset, int limit) {
        Map<UUID, Match> best = new HashMap<>();
        for (Match m : first) {
            best.put(m.artworkId(), m);
        }
        for (Match m : second) {
            Match shifted = new Match(m.artworkId(), m.distance(), m.confident(), m.query() + secondOffset);
            best.merge(m.artworkId(), shifted, (a, b) -> b.distance() < a.distance() ? b : a);
        }
        List<Match> all = new ArrayList<>(best.values());
        all.sort(Comparator.comparingInt(Match::distance).thenComparing(Match::artworkId, ArtIndexFile.ID_ORDER));
        return List.copyOf(all.subList(0, Math.min(limit, all.size())));
    }

    /**
     * Sets {@code best[a]} to {@code distance << 8 | query}, minimised over the queries (the first query on a
     * tie), for every artwork {@code 0 <= a < length} of one block ({@code c[w][a]}: word {@code w} of artwork
     * {@code a}).
     *
     * <p>Every loop here runs over artworks, with each array read at the same index {@code a}: that is the shape
     * HotSpot's C2 compiler turns into vector instructions (SuperWord), so the XOR, the population count
     * ({@code VPOPCNTD} on CPUs with AVX-512 VPOPCNTDQ) and the sums work on 16 artworks at once. Four words are
     * summed per pass so that {@code dist} is read and written once per four words (eight a pass ran slower), and the
     * minimum is taken in a loop of its own (folding it into the last pass ran a third slower). A block of
     * {@value #BLOCK} artworks (512 KiB of fingerprints) stays in the core's L2 cache while all the queries go over
     * it. On a CPU without a vector population count the same loops run scalar, with the same results.
     */
    private static void scanBlock(int[][] c, int[] q, int queries, int length, int[] dist, int[] best) {
        for (int query = 0; query < queries; query++) {
            final int qb = query * WORDS;
            {
                final int[] c0 = c[0];
                final int[] c1 = c[1];
                final int[] c2 = c[2];
                final int[] c3 = c[3];
                final int q0 = q[qb];
                final int q1 = q[qb + 1];
                final int q2 = q[qb + 2];
                final int q3 = q[qb + 3];
                for (int a = 0; a < length; a++) {
                    dist[a] = Integer.bitCount(c0[a] ^ q0) + Integer.bitCount(c1[a] ^ q1)
                            + Integer.bitCount(c2[a] ^ q2) + Integer.bitCount(c3[a] ^ q3);
                }
            }
            for (int w = 4; w < WORDS; w += 4) {
                final int[] c0 = c[w];
                final int[] c1 = c[w + 1];
                final int[] c2 = c[w + 2];
                final int[] c3 = c[w + 3];
                final int q0 = q[qb + w];
                final int q1 = q[qb + w + 1];
                final int q2 = q[qb + w + 2];
                final int q3 = q[qb + w + 3];
                for (int a = 0; a < length; a++) {
                    dist[a] += Integer.bitCount(c0[a] ^ q0) + Integer.bitCount(c1[a] ^ q1)
                            + Integer.bitCount(c2[a] ^ q2) + Integer.bitCount(c3[a] ^ q3);
                }
            }
            if (query == 0) {
                for (int a = 0; a < length; a++) {
                    best[a] = dist[a] << 8;
                }
            } else {
                for (int a = 0; a < length; a++) {
                    best[a] = Math.min(best[a], dist[a] << 8 | query);
                }
            }
        }
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
