package dev.cardcatalog.scan;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cardcatalog.testing.ArtProfile;
import dev.cardcatalog.testing.CaptureSimulator;
import dev.cardcatalog.testing.CardCatalogTestResource;
import dev.cardcatalog.testing.Overlap;
import dev.cardcatalog.testing.PhotoSimulator;
import dev.cardcatalog.testing.SampleArtworks;
import dev.cardcatalog.testing.TestImageFiles;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import java.awt.image.BufferedImage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Whole photos at the match endpoint (SERVICE.md §5.10, §5.11, issue 24), against the art index the service builds
 * from the Scryfall stand-in's sample: a photo of one card lying on a light, a dark and a patterned surface, in
 * perspective, finds the card, confident, with its corners within 2 % of the photo's width of the true ones; a
 * binder page of nine names all nine; art that is not in the index is never confident, as a guide crop or lying
 * on a table. Photos are {@link PhotoSimulator}'s.
 */
@QuarkusTest
@TestProfile(ArtProfile.class)
@WithTestResource(CardCatalogTestResource.class)
class PhotoMatchTest {

    private static boolean built;
    private static List<String> artworks;
    private static Map<String, SampleArtworks.Expected> cardOfArtwork;

    @BeforeEach
    void buildTheIndexOnce() throws Exception {
        if (built) {
            return;
        }
        cardOfArtwork = SampleArtworks.expectedArtworks();
        artworks = new ArrayList<>(cardOfArtwork.keySet());
        artworks.sort(null);
        SampleArtworks.buildTheSampleIndex();
        built = true;
    }

    @Test
    void aCardLyingOnALightADarkAndAPatternedSurfaceInPerspectiveIsFoundConfidentWithItsCorners() {
        int k = 0;
        for (PhotoSimulator.Surface surface : PhotoSimulator.Surface.values()) {
            for (double tilt : List.of(20.0, 30.0)) {
                String artwork = artworks.get(17 + 101 * k);
                PhotoSimulator.Photo photo = PhotoSimulator.wholePhoto(seed(artwork), 24_000 + k,
                        CaptureSimulator.Severity.REALISTIC, surface, 1600, 1200, tilt, 0.15 + 0.05 * k);
                k++;
                String says = surface + ", tilted " + tilt + "°";
                JsonPath answer = match(photo.jpeg());
                assertThat(answer.getList("cards")).as(says).hasSize(1);
                assertThat(answer.getString("cards[0].status")).as(says).isEqualTo("confident");
                assertThat(answer.getString("cards[0].matches[0].illustration_id")).as(says).isEqualTo(artwork);
                assertThat(answer.getBoolean("cards[0].matches[0].confident")).as(says).isTrue();
                assertThat(answer.getList("cards[0].matches[1..9].confident", Boolean.class)).as(says)
                        .doesNotContain(true);
                // the first card's matches stay where clients read them before cards were found
                assertThat(answer.getList("matches.illustration_id"))
                        .isEqualTo(answer.getList("cards[0].matches.illustration_id"));
                assertThat(answer.getString("matches[0].printings[0].id")).as(says)
                        .isEqualTo(cardOfArtwork.get(artwork).cardId());
                assertCornersNear(corners(answer)[0], photo.cards().get(0), photo.width(), says);
            }
        }
    }

    @Test
    void aBinderPageOfNineNamesAllNineInReadingOrder() {
        long[] seeds = new long[9];
        List<String> page = new ArrayList<>();
        for (int k = 0; k < 9; k++) {
            page.add(artworks.get(40 + 77 * k));
            seeds[k] = seed(page.get(k));
        }
        PhotoSimulator.Photo photo = PhotoSimulator.binderPage(seeds, 7, CaptureSimulator.Severity.REALISTIC, 0, 0);
        JsonPath answer = match(photo.jpeg());
        assertThat(answer.getList("cards")).hasSize(9);
        double[][][] corners = corners(answer);
        for (int c = 0; c < 9; c++) {
            PhotoSimulator.Placed card = photo.cards().get(c);
            int found = nearestCard(corners, card);
            String says = "card " + c + " of the page";
            assertCornersNear(corners[found], card, photo.width(), says);
            assertThat(answer.getString("cards[" + found + "].status")).as(says).isEqualTo("confident");
            assertThat(answer.getString("cards[" + found + "].matches[0].illustration_id")).as(says)
                    .isEqualTo(page.get(c));
            assertThat(answer.getString("cards[" + found + "].matches[0].printings[0].name")).as(says).isNotBlank();
        }
        // reading order: rows from the top, each from the left
        // each card's first corner ("cards.corners[0].y" would be the first card's four corners)
        List<Float> ys = answer.getList("cards.collect { it.corners[0].y }", Float.class);
        for (int c = 1; c < 9; c++) {
            double previous = centre(corners[c - 1], 1);
            double here = centre(corners[c], 1);
            if (here - previous < 50) { // the same row
                assertThat(centre(corners[c], 0)).as("card %d after card %d in its row", c, c - 1)
                        .isGreaterThan(centre(corners[c - 1], 0));
            }
        }
        assertThat(ys).hasSize(9);
    }

