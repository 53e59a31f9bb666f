package dev.cardcatalog.scan.finder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import boofcv.alg.filter.binary.BinaryImageOps;
import boofcv.alg.filter.binary.Contour;
import boofcv.alg.misc.ImageMiscOps;
import boofcv.struct.ConnectRule;
import boofcv.struct.image.GrayU8;
import dev.cardcatalog.image.RgbImage;
import dev.cardcatalog.scan.MatchResource;
import dev.cardcatalog.scan.UploadDeadline;
import dev.cardcatalog.scan.UploadDecoder;
import dev.cardcatalog.scan.UprightPhoto;
import dev.cardcatalog.testing.CaptureSimulator;
import dev.cardcatalog.testing.PhotoSimulator;
import georegression.struct.point.Point2D_I32;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The card finder without the service (SERVICE.md §5.10): its steps against BoofCV's own filters bit for bit, its
 * working images reused, the surface's rules, the contours it fits and the outlines' geometry, on simulated photos.
 * The outlines the match tries of what it finds are {@code scan.PhotoMatchRulesTest}'s.
 */
class CardFinderTest {

    private static final UploadDecoder DECODER = MatchResource.uploadDecoder();

    @Test
    void aCardsEdgeComesFirstAndThenItsOtherOutlinesTheLargestFirst() {
        Quad inner = Quad.of(110, 110, 190, 110, 190, 222, 110, 222); // the inside of its border
        Quad edge = Quad.of(100, 100, 200, 100, 200, 240, 100, 240);
        Quad intoANeighbour = Quad.of(95, 95, 260, 95, 205, 245, 95, 245); // larger, and no rectangle
        Quad artBox = Quad.of(115, 120, 185, 120, 185, 170, 115, 170);
        FoundCard card = new FoundCard(List.of(artBox, intoANeighbour, inner, edge));
        assertThat(card.edge()).isSameAs(edge);
        assertThat(card.edgeFirst()).containsExactly(edge, intoANeighbour, inner, artBox);
        assertThat(card.outer()).isSameAs(intoANeighbour);
    }

    @Test
    void aContoursHullRunsStraightAcrossItsNotchesAndOnlyACardLikeContourRunsAlongMostOfIt() {
        // a 60 x 40 rectangle's contour with a notch bitten 10 deep and 20 wide out of its top side
        List<Point2D_I32> notched = new ArrayList<>();
        for (int x = 0; x < 60; x++) {
            notched.add(new Point2D_I32(x, x >= 20 && x < 40 ? 10 : 0));
        }
        for (int y = 0; y < 40; y++) {
            notched.add(new Point2D_I32(60, y));
        }
        for (int x = 60; x > 0; x--) {
            notched.add(new Point2D_I32(x, 40));
        }
        for (int y = 40; y > 0; y--) {
            notched.add(new Point2D_I32(0, y));
        }
        List<Point2D_I32> hull = QuadFit.hullContour(QuadFit.convexHull(notched));
        assertThat(hull).allSatisfy(p -> assertThat(p.x == 0 || p.x == 60 || p.y == 0 || p.y == 40)
                .as("%s on the rectangle's edge", p).isTrue());
        assertThat(hull).as("a point every pixel of the rectangle's perimeter").hasSize(200);
        Quad rectangle = Quad.of(0, 0, 60, 0, 60, 40, 0, 40);
        assertThat(QuadFit.alongOutline(notched, rectangle)).isCloseTo(0.9, within(0.01))
                .isGreaterThanOrEqualTo(QuadFit.MIN_HULL_ALONG);
        // an L with arms 10 thick along the rectangle's left and bottom sides: it runs along those and its arms'
        // ends, 62 % of the rectangle, as a blob of a pattern or a speckled region runs along little of its hull
        List<Point2D_I32> ell = new ArrayList<>();
        for (int y = 0; y < 40; y++) {
            ell.add(new Point2D_I32(0, y));
        }
        for (int x = 0; x < 60; x++) {
            ell.add(new Point2D_I32(x, 40));
        }
        for (int y = 40; y > 30; y--) {
            ell.add(new Point2D_I32(60, y));
        }
        for (int x = 60; x > 10; x--) {
            ell.add(new Point2D_I32(x, 30));
        }
        for (int y = 30; y > 0; y--) {
            ell.add(new Point2D_I32(10, y));
        }
        for (int x = 10; x > 0; x--) {
            ell.add(new Point2D_I32(x, 0));
        }
        assertThat(QuadFit.alongOutline(ell, rectangle)).isLessThan(QuadFit.MIN_HULL_ALONG);
    }

