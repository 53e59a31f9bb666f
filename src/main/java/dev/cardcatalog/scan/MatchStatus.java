package dev.cardcatalog.scan;

import com.fasterxml.jackson.annotation.JsonValue;
import dev.cardcatalog.art.ArtMatcher;
import java.util.List;
import java.util.Locale;

/**
 * How sure the match is of a card found in a photo (SERVICE.md §5.11): never {@link #CONFIDENT} for a card whose art
 * is not in the index. The rule, measured on captures of art left out of the index beside captures of indexed art
 * (docs/design/FINGERPRINT.md, card-catalog's note; docs/benchmarks.md):
 * <ul>
 *   <li>{@link #CONFIDENT}: the nearest artwork is within {@value #NEAR} bits, and the nearest <em>other</em>
 *       artwork is at least {@value #MARGIN} bits farther;</li>
 *   <li>{@link #AMBIGUOUS}: the nearest artwork is within {@value #NEAR} bits, but another is within
 *       {@value #MARGIN} bits of it: two or more artworks are close;</li>
 *   <li>{@link #UNKNOWN}: no artwork is within {@value #NEAR} bits.</li>
 * </ul>
 * A card this rule leaves {@link #AMBIGUOUS} may still be answered {@link #CONFIDENT} by the match's second look
 * ({@link SecondLook}, with a rule of its own measured the same way).
 *
 * <p>Distances are those of {@link ArtMatcher#nearest}: the smallest over all the card's query fingerprints, so the
 * nearest other artwork is the nearest over every outline and turn tried for the card. Each outline tried gives
 * unrelated artworks one more chance to come near. A margin through the one outline that found the nearest
 * artwork alone (its look margin) was measured as evidence for {@link #CONFIDENT} and is not taken: on photos it
 * was not chosen on, cards of art not in the index had look margins of up to 104 bits (docs/design/FINGERPRINT.md's
 * note).
 */
public enum MatchStatus {
    CONFIDENT, AMBIGUOUS, UNKNOWN;

    /** Bits within which an artwork is close to the card. */
    public static final int NEAR = 300;

    /**
     * Bits by which the nearest artwork must be nearer than every other for the card to be confident. Measured over
     * 50,000 artworks (docs/benchmarks.md, "How the status rule was chosen"; FINGERPRINT.md's note): the smallest
     * margin that made no card confident and wrong, of 5,794 cards of indexed art and 4,000 photos of art left out of
     * the index. The widest margin a wrong nearest artwork had was 90 bits (a harsh guide crop of missing art, 289
     * bits against 379).
     */
    public static final int MARGIN = 100;

    /**
     * The status of a card whose nearest artworks are {@code nearest}, nearest first.
     *
     * @param nearest the nearest artworks (one entry per artwork), possibly empty
     */
    public static MatchStatus of(List<ArtMatcher.Match> nearest) {
        if (nearest.isEmpty()) {
            return UNKNOWN;
        }
        return of(nearest.get(0).distance(), nearest.size() > 1 ? nearest.get(1).distance() : Integer.MAX_VALUE,
                NEAR, MARGIN);
    }

    /**
     * The status by this rule with other bounds (the benchmark's candidate rules; {@link #of(List)} uses
     * {@link #NEAR} and {@link #MARGIN}).
     *
     * @param nearest the nearest artwork's distance, bits
     * @param other   the nearest other artwork's distance, bits; {@link Integer#MAX_VALUE} when there is none
     * @param near    bits within which an artwork is close
     * @param margin  bits by which the nearest must be nearer than the other to be confident
     */
    public static MatchStatus of(int nearest, int other, int near, int margin) {
        if (nearest > near) {
            return UNKNOWN;
        }
        return (long) other - nearest >= margin ? CONFIDENT : AMBIGUOUS;
    }

    /** The name in answers: {@code confident}, {@code ambiguous}, {@code unknown}. */
    @JsonValue
    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }
}
