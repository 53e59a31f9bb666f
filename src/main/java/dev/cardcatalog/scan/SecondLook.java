package dev.cardcatalog.scan;

import dev.cardcatalog.art.ArtMatcher;
import dev.cardcatalog.art.ArtPicture;
import dev.cardcatalog.art.ArtPictures;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.IntFunction;

/**
 * The second look at a card the fingerprint leaves {@link MatchStatus#AMBIGUOUS} (SERVICE.md §5.11 item 14,
 * FINGERPRINT.md §13): the card's art box, as a picture ({@link ArtPicture}), is compared with the stored picture of
 * each artwork it is ambiguous among, on the cells the photo's glare leaves readable, and the card becomes
 * {@link MatchStatus#CONFIDENT} of one of them when that one is alike enough and clearly more alike than any other.
 *
 * <p>The candidates are the card's nearest artworks within {@link MatchStatus#MARGIN} bits of the nearest: those
 * that kept it from being confident. Each is compared through the query fingerprint that gave its own distance (its
 * outline, turn and offset), since that is where the card's art box lay for it. An artwork with no stored picture
 * (its image failed in the art build, or the build has not made pictures yet) counts as unlike (similarity 0) and is
 * never chosen; a card none of whose candidates has a picture gets no verdict. Every candidate is judged on the
 * same cells: those readable ({@link ArtPicture#readable}) through every query it looks through. Thread-safe.
 *
 * <p>The rule ({@value #SIMILAR} alike, {@value #MARGIN} ahead) was chosen on 200 photos a row of the art benchmark
 * and checked on 1,000 a row, among them 4,000 photos of art left out of the index (docs/design/FINGERPRINT.md,
 * card-catalog's note, "The second look"; docs/benchmarks.md, "Whole photos and binder pages").
 */
public final class SecondLook {

    /** The least similarity ({@link ArtPicture#similarity}) of the artwork chosen. */
    static final double SIMILAR = 0.80;

    /** By how much the artwork chosen must be more alike than every other candidate. */
    static final double MARGIN = 0.20;

    /**
     * What the second look saw of one card.
     *
     * @param candidates the artworks compared, in the order of the fingerprint (nearest first)
     * @param similarity each one's similarity, in the same order (0 for one without a stored picture)
     * @param readable   how many of the photo's {@link ArtPicture#CELLS} cells were compared
     * @param chosen     the index in {@code candidates} of the artwork the card is confident of, or −1
     */
    public record Verdict(List<ArtMatcher.Match> candidates, double[] similarity, int readable, int chosen) {

        /** The most alike candidate's index. */
        public int best() {
            int best = 0;
            for (int k = 1; k < similarity.length; k++) {
                if (similarity[k] > similarity[best]) {
                    best = k;
                }
            }
            return best;
        }

        /** The highest similarity of the others than {@code k}; −1 when there is no other. */
        public double nextTo(int k) {
            double next = -1;
            for (int j = 0; j < similarity.length; j++) {
                if (j != k) {
                    next = Math.max(next, similarity[j]);
                }
            }
            return next;
        }
    }

    private final ArtPictures pictures;
    private final Consumer<Verdict> seen;

    /** A second look reading artworks' pictures from {@code pictures}. */
    public SecondLook(ArtPictures pictures) {
        this(pictures, verdict -> { });
    }

    /** As {@link #SecondLook(ArtPictures)}, each verdict also handed to {@code seen} (benchmarks). */
    public SecondLook(ArtPictures pictures, Consumer<Verdict> seen) {
        this.pictures = pictures;
        this.seen = seen;
    }

    /**
     * The verdict on a card whose nearest artworks are {@code nearest} (status {@link MatchStatus#AMBIGUOUS}).
     *
     * @param photoPicture the card's picture through query fingerprint {@code q} ({@link ArtMatcher.Match#query}),
     *                     null when it cannot be made
     * @return the verdict; null when no candidate has a stored picture
     */
    Verdict judge(List<ArtMatcher.Match> nearest, IntFunction<byte[]> photoPicture) {
        int within = nearest.get(0).distance() + MatchStatus.MARGIN;
        List<ArtMatcher.Match> candidates = nearest.stream().filter(m -> m.distance() < within).toList();
        Map<UUID, byte[]> stored = pictures.of(candidates.stream().map(ArtMatcher.Match::artworkId).toList());
        if (stored.isEmpty()) {
            return null;
        }
        Map<Integer, byte[]> photoByQuery = new HashMap<>();
        boolean[] cells = new boolean[ArtPicture.CELLS];
        Arrays.fill(cells, true);
        for (ArtMatcher.Match m : candidates) {
            if (stored.containsKey(m.artworkId()) && !photoByQuery.containsKey(m.query())) {
                byte[] picture = photoPicture.apply(m.query());
                photoByQuery.put(m.query(), picture);
                if (picture != null) {
                    boolean[] readable = ArtPicture.readable(picture);
                    for (int c = 0; c < cells.length; c++) {
                        cells[c] &= readable[c];
                    }
                }
            }
        }
        double[] similarity = new double[candidates.size()];
        int readable = 0;
        for (boolean c : cells) {
            readable += c ? 1 : 0;
        }
        for (int k = 0; k < candidates.size(); k++) {
            ArtMatcher.Match m = candidates.get(k);
            byte[] artwork = stored.get(m.artworkId());
            byte[] photo = photoByQuery.get(m.query());
            similarity[k] = artwork == null || photo == null ? 0 : ArtPicture.similarity(photo, artwork, cells);
        }
        Verdict open = new Verdict(candidates, similarity, readable, -1);
        int best = open.best();
        boolean sure = stored.containsKey(candidates.get(best).artworkId()) && similarity[best] >= SIMILAR
                && similarity[best] - open.nextTo(best) >= MARGIN && candidates.size() > 1;
        Verdict verdict = sure ? new Verdict(candidates, similarity, readable, best) : open;
        seen.accept(verdict);
        return verdict;
    }
}