    @Test
    void aFinderReusingItsWorkingImagesFindsWhatAFreshFinderFinds() throws Exception {
        // One finder searches photos of other sizes and kinds in turn, at the search's size and twice it (a finer
        // search's larger images, dropped after it), reduced or whole: each time it finds exactly what a finder of
        // its own finds.
        List<RgbImage> photos = new ArrayList<>();
        int k = 0;
        for (PhotoSimulator.Surface surface : PhotoSimulator.Surface.values()) {
            for (CaptureSimulator.Severity severity : CaptureSimulator.Severity.values()) {
                boolean portrait = k % 2 == 1;
                PhotoSimulator.Photo photo = PhotoSimulator.wholePhoto(40 + k, 960 + k, severity, surface,
                        portrait ? 1200 : 1600, portrait ? 1600 : 1200, 5 + 6 * k % 35, 0.06 + 0.09 * (k % 7));
                UprightPhoto upright = UprightPhoto.decode(photo.jpeg(), DECODER, UploadDeadline.none());
                photos.add(upright.image());
                photos.add(upright.finer()); // twice as large: reduced, or searched whole at twice the size
                k++;
            }
        }
        PhotoSimulator.Photo page = PhotoSimulator.binderPage(new long[] {1, 2, 3, 4, 5, 6, 7, 8, 9}, 970,
                CaptureSimulator.Severity.REALISTIC, 1600, 1200);
        photos.add(UprightPhoto.decode(page.jpeg(), DECODER, UploadDeadline.none()).image());
        CardFinder reused = new CardFinder();
        int found = 0;
        for (int i = 0; i < photos.size(); i++) {
            int side = i % 3 == 2 ? 2 * CardFinder.SEARCH_SIDE : CardFinder.SEARCH_SIDE;
            List<FoundCard> again = reused.find(photos.get(i), side, UploadDeadline.none());
            assertThat(again).as("photo %d at %d pixels", i, side)
                    .isEqualTo(new CardFinder().find(photos.get(i), side, UploadDeadline.none()));
            found += again.size();
        }
        assertThat(found).as("cards found in all").isGreaterThanOrEqualTo(photos.size());
    }

