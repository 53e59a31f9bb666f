package dev.cardcatalog.scan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cardcatalog.scan.finder.Quad;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * When a page of cards counts as read whole by the first look ({@link PageGrid}), so the finer look is skipped: the
 * nine-pocket page of {@code PhotoSimulator.binderPage} (66 × 91 mm pockets 4 mm apart, an 8 mm margin), laid in a
 * photo turned, tilted in perspective or neither.
 */
class PageGridTest {

    private static final double POCKET_W = 66;
    private static final double POCKET_H = 91;
    private static final double GAP = 4;
    private static final double MARGIN = 8;
    private static final double PAGE_W = 2 * MARGIN + 3 * POCKET_W + 2 * GAP;
    private static final double PAGE_H = 2 * MARGIN + 3 * POCKET_H + 2 * GAP;

    /** How a point of the page, in millimetres, lands in the photo. */
    private interface Camera {
        double[] project(double x, double y);
    }

    private static final Camera FLAT = (x, y) -> new double[] {200 + 4 * x, 150 + 4 * y};

    private static final Camera TURNED = (x, y) -> {
        double a = Math.toRadians(10);
        return new double[] {600 + 4 * (x * Math.cos(a) - y * Math.sin(a)), 100 + 4 * (x * Math.sin(a) + y * Math.cos(a))};
    };

    /** Tilted: the page's far edge smaller, as a camera sees a page tilted away by about 20°. */
    private static final Camera TILTED = (x, y) -> {
        double w = 1 + 0.0012 * (PAGE_H - y);
        return new double[] {300 + 4 * (x - PAGE_W / 2) / w + 400, 100 + 4 * y / w};
    };

    @Test
    void aPageOfNineConfidentCardsIsReadWholeHoweverItLies() {
        for (Camera camera : List.of(FLAT, TURNED, TILTED)) {
            assertThat(PageGrid.readWhole(page(camera), cards(camera, allNine(), MatchStatus.CONFIDENT))).isTrue();
        }
    }

    @Test
    void aPageWithACardMissingAnywhereIsLookedAtAgain() {
        for (Camera camera : List.of(FLAT, TURNED, TILTED)) {
            for (int missing = 0; missing < 9; missing++) {
                List<Integer> pockets = new ArrayList<>(allNine());
                pockets.remove(Integer.valueOf(missing));
                assertThat(PageGrid.readWhole(page(camera), cards(camera, pockets, MatchStatus.CONFIDENT)))
                        .as("pocket %d empty", missing).isFalse();
            }
        }
    }

    @Test
    void aPageWithAWholeRowOrColumnMissingIsLookedAtAgain() {
        // six cards still make a whole grid (two rows of three, three rows of two), but leave a third of the page bare
        for (Camera camera : List.of(FLAT, TURNED, TILTED)) {
            assertThat(PageGrid.readWhole(page(camera), cards(camera, List.of(0, 1, 2, 3, 4, 5),
                    MatchStatus.CONFIDENT))).isFalse();
            assertThat(PageGrid.readWhole(page(camera), cards(camera, List.of(3, 4, 5, 6, 7, 8),
                    MatchStatus.CONFIDENT))).isFalse();
            assertThat(PageGrid.readWhole(page(camera), cards(camera, List.of(0, 1, 3, 4, 6, 7),
                    MatchStatus.CONFIDENT))).isFalse();
        }
    }

    @Test
    void aPageWithACardNotConfidentIsLookedAtAgain() {
        for (MatchStatus status : List.of(MatchStatus.AMBIGUOUS, MatchStatus.UNKNOWN)) {
            List<PhotoMatch.Found> cards = new ArrayList<>(cards(FLAT, allNine(), MatchStatus.CONFIDENT));
            PhotoMatch.Found fifth = cards.get(4);
            cards.set(4, new PhotoMatch.Found(fifth.corners(), status, fifth.nearest()));
            assertThat(PageGrid.readWhole(page(FLAT), cards)).as("%s", status).isFalse();
        }
    }

    @Test
    void aCardBesideThePageDoesNotCountForIt() {
        List<PhotoMatch.Found> cards = new ArrayList<>(cards(FLAT, allNine(), MatchStatus.CONFIDENT));
        cards.add(found(Quad.of(1500, 100, 1750, 100, 1750, 450, 1500, 450), MatchStatus.AMBIGUOUS));
        assertThat(PageGrid.readWhole(page(FLAT), cards)).isTrue();
    }

    private static List<Integer> allNine() {
        return List.of(0, 1, 2, 3, 4, 5, 6, 7, 8);
    }

    private static Quad page(Camera camera) {
        return quad(camera, 0, 0, PAGE_W, PAGE_H);
    }

    /** A card in each of the given pockets (0–8, row by row), 63 × 88 mm in the middle of its 66 × 91 pocket. */
    private static List<PhotoMatch.Found> cards(Camera camera, List<Integer> pockets, MatchStatus status) {
        List<PhotoMatch.Found> cards = new ArrayList<>();
        for (int k : pockets) {
            double x = MARGIN + (k % 3) * (POCKET_W + GAP) + 1.5;
            double y = MARGIN + (k / 3) * (POCKET_H + GAP) + 1.5;
            cards.add(found(quad(camera, x, y, x + 63, y + 88), status));
        }
        return cards;
    }

    private static PhotoMatch.Found found(Quad corners, MatchStatus status) {
        return new PhotoMatch.Found(corners, status, List.of(new PhotoMatch.Item(UUID.randomUUID(), 80, 0)));
    }

    private static Quad quad(Camera camera, double x0, double y0, double x1, double y1) {
        double[] a = camera.project(x0, y0);
        double[] b = camera.project(x1, y0);
        double[] c = camera.project(x1, y1);
        double[] d = camera.project(x0, y1);
        return Quad.of(a[0], a[1], b[0], b[1], c[0], c[1], d[0], d[1]);
    }
}
