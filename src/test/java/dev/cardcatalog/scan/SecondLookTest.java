package dev.cardcatalog.scan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cardcatalog.art.ArtMatcher;
import dev.cardcatalog.art.ArtPicture;
import dev.cardcatalog.art.ArtPictures;
import dev.cardcatalog.art.FingerprintSettings;
import dev.cardcatalog.image.RgbImage;
import dev.cardcatalog.testing.CardArtGenerator;
import dev.cardcatalog.testing.Pictures;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The second look's rule (SERVICE.md §5.11 item 14): which candidates it compares, through which query's picture,
 * and when it chooses one. Pictures are {@link ArtPicture}'s of generated art, a glare spot drawn over the photo's.
 */
class SecondLookTest {

    private static final FingerprintSettings.Offset ZERO = FingerprintSettings.FROZEN.zeroOffset();

    private final Map<UUID, byte[]> stored = new HashMap<>();
    private final List<List<UUID>> asked = new ArrayList<>();
    private final ArtPictures pictures = ids -> {
        asked.add(List.copyOf(ids));
        Map<UUID, byte[]> found = new HashMap<>();
        ids.forEach(id -> {
            if (stored.containsKey(id)) {
                found.put(id, stored.get(id));
            }
        });
        return found;
    };

    @Test
    void theArtworkClearlyAlikeIsChosenThoughItIsNotTheNearestAndOnlyThoseNearTheNearestAreCompared() {
        store(1, 2, 3, 4);
        byte[] photo = glared(2);
        // artwork 2, the photo's, is 10 bits farther than 1; 4 is 100 bits farther than the nearest: not compared
        List<ArtMatcher.Match> nearest = List.of(match(1, 250, 0), match(2, 260, 0), match(3, 300, 0),
                match(4, 350, 0));
        SecondLook.Verdict verdict = new SecondLook(pictures).judge(nearest, q -> photo);
        assertThat(asked).containsExactly(List.of(id(1), id(2), id(3)));
        assertThat(verdict.candidates()).extracting(ArtMatcher.Match::artworkId).containsExactly(id(1), id(2), id(3));
        assertThat(verdict.chosen()).isEqualTo(1);
        assertThat(verdict.similarity()[1]).isGreaterThanOrEqualTo(SecondLook.SIMILAR);
        assertThat(verdict.similarity()[1] - verdict.nextTo(1)).isGreaterThanOrEqualTo(SecondLook.MARGIN);
        assertThat(verdict.readable()).isLessThan(ArtPicture.CELLS).isGreaterThan(ArtPicture.CELLS / 4);
    }

    @Test
    void eachCandidateIsComparedThroughTheQueryThatGaveItsDistance() {
        store(1, 2);
        byte[] seenAsOne = glared(1);
        byte[] seenAsTwo = glared(2);
        // query 7 saw artwork 2's art, query 0 artwork 1's: each candidate is alike through its own query
        List<ArtMatcher.Match> nearest = List.of(match(1, 250, 0), match(2, 260, 7));
        SecondLook.Verdict verdict = new SecondLook(pictures).judge(nearest, q -> q == 7 ? seenAsTwo : seenAsOne);
        assertThat(java.util.Arrays.stream(verdict.similarity()).boxed().toList()).allSatisfy(s -> assertThat(s).isGreaterThan(SecondLook.SIMILAR));
        assertThat(verdict.chosen()).as("two artworks alike: neither is clearly the card's").isEqualTo(-1);
        // through one query for both, only the artwork it shows is alike
        SecondLook.Verdict one = new SecondLook(pictures).judge(List.of(match(1, 250, 0), match(2, 260, 0)),
                q -> seenAsTwo);
        assertThat(one.chosen()).isEqualTo(1);
    }

    @Test
    void artNotAmongTheCandidatesLeavesTheCardAsItWas() {
        store(1, 2, 3);
        byte[] photo = glared(40); // an artwork not in the index
        SecondLook.Verdict verdict = new SecondLook(pictures)
                .judge(List.of(match(1, 270, 0), match(2, 280, 0), match(3, 290, 0)), q -> photo);
        assertThat(verdict.chosen()).isEqualTo(-1);
        assertThat(java.util.Arrays.stream(verdict.similarity()).boxed().toList()).allSatisfy(s -> assertThat(s).isLessThan(SecondLook.SIMILAR));
    }

    @Test
    void aCandidateWithoutAPictureIsNeverChosenAndACardWithNoneGetsNoVerdict() {
        store(1);
        byte[] photo = glared(2);
        SecondLook.Verdict verdict = new SecondLook(pictures).judge(List.of(match(1, 250, 0), match(2, 260, 0)),
                q -> photo);
        assertThat(verdict.similarity()[1]).isZero();
        assertThat(verdict.chosen()).isEqualTo(-1);
        stored.clear();
        assertThat(new SecondLook(pictures).judge(List.of(match(1, 250, 0), match(2, 260, 0)), q -> photo)).isNull();
        assertThat(new SecondLook(ArtPictures.NONE).judge(List.of(match(1, 250, 0), match(2, 260, 0)), q -> photo))
                .isNull();
    }

    @Test
    void aCardWhoseOutlineCannotBeWarpedIsNotChosen() {
        store(1, 2);
        SecondLook.Verdict verdict = new SecondLook(pictures).judge(List.of(match(1, 250, 0), match(2, 260, 0)),
                q -> null);
        assertThat(verdict.similarity()).containsOnly(0.0);
        assertThat(verdict.chosen()).isEqualTo(-1);
    }

    private void store(long... seeds) {
        for (long seed : seeds) {
            stored.put(id(seed), ArtPicture.of(Pictures.rgb(CardArtGenerator.smallImage(seed)), ZERO));
        }
    }

    /** The picture of artwork {@code seed} photographed dimmer, a soft glare spot over the left of its art. */
    private static byte[] glared(long seed) {
        RgbImage art = Pictures.rgb(CardArtGenerator.smallImage(seed));
        int[] pixels = art.pixels().clone();
        for (int y = 0; y < art.height(); y++) {
            for (int x = 0; x < art.width(); x++) {
                double s = 0.85 * Math.exp(-(Math.pow(x - 50, 2) + Math.pow(y - 55, 2)) / (16.0 * 16.0));
                int p = pixels[y * art.width() + x];
                int rgb = 0;
                for (int shift = 16; shift >= 0; shift -= 8) {
                    double v = ((p >> shift) & 0xFF) * 0.8;
                    rgb |= (int) Math.round(v + s * (255 - v)) << shift;
                }
                pixels[y * art.width() + x] = rgb;
            }
        }
        return ArtPicture.of(new RgbImage(art.width(), art.height(), pixels), ZERO);
    }

    private static UUID id(long seed) {
        return CardArtGenerator.artworkId(seed);
    }

    private static ArtMatcher.Match match(long seed, int distance, int query) {
        return new ArtMatcher.Match(id(seed), distance, distance <= ArtMatcher.CONFIDENT_DISTANCE, query);
    }
}