    @Test
    void theFindersLocalThresholdAndSecondCannyMarkWhatBoofCvsOwnFiltersMark() throws Exception {
        // The finder computes the local mean once for both ways, and thresholds Canny's edges a second time without
        // computing them again: its masks must be BoofCV's own, bit for bit, or the measured recall would not stand.
        // Its mean is its own (BoxMean, a float's rounding from BoofCV's): with it, a pixel may differ only where
        // the grey is that rounding from the threshold.
        List<boofcv.struct.image.GrayF32> greys = new ArrayList<>();
        java.util.Random random = new java.util.Random(3);
        for (int[] size : new int[][] {{504, 378}, {378, 504}, {61, 40}, {512, 512}}) {
            boofcv.struct.image.GrayF32 noise = new boofcv.struct.image.GrayF32(size[0], size[1]);
            for (int i = 0; i < noise.data.length; i++) {
                noise.data[i] = (i % size[0]) * 200f / size[0] + random.nextInt(56);
            }
            greys.add(noise);
        }
        for (PhotoSimulator.Surface surface : PhotoSimulator.Surface.values()) {
            PhotoSimulator.Photo photo = PhotoSimulator.wholePhoto(11, 901, CaptureSimulator.Severity.HARSH, surface,
                    1600, 1200, 20, 0.3);
            RgbImage small = UprightPhoto.decode(photo.jpeg(), DECODER, UploadDeadline.none()).image();
            greys.add(ReducedPhoto.reduce(small, 1).grey());
        }
        for (boofcv.struct.image.GrayF32 grey : greys) {
            boofcv.struct.image.GrayU8 ours = new boofcv.struct.image.GrayU8(grey.width, grey.height);
            boofcv.struct.image.GrayU8 theirs = new boofcv.struct.image.GrayU8(grey.width, grey.height);
            boofcv.struct.image.GrayF32 mean = new boofcv.struct.image.GrayF32(grey.width, grey.height);
            for (int share : new int[] {5, 10}) {
                int window = Math.max(15, Math.min(grey.width, grey.height) / share) | 1;
                boofcv.alg.filter.blur.BlurImageOps.mean(grey, mean, window / 2,
                        new boofcv.struct.image.GrayF32(grey.width, grey.height), null);
                for (boolean down : new boolean[] {false, true}) {
                    CardFinder.localThreshold(grey, mean, CardFinder.LOCAL_SCALE, down, ours);
                    boofcv.factory.filter.binary.FactoryThresholdBinary.localMean(
                            boofcv.struct.ConfigLength.fixed(window), 0.95, down,
                            boofcv.struct.image.GrayF32.class).process(grey, theirs);
                    assertThat(ours.data).as("%d x %d, window %d, down %s", grey.width, grey.height, window, down)
                            .isEqualTo(theirs.data);
                    boofcv.struct.image.GrayF32 boxMean = new boofcv.struct.image.GrayF32(1, 1);
                    BoxMean.mean(grey, boxMean, window / 2);
                    CardFinder.localThreshold(grey, boxMean, CardFinder.LOCAL_SCALE, down, ours);
                    int differ = 0;
                    for (int i = 0; i < ours.data.length; i++) {
                        if (ours.data[i] != theirs.data[i]) {
                            differ++;
                            assertThat((double) grey.data[i]).as("a pixel marked otherwise than BoofCV's")
                                    .isCloseTo(mean.data[i] * (down ? CardFinder.LOCAL_SCALE
                                            : 1 / CardFinder.LOCAL_SCALE), org.assertj.core.api.Assertions.within(
                                                    1e-4 * Math.max(1, grey.data[i])));
                        }
                    }
                    assertThat(differ).as("pixels marked otherwise than BoofCV's").isLessThan(ours.data.length / 1000 + 1);
                }
            }
            CannyEdges canny = new CannyEdges();
            canny.process(grey, 0.04f, 0.12f, ours);
            var fresh = boofcv.factory.feature.detect.edge.FactoryEdgeDetectors.canny(2, false, true,
                    boofcv.struct.image.GrayF32.class, boofcv.struct.image.GrayF32.class);
            fresh.process(grey, 0.04f, 0.12f, theirs);
            assertThat(ours.data).as("Canny, %d x %d", grey.width, grey.height).isEqualTo(theirs.data);
            canny.again(0.02f, 0.06f, ours);
            fresh.process(grey, 0.02f, 0.06f, theirs);
            assertThat(ours.data).as("Canny again, %d x %d", grey.width, grey.height).isEqualTo(theirs.data);
        }
    }

