package dev.cardcatalog.scan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cardcatalog.art.ArtFingerprint;
import dev.cardcatalog.art.ArtIndexFile;
import dev.cardcatalog.art.ArtMatcher;
import dev.cardcatalog.art.ArtSettings;
import dev.cardcatalog.testing.CaptureSimulator;
import dev.cardcatalog.testing.CardArtGenerator;
import dev.cardcatalog.testing.PhotoSimulator;
import dev.cardcatalog.testing.TestImageFiles;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Two kinds of find that are not what they look like, in whole photos of one card (SERVICE.md §5.10; the photos
 * the accuracy benchmark's realistic row lost, docs/benchmarks.md, "Issue 24"):
 * <ul>
 *   <li>a card whose art box and text box are card-shaped and found too holds two finds, as a binder page does; it
 *       is still the card, because it is recognised ({@link PhotoMatch});</li>
 *   <li>on a busy surface, a patch of the pattern can be card-shaped with an edge all round; it is not a card,
 *       because its inside is the surface's colours ({@link CardFinder#MIN_OFF_SURFACE}).</li>
 * </ul>
 * In each, the answer's first card is the photo's card, confident, its corners within 2 % of the photo's width of
 * the true ones. The index: the photos' artworks and 100 others drawn alike.
 */
class CardsThatLookLikePagesTest {

    private static final UploadDecoder DECODER = MatchResource.uploadDecoder();
    private static final int OTHERS = 100;
    private static final int[] PAGE_LIKE = {36, 179, 209, 234, 326, 524, 630, 910};
    private static final int[] PATCHED = {82, 175, 486, 676};
    private static ArtMatcher index;

    @BeforeAll
    static void buildTheIndex() {
        index = index();
    }

    /** Whole photos (art {@code k}, photo seed 24,000 + k) whose card held its art box and text box. */
    @ParameterizedTest
    @MethodSource("pageLike")
    void aCardWhoseArtBoxAndTextBoxAreFoundIsTheCardNotAPage(int k) throws Exception {
        assertTheCardIsFirst(k);
    }

    /** Whole photos on a check whose patch of squares was found as a card before the card in reading order. */
    @ParameterizedTest
    @MethodSource("patched")
    void aPatchOfABusySurfacesPatternIsNotACard(int k) throws Exception {
        List<PhotoMatch.Found> cards = assertTheCardIsFirst(k);
        assertThat(cards).as("photo %d: cards found", k).hasSize(1);
    }

    static IntStream pageLike() {
        return IntStream.of(PAGE_LIKE);
    }

    static IntStream patched() {
        return IntStream.of(PATCHED);
    }

    private static List<PhotoMatch.Found> assertTheCardIsFirst(int k) throws Exception {
        PhotoSimulator.Photo photo = PhotoSimulator.wholePhoto(k, 24_000 + k, CaptureSimulator.Severity.REALISTIC);
        List<PhotoMatch.Found> cards = new PhotoMatch().match(UprightPhoto.decode(photo.jpeg(), DECODER,
                UploadDeadline.none()), index, UploadDeadline.none());
        assertThat(cards).as("photo %d: cards found", k).isNotEmpty();
        PhotoMatch.Found first = cards.get(0);
        assertThat(first.nearest().get(0).artworkId()).as("photo %d: the first card's artwork", k)
                .isEqualTo(artworkId(k));
        assertThat(first.status()).as("photo %d", k).isEqualTo(MatchStatus.CONFIDENT);
        double[][] truth = photo.cards().get(0).corners();
        Quad answered = first.corners();
        for (int c = 0; c < 4; c++) {
            assertThat(Math.hypot(answered.x(c) - truth[c][0], answered.y(c) - truth[c][1]))
                    .as("photo %d: corner %d off the true one, px", k, c).isLessThan(0.02 * photo.width());
        }
        return cards;
    }

    /** The photos' artworks (as Scryfall's {@code small} image) and {@value #OTHERS} others drawn alike. */
    private static ArtMatcher index() {
        IntStream photos = IntStream.concat(IntStream.of(PAGE_LIKE), IntStream.of(PATCHED));
        IntStream others = IntStream.rangeClosed(1, OTHERS).map(n -> 100_000 + n);
        List<ArtIndexFile.Entry> entries = IntStream.concat(photos, others).parallel().mapToObj(seed -> {
            byte[] jpeg = seed < 100_000 ? CardArtGenerator.smallJpeg(seed)
                    : TestImageFiles.jpeg(CardArtGenerator.card(seed).render(146, 204, 1),
                            CardArtGenerator.SMALL_JPEG_QUALITY);
            try {
                return new ArtIndexFile.Entry(artworkId(seed), ArtFingerprint.compute(DECODER.decode(jpeg),
                        ArtSettings.FROZEN.zeroOffset()));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }).toList();
        return ArtMatcher.of(ArtSettings.FROZEN.digest(), entries);
    }

    private static UUID artworkId(int seed) {
        return UUID.nameUUIDFromBytes(("artwork-" + seed).getBytes(StandardCharsets.UTF_8));
    }
}
