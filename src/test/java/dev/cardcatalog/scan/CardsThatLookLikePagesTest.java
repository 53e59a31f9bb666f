package dev.cardcatalog.scan;

import static dev.cardcatalog.testing.CardArtGenerator.artworkId;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cardcatalog.art.ArtFingerprint;
import dev.cardcatalog.art.ArtIndexFile;
import dev.cardcatalog.art.ArtMatcher;
import dev.cardcatalog.art.FingerprintSettings;
import dev.cardcatalog.scan.finder.Quad;
import dev.cardcatalog.testing.CaptureSimulator;
import dev.cardcatalog.testing.CardArtGenerator;
import dev.cardcatalog.testing.PhotoSimulator;
import dev.cardcatalog.testing.TestImageFiles;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Two kinds of find that are not what they look like, in whole photos of one card (SERVICE.md §5.10; the photos
 * the accuracy benchmark's realistic row lost, docs/benchmarks.md, "Whole photos and binder pages"):
 * <ul>
 *   <li>a card whose art box and text box are card-shaped and found too holds two finds, as a binder page does; it
 *       is still the card, because it is recognised ({@link PhotoMatch});</li>
 *   <li>on a busy surface, a patch of the pattern can be card-shaped with an edge all round; it is not a card,
 *       because its inside is the surface's colours ({@code SurfaceMasks.MIN_OFF_SURFACE});</li>
 *   <li>a card whose own edge is not seen (a white border on a light surface, glare), only its art box: the card
 *       around the art box is tried when nothing is near ({@link PhotoMatch#aroundArtBox}), and when the art box
 *       taken as a card is near an artwork that is not the card's but not confidently.</li>
 * </ul>
 * In each, the answer's first card is the photo's card, confident, its corners within 2 % of the photo's width of
 * the true ones (3 % around an art box). The index: the photos' artworks and 100 others drawn alike.
 */
class CardsThatLookLikePagesTest {

    private static final UploadDecoder DECODER = MatchResource.uploadDecoder();
    private static final int OTHERS = 100;
    private static final int[] PAGE_LIKE = {36, 179, 209, 234, 326, 524, 630, 910};
    private static final int[] PATCHED = {82, 175, 486, 676};
    // (photo 269 is of this kind too, and is matched right and confident, but its corners are 5 % off: the outline
    // found there is its art box with part of the frame, so the card drawn around it is too large)
    private static final int[] ART_BOX_ONLY = {311, 337, 699, 987};
    /**
     * Harsh whole photos found only by their art box, which taken as a card is near other artworks of the 50,000.
     * (Photo 310 is of this kind too: see {@link #theCardAroundAnArtBoxNearOtherArtIsConfidentOfItsOwnArtwork}.)
     */
    private static final int[] ART_BOX_NEAR_OTHERS = {642, 882};
    private static final int ART_BOX_NEAR_OTHERS_AND_FAR_OFF = 310;
    /**
     * The artworks of the accuracy benchmark's 50,000 (drawn as the others here) nearest each of those art boxes
     * taken as the card, 256–320 bits: the card was {@code ambiguous} and wrong when the card around its art box was
     * tried only when nothing was near.
     */
    private static final int[] NEAR_THOSE_ART_BOXES = {16_308, 36_656, 11_568, 12_332, 3_607, 29_282, 27_282, 34_427,
        36_245, 25_035, 49_748, 3_324, 47_463, 5_073, 23_633};
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

    /**
     * Harsh whole photos whose card shows no edge of its own that the finder sees (a white border on a light surface,
     * glare), only its art box: the card around the art box is tried when nothing is near.
     */
    @ParameterizedTest
    @MethodSource("artBoxOnly")
    void aCardWhoseOwnEdgeIsUnseenIsFoundAroundItsArtBox(int k) throws Exception {
        assertTheCardIsFirst(k, CaptureSimulator.Severity.HARSH, 0.03);
    }

    /**
     * Harsh whole photos whose card shows only its art box, which taken as a card is near other artworks but not
     * confidently: the card around the art box is tried too.
     */
    @ParameterizedTest
    @MethodSource("artBoxNearOthers")
    void aCardFoundByItsArtBoxAloneIsFoundAroundItEvenWhenTheArtBoxIsNearOtherArt(int k) throws Exception {
        assertTheCardIsFirst(k, CaptureSimulator.Severity.HARSH, 0.03);
    }

    static IntStream artBoxNearOthers() {
        return IntStream.of(ART_BOX_NEAR_OTHERS);
    }

    /**
     * As above, for photo 310: its art box taken as a card is within 100 bits of an unrelated artwork, so that look
     * alone is {@code ambiguous}; with the hulls of notched contours taken at the first search
     * ({@code QuadFit.MIN_NOTCHED_ALONG}) the card is confident of its own artwork. The outline it is recognised
     * through is too large (the card runs off the photo's edge, and one corner is about 10 % of the photo's width
     * off), so only the artwork and the status are asserted here.
     */
    @Test
    void theCardAroundAnArtBoxNearOtherArtIsConfidentOfItsOwnArtwork() throws Exception {
        int k = ART_BOX_NEAR_OTHERS_AND_FAR_OFF;
        PhotoSimulator.Photo photo = PhotoSimulator.wholePhoto(k, 24_000 + k, CaptureSimulator.Severity.HARSH);
        List<PhotoMatch.Found> cards = new PhotoMatch().match(UprightPhoto.decode(photo.jpeg(), DECODER,
                UploadDeadline.none()), index, UploadDeadline.none());
        assertThat(cards).as("photo %d: cards found", k).isNotEmpty();
        assertThat(cards.get(0).nearest().get(0).artworkId()).as("photo %d: the first card's artwork", k)
                .isEqualTo(artworkId(k));
        assertThat(cards.get(0).status()).as("photo %d", k).isEqualTo(MatchStatus.CONFIDENT);
    }

    static IntStream artBoxOnly() {
        return IntStream.of(ART_BOX_ONLY);
    }

    static IntStream pageLike() {
        return IntStream.of(PAGE_LIKE);
    }

    static IntStream patched() {
        return IntStream.of(PATCHED);
    }

    private static List<PhotoMatch.Found> assertTheCardIsFirst(int k) throws Exception {
        return assertTheCardIsFirst(k, CaptureSimulator.Severity.REALISTIC, 0.02);
    }

    /**
     * @param within how near the answer's corners are to the true ones, as a share of the photo's width: 2 % for an
     *               outline found, as the issue asks; 3 % for a card drawn around its art box, whose corners lie a
     *               whole art box's height beyond the outline found and carry its error twice over
     */
    private static List<PhotoMatch.Found> assertTheCardIsFirst(int k, CaptureSimulator.Severity severity,
            double within) throws Exception {
        PhotoSimulator.Photo photo = PhotoSimulator.wholePhoto(k, 24_000 + k, severity);
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
                    .as("photo %d: corner %d off the true one, px", k, c).isLessThan(within * photo.width());
        }
        return cards;
    }

    /**
     * The photos' artworks (as Scryfall's {@code small} image), {@value #OTHERS} others drawn alike and the artworks
     * near the art boxes of {@link #ART_BOX_NEAR_OTHERS}, drawn as the benchmark draws them (one sample a pixel).
     */
    private static ArtMatcher index() {
        IntStream photos = java.util.stream.Stream.of(PAGE_LIKE, PATCHED, ART_BOX_ONLY, ART_BOX_NEAR_OTHERS,
                new int[] {ART_BOX_NEAR_OTHERS_AND_FAR_OFF})
                .flatMapToInt(IntStream::of);
        IntStream drawn = IntStream.concat(IntStream.rangeClosed(1, OTHERS).map(n -> 100_000 + n),
                IntStream.of(NEAR_THOSE_ART_BOXES).map(seed -> -seed));
        List<ArtIndexFile.Entry> entries = IntStream.concat(photos, drawn).parallel().mapToObj(code -> {
            // a photo's artwork by its seed; an artwork drawn alike by its seed negated, or 100,000 and more
            int seed = Math.abs(code);
            byte[] jpeg = code >= 0 && code < 100_000 ? CardArtGenerator.smallJpeg(seed)
                    : TestImageFiles.jpeg(CardArtGenerator.card(seed).render(146, 204, 1),
                            CardArtGenerator.SMALL_JPEG_QUALITY);
            try {
                return new ArtIndexFile.Entry(artworkId(seed), ArtFingerprint.compute(DECODER.decode(jpeg),
                        FingerprintSettings.FROZEN.zeroOffset()));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }).toList();
        return ArtMatcher.of(FingerprintSettings.FROZEN.digest(), entries);
    }

}
