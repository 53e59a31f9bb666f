package dev.cardcatalog.scan.finder;

import boofcv.alg.filter.binary.GThresholdImageOps;
import boofcv.concurrency.BoofConcurrency;
import boofcv.struct.image.GrayF32;
import boofcv.struct.image.GrayU8;
import dev.cardcatalog.image.RgbImage;
import java.util.List;

/**
 * Finds the outlines of cards in a photo (SERVICE.md §5.10) with BoofCV. Candidate outlines are pooled from several
 * binarizations of the photo reduced to at most {@value #SEARCH_SIDE} pixels a side ({@link ReducedPhoto}), since no
 * one of them sees every card on every surface: the regions Canny's edges enclose ({@link CannyEdges}, at two
 * thresholds), the grey image cut at Otsu's threshold and at a local mean (windows a fifth and a tenth of the shorter
 * side), each both ways, and the masks of {@link SurfaceMasks}: the colours far from the surface's, a smooth
 * surface's light fitted and taken away, and on a busy surface the regions of flat colour. Of each mask its contours
 * are fitted with quadrilaterals ({@link OutlinePool}, {@link QuadFit}); the outlines found are grouped into cards
 * ({@link OutlineGroups}, {@link FoundCard}). When no mask gives an outline a lone card's size, the search runs again
 * taking a contour's convex hull more readily ({@link QuadFit#MIN_HULL_ALONG}): glare across a card's edge, or a
 * sleeve's white on a light surface, bites deep into it. Not before: on a busy surface, hulls of the pattern's blobs
 * are card-shaped too. On a busy surface, a card whose inside is mostly the surface's own colours is a patch of its
 * pattern, not a card, and is dropped ({@link SurfaceMasks#MIN_OFF_SURFACE}).
 *
 * <p>Cost, bounded before it starts: the search runs on the photo reduced by whole-pixel averaging to at most
 * {@value #SEARCH_SIDE} pixels on its longer side (about 8 float images of that size for the edge detector, 6.3 MB,
 * four more for the colour planes and the flat-colour test, and three byte images for the masks), on one thread; at
 * most {@value OutlinePool#MAX_CONTOURS_EACH} contours of each binarization and {@value OutlinePool#MAX_CONTOURS} in
 * all are read (those whose box is smaller than the least card are not fitted) and at most
 * {@value OutlinePool#MAX_OUTLINES} outlines kept (each time: a photo in which nothing is found is searched twice),
 * and the caller's {@link Deadline} is checked between the binarizations and every 16 contours. The masks' erosions
 * and dilations ({@link MaskMorphology}, BoofCV's bit for bit) and the window means ({@link BoxMean}, BoofCV's to a
 * float's rounding) are the finder's own: BoofCV's were two fifths of its time. About 16–19 ms of one core for a
 * 12 MP whole photo's 504 × 378 decode on a patterned surface (docs/benchmarks.md, {@code StageTimes}).
 * Thread-safe: a search takes working images no other search is using ({@link WorkingImages}), kept for the next.
 */
public final class CardFinder {

    /** Longest side, in pixels, of the image the cards are looked for in. */
    public static final int SEARCH_SIDE = 512;

    /**
     * The smallest share of the photo's area that a card alone in a photo covers (a card at 5 % of the frame, tilted
     * 35°, covers 4.1 %): when no outline is as large, and fewer than {@value #COLLECTION} are found, the search
     * looks again with contours' hulls.
     */
    static final double LONE_CARD_SHARE = 0.025;

    /** The fewest outlines found that may be the cards of a collection laid out in rows. */
    static final int COLLECTION = 4;

    /** The smallest outline kept, as a share of the photo's area. */
    public static final double MIN_AREA_SHARE = 0.01;

    /**
     * The shortest side, in pixels, of a reduced photo searched at all: a card's outline needs its two edges and a
     * pixel between them (and BoofCV's gradient, a pixel either side of each, throws on a 1-pixel image). A photo
     * reduced to less, a sliver such as 1,200 × 3 or 4,000 × 8, has no card found in it.
     */
    static final int MIN_SEARCH_SIDE = 3;

