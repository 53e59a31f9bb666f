package dev.cardcatalog.scan.finder;

import static org.assertj.core.api.Assertions.assertThat;

import boofcv.struct.image.GrayU8;
import dev.cardcatalog.image.RgbImage;
import java.util.List;
import org.junit.jupiter.api.Test;

class OutlinePoolTest {

    /** A 300 × 220 photo of two dark cards, upright and turned, on a light table. */
    private static ReducedPhoto twoCards() {
        return ReducedPhoto.reduce(new RgbImage(300, 220, twoCardsPixels()), 1);
    }

    private static int[] twoCardsPixels() {
        Quad upright = Quad.of(40, 30, 103, 30, 103, 118, 40, 118);
        Quad turned = Quad.of(170, 60, 230, 45, 252, 130, 192, 145);
        int[] pixels = new int[300 * 220];
        for (int y = 0; y < 220; y++) {
            for (int x = 0; x < 300; x++) {
                boolean card = upright.contains(x + 0.5, y + 0.5) || turned.contains(x + 0.5, y + 0.5);
                pixels[y * 300 + x] = card ? 0x202830 : 0xE8E4DC;
            }
        }
        return pixels;
    }

    private static GrayU8 dark(ReducedPhoto small) {
        GrayU8 mask = new GrayU8(small.grey().width, small.grey().height);
        for (int i = 0; i < mask.data.length; i++) {
            mask.data[i] = (byte) (small.grey().data[i] < 128 ? 1 : 0);
        }
        return mask;
    }

    @Test
    void aContourWhoseBoxIsSmallerThanTheLeastCardIsReadAndNotFitted() {
        // beside the two cards, a dark square and a long thin bar whose boxes are under the least card's area (660
        // pixels here) though their contours are long enough to be read
        ReducedPhoto cards = twoCards();
        int[] pixels = twoCardsPixels();
        for (int y = 0; y < 220; y++) {
            for (int x = 0; x < 300; x++) {
                boolean square = x >= 130 && x < 154 && y >= 160 && y < 184;
                boolean bar = x >= 20 && x < 160 && y >= 200 && y < 204;
                if (square || bar) {
                    pixels[y * 300 + x] = 0x202830;
                }
            }
        }
        ReducedPhoto small = ReducedPhoto.reduce(new RgbImage(300, 220, pixels), 1);
        WorkingImages working = new WorkingImages();
        working.reshape(300, 220);
        double minArea = CardFinder.MIN_AREA_SHARE * 300 * 220;
        OutlinePool pool = new OutlinePool(small, 1, minArea, false, step -> { }, working);
        pool.addContours(working.externalContours(dark(small), pool.minPoints));

        assertThat(pool.contoursRead).as("contours read").isEqualTo(4);
        assertThat(pool.contoursFitted).as("contours fitted").isEqualTo(2);
        OutlinePool cardsOnly = new OutlinePool(cards, 1, minArea, false, step -> { }, working);
        cardsOnly.addContours(working.externalContours(dark(cards), cardsOnly.minPoints));
        assertThat(pool.outlines()).isEqualTo(cardsOnly.outlines()).hasSize(2);
    }

    @Test
    void aContourFoundAgainCountsAgainWithoutBeingFittedAgain() {
        // The same region in two binarizations gives the same contour: the second counts as one more find of the
        // outline the first gave, as a fit of it would, and is not fitted.
        ReducedPhoto small = twoCards();
        WorkingImages working = new WorkingImages();
        working.reshape(300, 220);
        double minArea = CardFinder.MIN_AREA_SHARE * 300 * 220;
        OutlinePool once = new OutlinePool(small, 1, minArea, false, step -> { }, working);
        once.addContours(working.externalContours(dark(small), once.minPoints));
        OutlinePool twice = new OutlinePool(small, 1, minArea, false, step -> { }, working);
        twice.addContours(working.externalContours(dark(small), twice.minPoints));
        twice.addContours(working.externalContours(dark(small), twice.minPoints));

        List<Quad> outlines = once.outlines();
        assertThat(outlines).hasSize(2);
        assertThat(twice.outlines()).isEqualTo(outlines);
        assertThat(twice.support).extracting(s -> s[0]).containsExactly(2, 2);
        assertThat(once.contoursRead).isEqualTo(2);
        assertThat(twice.contoursRead).isEqualTo(4);
        assertThat(twice.contoursFitted).as("contours fitted").isEqualTo(2);

        // a search that remembers no more contours fits each as it comes, and finds the same
        OutlinePool full = new OutlinePool(small, 1, minArea, false, step -> { }, working);
        full.remembered = OutlinePool.MAX_REMEMBERED_POINTS;
        full.addContours(working.externalContours(dark(small), full.minPoints));
        full.addContours(working.externalContours(dark(small), full.minPoints));
        assertThat(full.outlines()).isEqualTo(outlines);
        assertThat(full.support).extracting(s -> s[0]).containsExactly(2, 2);
        assertThat(full.contoursFitted).as("contours fitted").isEqualTo(4);
    }
}
