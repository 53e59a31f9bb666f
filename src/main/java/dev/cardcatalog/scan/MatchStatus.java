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
 * Distances are those of {@link ArtMatcher#nearest}: the smallest over all the card's query fingerprints, so the
 * nearest other artwork is the nearest over every outline and turn tried for the card. Each outline tried gives
 * unrelated artworks one more chance to come near, so a card the search has looked at through several outlines is
 * also judged by its <em>look margin</em> ({@link #byLook}): an {@link #AMBIGUOUS} card whose nearest artwork is
 * within {@value #LOOK_NEAR} bits and at least {@value #LOOK_MARGIN} bits nearer than every other artwork <em>seen
 * through the one outline that found it</em> is {@link #CONFIDENT} in the answer.
 */
public enum MatchStatus {
    CONFIDENT, AMBIGUOUS, UNKNOWN;

    /** Bits within which an artwork is close to the card. */
    public static final int NEAR = 300;

    /**
     * Bits by which the nearest artwork must be nearer than every other for the card to be confident. Measured over
     * 50,000 artworks (docs/benchmarks.md, "Issue 24"; FINGERPRINT.md's note): the smallest margin that made no
     * card confident and wrong, of 5,794 cards of indexed art and 4,000 photos of art left out of the index. The
     * widest margin a wrong nearest artwork had was 90 bits (a harsh guide crop of missing art, 289 bits against 379).
     */
    public static final int MARGIN = 100;

    /**
     * Bits within which a card's nearest artwork must be for its look margin to make it confident ({@link #byLook}).
     * Measured over 50,000 artworks (docs/benchmarks.md, "Issue 24", the look margin): no card of art left out of the
     * index, of 4,000, had a look margin of 80 bits or more within 288 bits of its nearest artwork.
     */
    public static final int LOOK_NEAR = 260;

    /**
     * Bits by which the nearest artwork must be nearer than every other artwork seen through the outline that found
     * it ({@link #byLook}): {@link #MARGIN}'s. Within {@link #LOOK_NEAR} bits the widest look margin a card of missing
     * art had in the benchmark was 61 bits, and 80 was taken first; on photos the rule was not chosen on (art never
     * indexed, photo seeds the benchmark does not use: docs/benchmarks.md, "Cards whose edge no mask sees") a harsh
     * whole photo of missing art had 99 bits at 184, so 80 made it confident and wrong.
     */
    public static final int LOOK_MARGIN = 100;

    /**
     * The status of a card in the answer: {@code status} by {@link #of(List)}, and {@link #CONFIDENT} when it is
     * {@link #AMBIGUOUS} but the nearest artwork, {@code nearest} bits away, is within {@value #LOOK_NEAR} bits and at
     * least {@value #LOOK_MARGIN} bits nearer than every other artwork seen through the one outline (the look) whose
     * fingerprint gave it.
     *
     * @param status    the card's status by {@link #of(List)}
     * @param nearest   the nearest artwork's distance, bits
     * @param lookOther the nearest other artwork's distance over that outline's fingerprints only, bits;
     *                  {@link Integer#MAX_VALUE} when there is none
     */
    public static MatchStatus byLook(MatchStatus status, int nearest, int lookOther) {
        if (status == AMBIGUOUS && nearest <= LOOK_NEAR && (long) lookOther - nearest >= LOOK_MARGIN) {
            return CONFIDENT;
        }
        return status;
    }

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