    /**
     * A collection laid out in rows, the cards a few millimetres apart, with each class of real photos the finder
     * once failed on (SERVICE.md §5.10 item 13; {@link PhotoSimulator.Clutter}): a playmat printed with art, sleeves
     * and their reflections, dice lying on the cards, fingers over their borders, hard shadows, plastic slabs. Of
     * each photo's twelve cards at least ten are outlined right (IoU ≥ 0.85 with the true outline), and no answer
     * is confident and wrong. Sleeves at least nine: a reflection across a sleeve cuts its card's edge into pieces
     * in every mask, and about one such card in seven is still lost (docs/benchmarks.md, "Real photos").
     */
    @ParameterizedTest
    @EnumSource(PhotoSimulator.Clutter.class)
    void theCardsOfACollectionAreFoundWhateverLiesOnOrAroundThem(PhotoSimulator.Clutter clutter) {
        long[] seeds = new long[12];
        List<String> laid = new ArrayList<>();
        for (int k = 0; k < seeds.length; k++) {
            laid.add(artworks.get((5 + 61 * k + 13 * clutter.ordinal()) % artworks.size()));
            seeds[k] = seed(laid.get(k));
        }
        PhotoSimulator.Surface surface = PhotoSimulator.Surface.values()[clutter.ordinal() % 3];
        PhotoSimulator.Photo photo = PhotoSimulator.collection(seeds, 4, 70, CaptureSimulator.Severity.REALISTIC,
                surface, clutter, 0, 0);
        JsonPath answer = match(photo.jpeg());
        double[][][] corners = corners(answer);
        int right = 0;
        for (PhotoSimulator.Placed card : photo.cards()) {
            if (java.util.Arrays.stream(corners).anyMatch(c -> Overlap.of(c, card.corners()) >= Overlap.RIGHT)) {
                right++;
            }
        }
        assertThat(right).as("%s on %s: cards of 12 outlined right", clutter, surface)
                .isGreaterThanOrEqualTo(clutter == PhotoSimulator.Clutter.SLEEVES ? 9 : 10);
        for (int c = 0; c < corners.length; c++) {
            if ("confident".equals(answer.getString("cards[" + c + "].status"))) {
                int at = c;
                PhotoSimulator.Placed under = photo.cards().stream()
                        .max(java.util.Comparator.comparingDouble(p -> Overlap.of(corners[at], p.corners())))
                        .orElseThrow();
                assertThat(answer.getString("cards[" + c + "].matches[0].illustration_id"))
                        .as("%s: confident card %d", clutter, c).isEqualTo(laid.get(photo.cards().indexOf(under)));
            }
        }
    }

    @Test
    void artThatIsNotInTheIndexIsNeverConfidentWhetherCroppedOrLyingOnATable() {
        for (int k = 0; k < 4; k++) {
            long absent = 9_000_000L + k; // the stand-in draws the sample's art from other seeds
            for (CaptureSimulator.Severity severity : CaptureSimulator.Severity.values()) {
                JsonPath crop = match(CaptureSimulator.captureJpeg(absent, 31 + k, severity));
                assertNeverConfident(crop, "guide crop " + k + ", " + severity);
                JsonPath whole = match(PhotoSimulator.wholePhoto(absent, 41 + k, severity).jpeg());
                assertNeverConfident(whole, "whole photo " + k + ", " + severity);
            }
        }
    }

    /**
     * The second look (SERVICE.md §5.11 item 14): a harsh photo of a sleeved card with glare over its art, whose
     * fingerprint leaves another artwork within {@value MatchStatus#MARGIN} bits of its own, is confident and right
     * after the art build's pictures are compared; the same photo of art left out of the index, which the fingerprint
     * leaves ambiguous too, stays not confident. The photo seeds were picked (among 488 photos of the sample's art, 7
     * ambiguous) for giving that ambiguity with this finder.
     */
    @Test
    void aSleevedCardUnderGlareThatTheFingerprintLeavesAmbiguousIsConfidentAfterTheSecondLook() {
        for (int k : new int[] {98, 161, 511}) {
            String artwork = artworks.get(k);
            long photoSeed = k == 98 ? 62 : 63;
            JsonPath answer = match(sleevedUnderGlare(seed(artwork), photoSeed));
            String says = "artwork " + k + " (" + artwork + ")";
            assertThat(answer.getList("cards")).as(says).hasSize(1);
            assertThat(answer.getString("cards[0].status")).as(says).isEqualTo("confident");
            assertThat(answer.getString("cards[0].matches[0].illustration_id")).as(says).isEqualTo(artwork);
            assertThat(answer.getBoolean("cards[0].matches[0].confident")).as(says).isTrue();
            assertThat(ambiguousByTheFingerprint(answer.getList("cards[0].matches.distance", Integer.class)))
                    .as("%s: by its distances alone (%s)", says, answer.getList("cards[0].matches.distance"))
                    .isTrue();
        }
        for (long absent : new long[] {9_100_129L, 9_100_164L, 9_100_204L}) {
            JsonPath answer = match(sleevedUnderGlare(absent, 62));
            String says = "art not in the index, " + absent;
            assertNeverConfident(answer, says);
            assertThat(answer.getList("cards.matches.distance", List.class)).as(says)
                    .anyMatch(distances -> ambiguousByTheFingerprint(distances));
        }
    }