    @Test
    void aPhotosOwnPixelsSayWhetherItsSurfaceIsBusyAsTheBoxMeansSayIt() throws Exception {
        // A photo searched at its own size says whether its surface is busy from int sums of its ring's 8-bit
        // values, and skips the whole image's box means: the same answer as the box means give (the path of a
        // reduced photo, whose planes are means), and when busy, the flat windows of the variance's own whole
        // numbers, which differ from the box means' only where their rounding puts a window across the cut. Busy
        // and plain surfaces, a card filling the photo, noise (busy everywhere, flat in places, and finely across
        // the busy line), edges of 16.
        List<ReducedPhoto> images = new ArrayList<>();
        int k = 0;
        for (PhotoSimulator.Surface surface : PhotoSimulator.Surface.values()) {
            for (CaptureSimulator.Severity severity : CaptureSimulator.Severity.values()) {
                PhotoSimulator.Photo photo = PhotoSimulator.wholePhoto(70 + k, 930 + k, severity, surface, 1600,
                        1200, 10 + 7 * k, 0.1 + 0.15 * k);
                images.add(ReducedPhoto.reduce(UprightPhoto.decode(photo.jpeg(), DECODER, UploadDeadline.none())
                        .image(), 1));
                k++;
            }
        }
        java.util.Random random = new java.util.Random(24);
        for (int[] size : new int[][] {{16, 16}, {17, 40}, {504, 378}, {200, 150}}) {
            int[] pixels = new int[size[0] * size[1]];
            for (int i = 0; i < pixels.length; i++) {
                // a quarter of the rows flat grey, the rest noise of every strength
                pixels[i] = (i / size[0]) % 4 == 0 ? 0x808080 : random.nextInt(1 << 24) & (0x3F3F3F << (i % 3));
            }
            images.add(ReducedPhoto.reduce(new RgbImage(size[0], size[1], pixels), 1));
        }
        for (int side = 0; side < 4; side++) {
            // busy but for a flat band along one side (left, right, top, bottom): the windows at the image's edges
            int[] pixels = new int[60 * 40];
            for (int i = 0; i < pixels.length; i++) {
                int x = i % 60;
                int y = i / 60;
                boolean band = side == 0 ? x < 10 : side == 1 ? x >= 50 : side == 2 ? y < 8 : y >= 32;
                pixels[i] = band ? 0x8080A0 + random.nextInt(3) : random.nextInt(1 << 24);
            }
            images.add(ReducedPhoto.reduce(new RgbImage(60, 40, pixels), 1));
        }
        for (double amplitude = 40; amplitude <= 60; amplitude += 1.0 / 32) {
            // uniform noise whose colour variance, about amplitude² / 4, runs finely across the busy line (9 × 8²)
            int[] pixels = new int[40 * 30];
            for (int i = 0; i < pixels.length; i++) {
                for (int shift = 0; shift <= 16; shift += 8) {
                    pixels[i] |= (int) (random.nextDouble() * amplitude) << shift;
                }
            }
            images.add(ReducedPhoto.reduce(new RgbImage(40, 30, pixels), 1));
        }
        int busy = 0;
        int rounded = 0;
        for (ReducedPhoto whole : images) {
            assertThat(whole.whole()).isTrue();
            ReducedPhoto means = new ReducedPhoto(whole.grey(), whole.red(), whole.green(), whole.blue(), null);
            int w = whole.grey().width;
            int h = whole.grey().height;
            boofcv.struct.image.GrayU8 fromSums = new boofcv.struct.image.GrayU8(w, h);
            boofcv.struct.image.GrayU8 fromMeans = new boofcv.struct.image.GrayU8(w, h);
            WorkingImages buffers = new WorkingImages();
            buffers.reshape(w, h);
            boolean sums = SurfaceMasks.smoothRegionMask(whole, fromSums, buffers);
            assertThat(sums).as("busy, %d x %d", w, h).isEqualTo(SurfaceMasks.smoothRegionMask(means, fromMeans,
                    buffers));
            if (sums) {
                // the whole numbers' mask is the variance's own; the box means' floats differ only by their rounding
                assertThat(fromSums.data).as("the mask, %d x %d", w, h).isEqualTo(flatByWindow(whole.pixels(), w, h));
                for (int i = 0; i < w * h; i++) {
                    if (fromSums.data[i] != fromMeans.data[i]) {
                        assertThat(buffers.variance[i]).as("a pixel's variance where the masks differ")
                                .isCloseTo(64f, org.assertj.core.data.Offset.offset(0.05f));
                        rounded++;
                    }
                }
            }
            busy += sums ? 1 : 0;
        }
        assertThat(busy).as("busy images").isBetween(2, images.size() - 2);
        assertThat(rounded).as("pixels the box means' rounding puts across the cut").isLessThan(20);
    }