    static {
        // Work on the calling thread only: an upload's cost must stay within its own decoding turn.
        BoofConcurrency.USE_CONCURRENT = false;
    }

    /**
     * The cards in {@code image}, in no particular order.
     *
     * @param image    the photo as displayed (EXIF orientation applied), at any size
     * @param deadline the caller's deadline, checked between the steps and inside the loops
     * @return the cards found, at most one entry per card; empty when none is
     */
    public List<FoundCard> find(RgbImage image, Deadline deadline) {
        return find(image, SEARCH_SIDE, deadline);
    }

    /**
     * As {@link #find(RgbImage, Deadline)}, searching {@code image} reduced to at most {@code searchSide}
     * pixels on its longer side.
     */
    public List<FoundCard> find(RgbImage image, int searchSide, Deadline deadline) {
        WorkingImages working = spare.poll();
        if (working == null) {
            working = new WorkingImages();
        }
        try {
            return find(image, searchSide, deadline, working);
        } finally {
            if (working.pixels <= (long) SEARCH_SIDE * SEARCH_SIDE) {
                spare.offer(working); // dropped when enough are spare already
            }
        }
    }

    private List<FoundCard> find(RgbImage image, int searchSide, Deadline deadline, WorkingImages working) {
        int factor = Math.max(1, (Math.max(image.width(), image.height()) + searchSide - 1) / searchSide);
        ReducedPhoto small = ReducedPhoto.reduce(image, factor, working);
        GrayF32 grey = small.grey();
        if (grey.width < MIN_SEARCH_SIDE || grey.height < MIN_SEARCH_SIDE) {
            return List.of(); // a sliver of a photo (a 1-pixel line, a 4,000 x 8 strip): no card's outline fits in it
        }
        working.reshape(grey.width, grey.height);
        deadline.check("finding the cards");
        List<FoundCard> cards = find(small, factor, false, deadline, working);
        double loneCard = LONE_CARD_SHARE * grey.width * grey.height;
        if (cards.size() < COLLECTION && cards.stream().allMatch(c -> c.outer().area() < loneCard)) {
            // no mask has a contour shaped as a lone card, nor as the cards of a collection: glare across a card's
            // edge, or its sleeve's white on a light surface, can break it in every one. Look again, fitting a
            // contour that fails to its convex hull.
            cards = find(small, factor, true, deadline, working);
        }
        return cards;
    }