    /** A harsh whole photo of card {@code artSeed} in a sleeve, with its glare. */
    private static byte[] sleevedUnderGlare(long artSeed, long photoSeed) {
        return PhotoSimulator.wholePhoto(artSeed, photoSeed, CaptureSimulator.Severity.HARSH, null, 0, 0, Double.NaN,
                Double.NaN, null, Boolean.TRUE).jpeg();
    }

    /** Whether a card with these distances is ambiguous by the plain rule: its second look had to decide. */
    private static boolean ambiguousByTheFingerprint(List<?> distances) {
        List<Integer> sorted = distances.stream().map(d -> ((Number) d).intValue()).sorted().toList();
        return sorted.size() > 1 && sorted.get(0) <= MatchStatus.NEAR
                && sorted.get(1) - sorted.get(0) < MatchStatus.MARGIN;
    }

    @Test
    void aSliverOfAPhotoIsAnsweredWithoutAServerErrorAndNeverConfident() {
        // 1 x 1, and strips the card search reduces to a line of pixels: JPEG and PNG, lying and standing
        int[][] sizes = {{1, 1}, {1200, 3}, {4000, 8}, {8, 4000}};
        for (int[] size : sizes) {
            BufferedImage sliver = new BufferedImage(size[0], size[1], BufferedImage.TYPE_INT_RGB);
            for (int x = 0; x < size[0]; x++) {
                for (int y = 0; y < size[1]; y++) {
                    sliver.setRGB(x, y, (x * 37 + y * 91) * 0x010203 & 0xFFFFFF);
                }
            }
            String says = size[0] + " x " + size[1];
            assertNeverConfident(match(TestImageFiles.jpeg(sliver, 0.9f)), says + " JPEG");
            assertNeverConfident(given().contentType("image/png").body(TestImageFiles.png(sliver))
                    .post("/api/art-index/matches").then().statusCode(200).extract().jsonPath(), says + " PNG");
        }
    }

    private static void assertNeverConfident(JsonPath answer, String says) {
        assertThat(answer.getList("cards.status")).as(says).doesNotContain("confident");
        assertThat(answer.getList("matches.confident", Boolean.class)).as(says).doesNotContain(true);
        assertThat(answer.getList("cards.matches.confident").toString()).as(says).doesNotContain("true");
    }

    /**
     * Every found card's four corners, {@code [card][corner][0 for x, 1 for y]}, in the photo's pixels: read from
     * the answer with one path expression (each distinct expression is a Groovy script compiled anew).
     */
    private static double[][][] corners(JsonPath answer) {
        List<List<Map<String, Number>>> cards = answer.getList("cards.corners");
        double[][][] corners = new double[cards.size()][][];
        for (int c = 0; c < corners.length; c++) {
            assertThat(cards.get(c)).as("card %d's corners", c).hasSize(4);
            corners[c] = new double[4][];
            for (int k = 0; k < 4; k++) {
                Map<String, Number> corner = cards.get(c).get(k);
                corners[c][k] = new double[] {corner.get("x").doubleValue(), corner.get("y").doubleValue()};
            }
        }
        return corners;
    }

    /** The mean of a card's four corners along {@code axis} (0 for x, 1 for y). */
    private static double centre(double[][] corners, int axis) {
        double sum = 0;
        for (double[] corner : corners) {
            sum += corner[axis];
        }
        return sum / 4;
    }

    private static int nearestCard(double[][][] corners, PhotoSimulator.Placed card) {
        double cx = 0;
        double cy = 0;
        for (double[] corner : card.corners()) {
            cx += corner[0] / 4;
            cy += corner[1] / 4;
        }
        int best = -1;
        double bestDistance = Double.MAX_VALUE;
        for (int c = 0; c < corners.length; c++) {
            double d = Math.hypot(centre(corners[c], 0) - cx, centre(corners[c], 1) - cy);
            if (d < bestDistance) {
                bestDistance = d;
                best = c;
            }
        }
        return best;
    }

    /** A found card's corners (of {@link #corners}), in order, within 2 % of the photo's width of the true ones. */
    private static void assertCornersNear(double[][] corners, PhotoSimulator.Placed truth, int width, String says) {
        for (int k = 0; k < 4; k++) {
            double x = corners[k][0];
            double y = corners[k][1];
            double off = Math.hypot(x - truth.corners()[k][0], y - truth.corners()[k][1]);
            assertThat(off).as("%s: corner %d at (%.1f, %.1f), truly (%.1f, %.1f)", says, k, x, y,
                    truth.corners()[k][0], truth.corners()[k][1]).isLessThanOrEqualTo(0.02 * width);
        }
    }

    private static long seed(String artwork) {
        return cardOfArtwork.get(artwork).seed();
    }

    private static JsonPath match(byte[] jpeg) {
        return given().contentType("image/jpeg").body(jpeg).post("/api/art-index/matches").then().statusCode(200)
                .extract().jsonPath();
    }
}