    /**
     * Whether each pixel's 5 × 5 window (the part inside the image) has a colour variance under 8², its sums taken
     * window by window in whole numbers: n Q - S² summed over the channels against n² × 64.
     */
    private static byte[] flatByWindow(int[] pixels, int w, int h) {
        byte[] flat = new byte[w * h];
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                long n = 0;
                long[] sums = new long[3];
                long[] squares = new long[3];
                for (int wy = Math.max(0, y - 2); wy <= Math.min(h - 1, y + 2); wy++) {
                    for (int wx = Math.max(0, x - 2); wx <= Math.min(w - 1, x + 2); wx++) {
                        n++;
                        for (int c = 0; c < 3; c++) {
                            long v = (pixels[wy * w + wx] >> (16 - 8 * c)) & 0xFF;
                            sums[c] += v;
                            squares[c] += v * v;
                        }
                    }
                }
                long spread = 0;
                for (int c = 0; c < 3; c++) {
                    spread += n * squares[c] - sums[c] * sums[c];
                }
                flat[y * w + x] = (byte) (spread < 64 * n * n ? 1 : 0);
            }
        }
        return flat;
    }

    @Test
    void theRingIsThePixelsTwoFromTheEdgeAndTheUnreducedImageItsOwnPixels() {
        for (int[] size : new int[][] {{16, 16}, {504, 378}, {17, 40}}) {
            int[] ring = SurfaceMasks.ring(size[0], size[1]);
            java.util.List<Integer> expected = new ArrayList<>();
            for (int i = 0; i < size[0] * size[1]; i++) {
                int x = i % size[0];
                int y = i / size[0];
                if (x < 2 || y < 2 || x >= size[0] - 2 || y >= size[1] - 2) {
                    expected.add(i);
                }
            }
            assertThat(ring).as("%d x %d", size[0], size[1]).containsExactly(
                    expected.stream().mapToInt(Integer::intValue).toArray());
        }
        int[] pixels = new int[7 * 5];
        java.util.Random random = new java.util.Random(1);
        for (int i = 0; i < pixels.length; i++) {
            pixels[i] = random.nextInt(1 << 24);
        }
        RgbImage image = new RgbImage(7, 5, pixels);
        ReducedPhoto same = ReducedPhoto.reduce(image, 1);
        ReducedPhoto halved = ReducedPhoto.reduce(image, 2);
        assertThat(halved.grey().width).isEqualTo(4);
        for (int i = 0; i < pixels.length; i++) {
            assertThat(same.red()[i]).isEqualTo((pixels[i] >> 16) & 0xFF);
            assertThat(same.green()[i]).isEqualTo((pixels[i] >> 8) & 0xFF);
            assertThat(same.blue()[i]).isEqualTo(pixels[i] & 0xFF);
            assertThat(same.grey().data[i])
                    .isEqualTo(0.299f * same.red()[i] + 0.587f * same.green()[i] + 0.114f * same.blue()[i]);
        }
        // the last column of blocks is partial: its pixel (3, 0) is the mean of (6, 0) and (6, 1)
        assertThat(halved.red()[3]).isEqualTo((((pixels[6] >> 16) & 0xFF) + ((pixels[13] >> 16) & 0xFF)) / 2f);
    }

    @Test
    void aPhotoOfNothingButASurfaceHasNoCard() throws Exception {
        RgbImage blank = new RgbImage(400, 300, new int[400 * 300]);
        java.util.Arrays.fill(blank.pixels(), 0x8A7F6B);
        assertThat(new CardFinder().find(blank, UploadDeadline.none())).isEmpty();
    }

    @Test
    void aPhotoSoThinThatItsSearchIsUnderThreePixelsASideHasNoCardAndThrowsNothing() {
        // each reduced to 1 pixel on a side before this (BoofCV's gradient threw), or as thin as a search may be
        int[][] sizes = {{1, 1}, {1, 2}, {2, 1}, {1, 1000}, {1000, 1}, {3, 1200}, {1200, 3}, {4000, 8}, {8, 4000},
            {2, 2}, {2, 400}, {400, 2}};
        SplittableRandom random = new SplittableRandom(24);
        for (int[] size : sizes) {
            int[] pixels = random.ints((long) size[0] * size[1], 0, 1 << 24).toArray();
            assertThat(new CardFinder().find(new RgbImage(size[0], size[1], pixels), UploadDeadline.none()))
                    .as("%d x %d", size[0], size[1]).isEmpty();
        }
        // the thinnest searched: 4,000 x 12 is searched as 500 x 3 (no card fits in it either)
        assertThat(CardFinder.MIN_SEARCH_SIDE).isEqualTo(3);
        assertThat(new CardFinder().find(new RgbImage(4000, 12, random.ints(48_000, 0, 1 << 24).toArray()),
                UploadDeadline.none())).isEmpty();
    }

    @Test
    void anOutlineGrownByNothingIsItselfAndGrowsInPerspective() {
        Quad quad = Quad.of(10, 12, 110, 20, 118, 160, 4, 150);
        assertThat(quad.grown(0, 0).cornerDistance(quad)).isLessThan(1e-9);
        double[] centre = Quad.frame(100, 200).at(0.5, 0.5);
        assertThat(centre).containsExactly(50.0, 100.0);
        Quad grown = Quad.frame(100, 200).grown(0.1, 0.05);
        assertThat(grown.cornerDistance(Quad.of(-10, -10, 110, -10, 110, 210, -10, 210))).isLessThan(1e-9);
    }

    @Test
    void theContoursFittedAreBoofCVsOfAtLeastTheFittingsLengthInItsOrder() {
        // blobs with holes, touching blobs and specks of one pixel: contours of every length, inner ones too
        GrayU8 mask = new GrayU8(160, 120);
        java.util.Random random = new java.util.Random(24);
        for (int k = 0; k < 40; k++) {
            int x = random.nextInt(150);
            int y = random.nextInt(110);
            ImageMiscOps.fillRectangle(mask, 1, x, y, 1 + random.nextInt(30), 1 + random.nextInt(30));
            ImageMiscOps.fillRectangle(mask, 0, x + 2, y + 2, random.nextInt(6), random.nextInt(6));
        }
        for (int k = 0; k < 300; k++) {
            mask.set(random.nextInt(160), random.nextInt(120), 1);
        }
        WorkingImages buffers = new WorkingImages();
        buffers.reshape(mask.width, mask.height);
        for (int minPoints : new int[] {1, 2, 12, 40, 10_000}) {
            List<List<Point2D_I32>> all = new ArrayList<>();
            List<List<Point2D_I32>> external = new ArrayList<>();
            for (Contour contour : BinaryImageOps.contour(mask, ConnectRule.EIGHT, null)) {
                if (contour.external.size() >= minPoints) {
                    all.add(contour.external);
                }
                contour.internal.stream().filter(hole -> hole.size() >= minPoints).forEach(all::add);
            }
            for (Contour contour : BinaryImageOps.contourExternal(mask, ConnectRule.EIGHT)) {
                if (contour.external.size() >= minPoints) {
                    external.add(contour.external);
                }
            }
            MaskContours contours = buffers.contours(mask, true, minPoints);
            assertThat(copies(contours)).as("at least %d points", minPoints).isEqualTo(all);
            assertThat(copies(buffers.externalContours(mask, minPoints))).as("external, at least %d", minPoints)
                    .isEqualTo(external);
            if (minPoints == 2) {
                assertThat(buffers.contours(mask, true, 1)).hasSizeGreaterThan(all.size()); // the specks went
            }
            // fitted the longest first, those of one length in the finder's order
            int[] order = contours.longestFirst();
            assertThat(order).as("each once").containsExactlyInAnyOrder(java.util.stream.IntStream.range(0,
                    all.size()).toArray());
            for (int k = 1; k < order.length; k++) {
                int before = all.get(order[k - 1]).size();
                int after = all.get(order[k]).size();
                assertThat(before > after || before == after && order[k - 1] < order[k])
                        .as("contour %d (%d points) before contour %d (%d points)", order[k - 1], before, order[k],
                                after).isTrue();
            }
        }
    }

    @Test
    void aContoursRowEndsHaveTheHullOfAllItsPoints() throws Exception {
        // winding blobs (overlapping rectangles and discs with bites out of them) and a photo's own masks' contours:
        // the hull of the leftmost and rightmost point of each row is the hull of every point, vertex for vertex
        java.util.Random random = new java.util.Random(56);
        List<List<Point2D_I32>> contours = new ArrayList<>();
        for (int blob = 0; blob < 60; blob++) {
            GrayU8 mask = new GrayU8(120, 90);
            for (int k = 0; k < 1 + random.nextInt(12); k++) {
                int x = random.nextInt(100);
                int y = random.nextInt(70);
                if (random.nextBoolean()) {
                    ImageMiscOps.fillRectangle(mask, 1, x, y, 2 + random.nextInt(40), 2 + random.nextInt(40));
                } else {
                    int r = 2 + random.nextInt(20);
                    for (int v = -r; v <= r; v++) {
                        for (int u = -r; u <= r; u++) {
                            if (u * u + v * v <= r * r && mask.isInBounds(x + u, y + v)) {
                                mask.set(x + u, y + v, 1);
                            }
                        }
                    }
                }
                ImageMiscOps.fillRectangle(mask, 0, random.nextInt(110), random.nextInt(80), random.nextInt(12),
                        random.nextInt(12));
            }
            BinaryImageOps.contourExternal(mask, ConnectRule.EIGHT).forEach(c -> contours.add(c.external));
        }
        GrayU8 photoMask = new GrayU8(400, 300);
        RgbImage photo = new dev.cardcatalog.image.ImageDecoder().decode(PhotoSimulator.wholePhoto(3, 33,
                CaptureSimulator.Severity.HARSH, PhotoSimulator.Surface.PATTERNED, 400, 300).jpeg());
        for (int y = 0; y < 300; y++) {
            for (int x = 0; x < 400; x++) {
                photoMask.set(x, y, (photo.rgb(x, y) >> 8 & 0xff) > 128 ? 1 : 0);
            }
        }
        BinaryImageOps.contourExternal(photoMask, ConnectRule.EIGHT).forEach(c -> contours.add(c.external));
        assertThat(contours).hasSizeGreaterThan(200);
        int fewer = 0;
        for (List<Point2D_I32> contour : contours) {
            List<Point2D_I32> ends = QuadFit.rowEnds(contour);
            assertThat(contour).containsAll(ends);
            var all = QuadFit.hull(contour);
            var reduced = QuadFit.hull(ends);
            assertThat(reduced.size()).as("vertices of the hull of %s", contour).isEqualTo(all.size());
            for (int k = 0; k < all.size(); k++) {
                assertThat(reduced.get(k)).isEqualTo(all.get(k));
            }
            fewer += ends.size() < contour.size() ? 1 : 0;
        }
        assertThat(fewer).as("contours with fewer row ends than points").isGreaterThan(contours.size() / 2);
    }

    /** Each contour as read, copied before the next is read (a read overwrites the one before). */
    private static List<List<Point2D_I32>> copies(MaskContours contours) {
        List<List<Point2D_I32>> copies = new ArrayList<>();
        for (int k = 0; k < contours.size(); k++) {
            List<Point2D_I32> copy = new ArrayList<>();
            contours.get(k).forEach(p -> copy.add(p.copy()));
            copies.add(copy);
        }
        return copies;
    }

    @Test
    void aPixelIsMarkedOffTheSurfaceExactlyWhenItsColourDistanceIsOverFar() throws Exception {
        // markFar takes the least squared distance a row at a time: it must mark exactly the pixels whose distance to
        // the nearest surface colour (colourDistance, a root) is over far, on photos and on pixels placed at the bound
        java.util.Random random = new java.util.Random(31);
        List<ReducedPhoto> images = new ArrayList<>();
        for (PhotoSimulator.Surface surface : PhotoSimulator.Surface.values()) {
            PhotoSimulator.Photo photo = PhotoSimulator.wholePhoto(12, 905, CaptureSimulator.Severity.HARSH, surface,
                    1600, 1200, 25, 0.2);
            images.add(ReducedPhoto.reduce(UprightPhoto.decode(photo.jpeg(), DECODER, UploadDeadline.none()).image(), 1));
        }
        int[] pixels = new int[61 * 40];
        for (int i = 0; i < pixels.length; i++) {
            pixels[i] = random.nextInt(1 << 24);
        }
        images.add(ReducedPhoto.reduce(new RgbImage(61, 40, pixels), 1));
        images.add(ReducedPhoto.reduce(new RgbImage(61, 40, pixels), 2)); // means: fractions
        int marked = 0;
        int unmarked = 0;
        for (ReducedPhoto image : images) {
            for (int trial = 0; trial < 4; trial++) {
                float[][] centres = new float[trial + 3][];
                for (int c = 0; c < centres.length; c++) {
                    centres[c] = new float[] {random.nextFloat() * 255, random.nextFloat() * 255,
                            random.nextFloat() * 255};
                }
                int w = image.grey().width;
                int h = image.grey().height;
                // far exactly a pixel's colour distance (the bound itself is not far), or just under it (far)
                int at = random.nextInt(w * h);
                float distance = SurfaceMasks.colourDistance(centres, image.red()[at], image.green()[at],
                        image.blue()[at]);
                float far = trial == 0 ? distance : trial == 1 ? Math.nextDown(distance) : 24 + random.nextFloat() * 100;
                boofcv.struct.image.GrayU8 mask = new boofcv.struct.image.GrayU8(w, h);
                SurfaceMasks.markFar(image, centres, far, mask);
                for (int i = 0; i < w * h; i++) {
                    boolean off = SurfaceMasks.colourDistance(centres, image.red()[i], image.green()[i],
                            image.blue()[i]) > far;
                    assertThat(mask.data[i]).as("%d x %d, pixel %d, far %s", w, h, i, far).isEqualTo(
                            (byte) (off ? 1 : 0));
                    marked += off ? 1 : 0;
                    unmarked += off ? 0 : 1;
                }
                if (trial < 2) {
                    assertThat(mask.data[at]).as("the pixel at the bound, or just over it").isEqualTo((byte) trial);
                }
            }
        }
        assertThat(marked).isPositive();
        assertThat(unmarked).isPositive();
    }

    @Test
    void aSquaredDistanceIsOverTheBoundExactlyWhenItsRootedDistanceIsOverFar() {
        java.util.Random random = new java.util.Random(13);
        for (int k = 0; k < 20_000; k++) {
            float far = k < 3 ? new float[] {0f, 1f, 30f}[k] : random.nextFloat() * 400;
            float bound = SurfaceMasks.squaredWithin(far);
            assertThat((float) Math.sqrt(bound)).as("far %s", far).isLessThanOrEqualTo(far);
            assertThat((float) Math.sqrt(Math.nextUp(bound))).as("far %s", far).isGreaterThan(far);
            for (int j = 0; j < 20; j++) {
                float d = j < 10 ? bound + (j - 5) * Math.ulp(bound) : random.nextFloat() * 4 * bound;
                if (d >= 0) {
                    assertThat(d > bound).as("far %s, d %s", far, d).isEqualTo((float) Math.sqrt(d) > far);
                }
            }
        }
    }
}