    /**
     * The cards in {@code small} (the photo reduced by {@code factor}), their outlines in the photo's pixels.
     *
     * @param hulls whether a contour no quadrilateral fits is fitted again as its convex hull ({@link QuadFit})
     */
    private List<FoundCard> find(ReducedPhoto small, int factor, boolean hulls, Deadline deadline,
            WorkingImages working) {
        GrayF32 grey = small.grey();
        double minArea = MIN_AREA_SHARE * grey.width * grey.height;
        OutlinePool pool = new OutlinePool(small, factor, minArea, hulls, deadline, working);

        // 1. the regions Canny's edges enclose (their outer and inner contours)
        CannyEdges canny = working.canny;
        GrayU8 edges = working.edges;
        canny.process(grey, 0.04f, 0.12f, edges);
        GrayU8 closed = MaskMorphology.dilate8(edges, working.closed); // closes gaps of a pixel in the edges
        deadline.check("finding the cards");
        pool.addContours(working.contours(closed, true, pool.minPoints));

        // 2. the grey image cut at Otsu's threshold, bright on dark and dark on bright
        double otsu = GThresholdImageOps.computeOtsu(grey, 0, 256);
        GrayU8 binary = working.binary;
        GrayU8 eroded = working.eroded;
        for (boolean down : new boolean[] {false, true}) {
            GThresholdImageOps.threshold(grey, binary, otsu, down);
            pool.addMask(binary, eroded);
        }

        // 3. a local threshold (the mean of a window a fifth, and a tenth, of the image's shorter side), both ways:
        // cards that touch one another or a pocket's edge, light that changes across the photo
        GrayF32 mean = working.mean;
        for (int share : LOCAL_WINDOWS) {
            int window = Math.max(15, Math.min(grey.width, grey.height) / share) | 1;
            BoxMean.mean(grey, mean, window / 2);
            for (boolean down : new boolean[] {false, true}) {
                localThreshold(grey, mean, LOCAL_SCALE, down, binary);
                deadline.check("finding the cards");
                pool.addMask(binary, eroded);
            }
        }
        // 4. what differs in colour from the surface seen along the photo's edge (a patterned surface, a card of
        // nearly the surface's brightness)
        GrayU8 offSurface = null;
        if (SurfaceMasks.surfaceMask(small, binary, eroded)) {
            offSurface = working.offSurface;
            offSurface.setTo(binary);
            pool.addMask(binary, eroded);
        }
        // 5. a smooth surface's own light fitted and taken away (a white border on a white table)
        if (SurfaceMasks.smoothSurfaceMask(small, binary, eroded)) {
            pool.addMask(binary, eroded);
        }

        // 6. on a busy surface, what is smooth (a card's body or border between a fine pattern's squares)
        boolean busy = SurfaceMasks.smoothRegionMask(small, binary, working);
        if (busy) {
            pool.addMask(binary, eroded);
        }
        deadline.check("finding the cards");

        // 7. Canny again at half the thresholds: the faint edges the art's strong ones outshone
        canny.again(0.02f, 0.06f, edges);
        MaskMorphology.dilate8(edges, closed);
        deadline.check("finding the cards");
        pool.addContours(working.contours(closed, true, pool.minPoints));

        deadline.check("finding the cards");
        List<FoundCard> cards = OutlineGroups.group(pool.outlines());
        if (offSurface != null && busy) {
            GrayU8 off = offSurface;
            cards.removeIf(card -> SurfaceMasks.offSurfaceShare(off, card.outer().scaled(1.0 / factor, 1.0 / factor))
                    < SurfaceMasks.MIN_OFF_SURFACE);
        }
        return cards;
    }

    /** The local threshold's scale: a pixel is dark below 0.95 of its window's mean, light above 1 / 0.95. */
    static final float LOCAL_SCALE = 0.95f;

    /**
     * BoofCV's local mean threshold ({@code FactoryThresholdBinary.localMean}: dark is {@code grey <= mean * scale},
     * light is {@code grey * scale > mean}, in single precision as it compares them) over a mean image computed
     * once for both ways ({@code BlurImageOps.mean} with the window's radius, as it computes it); the same masks bit
     * for bit (CardFinderTest), for half the blurring.
     */
    static void localThreshold(GrayF32 grey, GrayF32 mean, float scale, boolean down, GrayU8 binary) {
        float[] in = grey.data;
        float[] m = mean.data;
        byte[] out = binary.data;
        int n = grey.width * grey.height;
        if (down) {
            for (int i = 0; i < n; i++) {
                out[i] = in[i] <= m[i] * scale ? (byte) 1 : 0;
            }
        } else {
            for (int i = 0; i < n; i++) {
                out[i] = in[i] * scale > m[i] ? (byte) 1 : 0;
            }
        }
    }

    /** The local thresholds' windows, as the share of the image's shorter side (a fifth, a tenth). */
    private static final int[] LOCAL_WINDOWS = {5, 10};

    /**
     * The most {@link WorkingImages} kept for the next searches: twice the cores, enough for a replica whose operator
     * lets twice the cores match at once (the service's match concurrency, the cores by default). Only as many
     * are ever made as searches ran at once. A search beyond them takes working images of its own, some 10 MB that
     * live as long as the search: long enough to outlive a young collection, be promoted, and fill the old generation
     * (docs/benchmarks.md, the collector's log).
     */
    static final int SPARE = 2 * Runtime.getRuntime().availableProcessors();

    private final java.util.concurrent.ArrayBlockingQueue<WorkingImages> spare =
            new java.util.concurrent.ArrayBlockingQueue<>(SPARE);
}
