package dev.cardcatalog.scan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cardcatalog.art.ArtFingerprint;
import dev.cardcatalog.art.ArtIndexFile;
import dev.cardcatalog.art.ArtMatcher;
import dev.cardcatalog.art.FingerprintSettings;
import dev.cardcatalog.scan.finder.Quad;
import io.quarkus.runtime.StartupEvent;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.junit.jupiter.api.Test;

/** {@link MatchWarmUp}: its drawn photos go the whole way an upload goes, and readiness waits for them. */
class MatchWarmUpTest {

    private static final PhotoMatch PHOTO_MATCH = new PhotoMatch();
    private static final UploadDecoder DECODER = MatchResource.uploadDecoder();
    /** The warm-up's photos and index, drawn once for the tests that do not start a warm-up of their own. */
    private static final List<MatchWarmUp.Photo> PHOTOS = MatchWarmUp.photos();
    private static final ArtMatcher INDEX = MatchWarmUp.index();
    /** How many photos the warm-up draws, and the cards in them: one in each photo of a card, nine on the page. */
    private static final int PHOTO_COUNT = 6;
    private static final int CARDS_A_PASS = 13;

    /** As {@link MatchResource#rehearse}: the uploads' decoder and card finder, no deadline. */
    private static List<PhotoMatch.Found> rehearse(byte[] photo, ArtMatcher matcher)
            throws dev.cardcatalog.image.ImageDecodeException {
        return PHOTO_MATCH.match(UprightPhoto.decode(photo, DECODER, UploadDeadline.none()), matcher,
                UploadDeadline.none());
    }

    @Test
    void eachPassFindsEveryDrawnCardConfident() throws Exception {
        assertThat(MatchWarmUp.run(MatchWarmUpTest::rehearse, PHOTOS, INDEX, 1)).isEqualTo(CARDS_A_PASS);
        assertThat(MatchWarmUp.run(MatchWarmUpTest::rehearse, PHOTOS, INDEX, 2)).isEqualTo(2 * CARDS_A_PASS);
        assertThat(MatchWarmUp.run(MatchWarmUpTest::rehearse, PHOTOS, INDEX, 0)).isZero();
    }

    @Test
    void eachPhotoGivesItsOwnCardsAndNoOther() throws Exception {
        assertThat(PHOTOS).hasSize(PHOTO_COUNT);
        int cards = 0;
        for (MatchWarmUp.Photo photo : PHOTOS) {
            List<PhotoMatch.Found> found = rehearse(photo.body(), INDEX);
            assertThat(found).as(photo.name()).hasSize(photo.drawn().size());
            assertThat(found).as(photo.name()).allSatisfy(card -> {
                assertThat(card.status()).isEqualTo(MatchStatus.CONFIDENT);
                assertThat(photo.drawn()).contains(card.nearest().get(0).artworkId());
            });
            assertThat(found.stream().map(card -> card.nearest().get(0).artworkId()).distinct())
                    .as(photo.name() + ": every drawn card once").hasSize(photo.drawn().size());
            cards += found.size();
        }
        assertThat(cards).isEqualTo(CARDS_A_PASS);
    }

    @Test
    void theIndexHoldsItsArtworksEachNearestToItself() {
        assertThat(INDEX.size()).isEqualTo(MatchWarmUp.ARTWORKS);
        int closest = Integer.MAX_VALUE;
        for (int k = 0; k < MatchWarmUp.ARTWORKS; k++) {
            byte[] own = ArtFingerprint.compute(MatchWarmUp.rgb(MatchWarmUp.card(k)),
                    FingerprintSettings.FROZEN.zeroOffset());
            List<ArtMatcher.Match> nearest = INDEX.nearest(new byte[][] {own}, 2);
            assertThat(nearest.get(0).artworkId()).isEqualTo(MatchWarmUp.artwork(k));
            assertThat(nearest.get(0).distance()).isZero();
            closest = Math.min(closest, nearest.get(1).distance());
        }
        assertThat(closest).as("the nearest other artwork of any card").isGreaterThan(300);
    }

    @Test
    void theWholePhotoIsFoundAsOneCardWhereItWasDrawn() throws Exception {
        var card = MatchWarmUp.card();
        byte[] photo = MatchWarmUp.encode(MatchWarmUp.onTable(card), "jpg");
        List<PhotoMatch.Found> found = rehearse(photo, INDEX);
        assertThat(found).hasSize(1);
        // drawn 2.2 times as large, centred: its outline is 321 x 449 around (800, 600), so every corner lies
        // within half the card's diagonal of the centre and beyond a third of it
        Quad corners = found.get(0).corners();
        for (int k = 0; k < 4; k++) {
            double r = Math.hypot(corners.x(k) - 800, corners.y(k) - 600);
            assertThat(r).as("corner %d", k).isBetween(240.0, 300.0);
        }
        assertThat(found.get(0).status()).isEqualTo(MatchStatus.CONFIDENT);
    }

    @Test
    void aCardThatIsNotTheDrawnOneIsNotCounted() throws Exception {
        byte[] other = new byte[ArtFingerprint.BYTES];
        java.util.Arrays.fill(other, (byte) 0x5A);
        ArtMatcher elsewhere = ArtMatcher.of(FingerprintSettings.FROZEN.digest(),
                List.of(new ArtIndexFile.Entry(UUID.randomUUID(), other)));
        assertThat(MatchWarmUp.run((photo, matcher) -> rehearse(photo, elsewhere), PHOTOS, INDEX, 1)).isZero();
    }

    @Test
    void readinessIsDownUntilThePassesAreDoneAndThenSaysWhatTheyFound() {
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        MatchWarmUp warmUp = new MatchWarmUp((photo, matcher) -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return rehearse(photo, matcher);
        }, 1);
        assertThat(warmUp.call().getStatus()).isEqualTo(HealthCheckResponse.Status.DOWN);
        warmUp.start(new StartupEvent());
        assertThat(warmUp.call().getStatus()).isEqualTo(HealthCheckResponse.Status.DOWN);
        assertThat(warmUp.call().getData().orElseThrow().get("outcome")).isEqualTo("running");
        release.countDown();
        await().atMost(Duration.ofMinutes(2)).until(() -> warmUp.call().getStatus() == HealthCheckResponse.Status.UP);
        assertThat(warmUp.call().getName()).isEqualTo("match warm-up");
        assertThat(warmUp.call().getData().orElseThrow().get("outcome").toString())
                .matches("1 pass of 6 photos, 13 of 13 cards found, in \\d+ ms "
                        + "\\(the first pass, with the drawing, \\d+ ms\\)");
    }

    @Test
    void aFailedWarmUpIsReadyAndSaysWhy() {
        MatchWarmUp warmUp = new MatchWarmUp((photo, matcher) -> {
            throw new IllegalStateException("no decoder");
        }, 1);
        warmUp.start(new StartupEvent());
        await().atMost(Duration.ofMinutes(1)).until(() -> warmUp.call().getStatus() == HealthCheckResponse.Status.UP);
        assertThat(warmUp.call().getData().orElseThrow().get("outcome").toString()).contains("no decoder");
    }

    @Test
    void noPassesIsReadyAtOnce() {
        MatchWarmUp warmUp = new MatchWarmUp((photo, matcher) -> {
            throw new AssertionError("not called");
        }, 0);
        assertThat(warmUp.call().getStatus()).isEqualTo(HealthCheckResponse.Status.UP);
    }
}
