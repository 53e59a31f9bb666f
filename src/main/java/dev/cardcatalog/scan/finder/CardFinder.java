package dev.cardcatalog.scan.finder;

import boofcv.alg.filter.binary.ContourPacked;
import boofcv.alg.filter.binary.GThresholdImageOps;
import boofcv.abst.filter.binary.BinaryContourFinder;
import boofcv.abst.filter.binary.BinaryContourInterface;
import boofcv.abst.filter.binary.BinaryLabelContourFinder;
import boofcv.alg.misc.PixelMath;
import boofcv.alg.shapes.polyline.splitmerge.PolylineSplitMerge;
import boofcv.alg.shapes.polygon.RefinePolygonToGrayLine;
import boofcv.concurrency.BoofConcurrency;
import boofcv.factory.filter.binary.FactoryBinaryContourFinder;
import boofcv.struct.ConfigLength;
import boofcv.struct.ConnectRule;
import boofcv.struct.image.GrayF32;
import boofcv.struct.image.GrayS32;
import boofcv.struct.image.GrayU8;
import dev.cardcatalog.image.RgbImage;
import georegression.fitting.line.FitLine_F64;
import georegression.fitting.polygon.ConvexHullAndrewMonotone_F64;
import georegression.geometry.UtilLine2D_F64;
import georegression.metric.Intersection2D_F64;
import georegression.struct.line.LineGeneral2D_F64;
import georegression.struct.line.LinePolar2D_F64;
import georegression.struct.point.Point2D_F64;
import georegression.struct.point.Point2D_I32;
import georegression.struct.shapes.Polygon2D_F64;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.ddogleg.struct.DogArray;
import org.ddogleg.struct.DogArray_I32;

/**
 * Finds the outlines of cards in a photo (SERVICE.md §5.10) with BoofCV. Candidate outlines are pooled from several
 * binarizations of the photo reduced to at most {@value #SEARCH_SIDE} pixels a side, since no one of them sees every
 * card on every surface: the regions Canny's edges enclose (at two thresholds), the grey image cut at Otsu's
 * threshold and at a local mean (windows a fifth and a tenth of the shorter side), each both ways, the colours far
 * from the surface's (k-means of the photo's edge), a smooth surface's light fitted and taken away, and on a busy
 * surface the regions of flat colour; of each mask its external contours, also after a 1-pixel erosion (cards that
 * touch come apart). A quadrilateral is fitted to each contour by split-and-merge ({@link PolylineSplitMerge}, the
 * fit BoofCV's polygon detector uses; again more loosely when that fails), its sides fitted clear of the rounded
 * corners, then snapped to the edge in the grey image with sub-pixel precision ({@link RefinePolygonToGrayLine}).
 * A contour that no quadrilateral fits is fitted as its convex hull ({@link ConvexHullAndrewMonotone_F64}) when it
 * runs along nearly all of the hull ({@link #MIN_NOTCHED_ALONG}): a die or a fingertip over a card's border bites a
 * notch out of its outline in every mask. When no mask gives an outline a lone card's size, they are all looked at
 * again, taking a hull that the contour runs along most of ({@link #MIN_HULL_ALONG}): glare across a card's edge, or a
 * sleeve's white on a light surface, bites deeper. Not before: on a busy surface, hulls of the pattern's blobs are
 * card-shaped too.
 * An outline is kept when it is card-shaped (below) and an edge all round ({@link #edgeContrast}); one found again
 * by another binarization counts as support. A card gives several nested outlines (a sleeve or a pocket around it,
 * its own edge, the inside of its border); they are kept together as the outlines of one {@link FoundCard}, the
 * most supported first, and which one frames the card is decided by matching (in {@code scan.PhotoMatch}). On a busy
 * surface, a card whose inside is mostly the surface's own colours is a patch of its pattern, not a card, and is
 * dropped ({@link #MIN_OFF_SURFACE}).
 *
 * <p>What counts as a card's outline: a convex quadrilateral whose corners are at 35°–145°, whose opposite sides
 * differ by at most 1.9 times (perspective), whose longer pair of sides is 0.95–2.3 times the shorter pair (a card is
 * 88 / 63 = 1.40; a tilt of 35° makes it 1.15–1.71 and perspective a little more), and whose area is at least
 * {@value #MIN_AREA_SHARE} of the photo's (a collection of 40 cards laid out in a grid gives each about 1.5 %, and a
 * photo holds up to 64).
 *
 * <p>Cost, bounded before it starts: the search runs on the photo reduced by whole-pixel averaging to at most
 * {@value #SEARCH_SIDE} pixels on its longer side (about 8 float images of that size for the edge detector, 6.3 MB,
 * four more for the colour planes and the flat-colour test, and three byte images for the masks), on one thread; at
 * most {@value #MAX_CONTOURS_EACH} contours of each binarization and {@value #MAX_CONTOURS} in all are fitted and at
 * most {@value #MAX_OUTLINES} outlines kept (each time: a photo in which nothing is found is searched twice), and the
 * upload's deadline is checked between the binarizations and every 16 contours. The masks' erosions and dilations ({@link MaskMorphology}, BoofCV's bit for bit) and the window means
 * ({@link BoxMean}, BoofCV's to a float's rounding) are the finder's own: BoofCV's were two fifths of its time. About
 * 35–55 ms of one core for a 12 MP photo's 504 × 378 decode (docs/benchmarks.md, issue 24).
 * Thread-safe: a search takes working images no other search is using ({@link Buffers}), kept for the next.
 */
public final class CardFinder {

    /** Longest side, in pixels, of the image the cards are looked for in. */
    public static final int SEARCH_SIDE = 512;

    /** An outline whose corners are all within this share of the photo's size of its corners is its edge. */
    static final double FRAME_SHARE = 0.03;

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

    /** The most contours a polygon is fitted to (the longest first). */
    static final int MAX_CONTOURS = 600;

    /** The most card outlines kept from one photo, before they are grouped into cards. */
    static final int MAX_OUTLINES = 256;

    static {
        // Work on the calling thread only: an upload's cost must stay within its own decoding turn.
        BoofConcurrency.USE_CONCURRENT = false;
    }

    /**
     * One card found: its outlines, the most often found first (found by more of the binarizations), each a quad in
     * the searched image's pixel-edge coordinates scaled back to those of the image given to {@link #find}, starting
     * at the corner that is top-left when the card is upright or upside down (corner 0 to 1 is one of its short
     * sides); at most {@value #MAX_PER_CARD}.
     */
    public record FoundCard(List<Quad> outlines) {

        /**
         * The outline that is most likely the card's own edge, answered for a card that no artwork is confident of
         * (which outline frames the card is then not decided by matching): the largest of its outlines whose
         * {@link Quad#skew() skew} is within {@value #EDGE_SKEW_SLACK}° of the least skewed one. The largest, since
         * a card's other outlines are inside its edge (the inside of its border, its art box); not a skewed one, since
         * an outline that took in part of a neighbour or of the surface is larger than the card and no rectangle.
         */
        public Quad edge() {
            double least = outlines.stream().mapToDouble(Quad::skew).min().orElse(0);
            Quad best = null;
            for (Quad q : outlines) {
                if (q.skew() <= least + EDGE_SKEW_SLACK && (best == null || q.area() > best.area())) {
                    best = q;
                }
            }
            return best;
        }

        /** The largest outline. */
        public Quad outer() {
            Quad largest = outlines.get(0);
            for (Quad q : outlines) {
                if (q.area() > largest.area()) {
                    largest = q;
                }
            }
            return largest;
        }
    }

    /**
     * The cards in {@code image}, in no particular order.
     *
     * @param image    the photo as displayed (EXIF orientation applied), at any size
     * @param deadline the upload's deadline, checked between the steps and inside the loops
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
        Buffers buffers = spare.poll();
        if (buffers == null) {
            buffers = new Buffers();
        }
        try {
            return find(image, searchSide, deadline, buffers);
        } finally {
            if (buffers.pixels <= (long) SEARCH_SIDE * SEARCH_SIDE) {
                spare.offer(buffers); // dropped when enough are spare already
            }
        }
    }

    private List<FoundCard> find(RgbImage image, int searchSide, Deadline deadline, Buffers buffers) {
        int factor = Math.max(1, (Math.max(image.width(), image.height()) + searchSide - 1) / searchSide);
        Reduced small = reduce(image, factor, buffers);
        GrayF32 grey = small.grey;
        if (grey.width < MIN_SEARCH_SIDE || grey.height < MIN_SEARCH_SIDE) {
            return List.of(); // a sliver of a photo (a 1-pixel line, a 4,000 x 8 strip): no card's outline fits in it
        }
        buffers.reshape(grey.width, grey.height);
        deadline.check("finding the cards");
        List<FoundCard> cards = find(small, factor, false, deadline, buffers);
        double loneCard = LONE_CARD_SHARE * grey.width * grey.height;
        if (cards.size() < COLLECTION && cards.stream().allMatch(c -> c.outer().area() < loneCard)) {
            // no mask has a contour shaped as a lone card, nor as the cards of a collection: glare across a card's
            // edge, or its sleeve's white on a light surface, can break it in every one. Look again, fitting a
            // contour that fails to its convex hull.
            cards = find(small, factor, true, deadline, buffers);
        }
        return cards;
    }

    /**
     * The cards in {@code small} (the photo reduced by {@code factor}), their outlines in the photo's pixels.
     *
     * @param hulls whether a contour no quadrilateral fits is fitted again as its convex hull ({@link Pool#add})
     */
    private List<FoundCard> find(Reduced small, int factor, boolean hulls, Deadline deadline,
            Buffers buffers) {
        GrayF32 grey = small.grey;
        double minArea = MIN_AREA_SHARE * grey.width * grey.height;
        Pool pool = new Pool(small, factor, minArea, hulls, deadline, buffers);

        // 1. the regions Canny's edges enclose (their outer and inner contours)
        CannyEdges canny = buffers.canny;
        GrayU8 edges = buffers.edges;
        canny.process(grey, 0.04f, 0.12f, edges);
        GrayU8 closed = MaskMorphology.dilate8(edges, buffers.closed); // closes gaps of a pixel in the edges
        deadline.check("finding the cards");
        pool.addContours(buffers.contours(closed, true, pool.minPoints));

        // 2. the grey image cut at Otsu's threshold, bright on dark and dark on bright
        double otsu = GThresholdImageOps.computeOtsu(grey, 0, 256);
        GrayU8 binary = buffers.binary;
        GrayU8 eroded = buffers.eroded;
        for (boolean down : new boolean[] {false, true}) {
            GThresholdImageOps.threshold(grey, binary, otsu, down);
            pool.addMask(binary, eroded);
        }

        // 3. a local threshold (the mean of a window a fifth, and a tenth, of the image's shorter side), both ways:
        // cards that touch one another or a pocket's edge, light that changes across the photo
        GrayF32 mean = buffers.mean;
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
        if (surfaceMask(small, binary, eroded)) {
            offSurface = buffers.offSurface;
            offSurface.setTo(binary);
            pool.addMask(binary, eroded);
        }
        // 5. a smooth surface's own light fitted and taken away (a white border on a white table)
        if (smoothSurfaceMask(small, binary, eroded)) {
            pool.addMask(binary, eroded);
        }

        // 6. on a busy surface, what is smooth (a card's body or border between a fine pattern's squares)
        boolean busy = smoothRegionMask(small, binary, buffers);
        if (busy) {
            pool.addMask(binary, eroded);
        }
        deadline.check("finding the cards");

        // 7. Canny again at half the thresholds: the faint edges the art's strong ones outshone
        canny.again(0.02f, 0.06f, edges);
        MaskMorphology.dilate8(edges, closed);
        deadline.check("finding the cards");
        pool.addContours(buffers.contours(closed, true, pool.minPoints));

        deadline.check("finding the cards");
        List<FoundCard> cards = group(pool.outlines());
        if (offSurface != null && busy) {
            GrayU8 off = offSurface;
            cards.removeIf(card -> offSurfaceShare(off, card.outer().scaled(1.0 / factor, 1.0 / factor))
                    < MIN_OFF_SURFACE);
        }
        return cards;
    }

    /**
     * The share of the points of a grid over {@code outline} (pixel-edge coordinates of the small image), from
     * {@value #OFF_SURFACE_INSET} of its width and height inside each side, that {@code offSurface} marks.
     */
    static double offSurfaceShare(GrayU8 offSurface, Quad outline) {
        int marked = 0;
        int n = OFF_SURFACE_GRID;
        for (int j = 0; j < n; j++) {
            for (int i = 0; i < n; i++) {
                double[] p = outline.at(OFF_SURFACE_INSET + (1 - 2 * OFF_SURFACE_INSET) * (i + 0.5) / n,
                        OFF_SURFACE_INSET + (1 - 2 * OFF_SURFACE_INSET) * (j + 0.5) / n);
                int x = (int) Math.floor(p[0]);
                int y = (int) Math.floor(p[1]);
                if (offSurface.isInBounds(x, y) && offSurface.unsafe_get(x, y) != 0) {
                    marked++;
                }
            }
        }
        return marked / (double) (n * n);
    }

    /**
     * On a busy surface, an outline less than this share of whose inside differs from the surface's colours
     * ({@link #surfaceMask}) is a piece of the surface's pattern, not a card: a card's art and text box are not the
     * surface's colours.
     */
    static final double MIN_OFF_SURFACE = 0.25;

    /** The points a side of {@link #offSurfaceShare}'s grid. */
    static final int OFF_SURFACE_GRID = 16;

    /** How far inside an outline's sides {@link #offSurfaceShare}'s grid starts: clear of a card's border. */
    static final double OFF_SURFACE_INSET = 0.1;

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

    /**
     * The working images of one search, kept for the next: a search allocated about 13 MB of them at 504 × 378, and
     * at twenty 12 MP photos a second over HTTP that garbage had the 256 MB heap's collector stop the process for a
     * quarter of its time (JFR of {@code bench/match-http-bench.sh}, issue 24). Every step overwrites what it reads of them (BoofCV's edge detector and
     * contour finders are made to run frame after frame), so a search finds what it finds with new ones
     * (CardFinderTest). Used by one search at a time; {@link CardFinder} keeps at most {@link #SPARE} of them, each of
     * at most {@value #SEARCH_SIDE} × {@value #SEARCH_SIDE} pixels (about 14 MB at 504 × 378): those of a finer
     * search are dropped after it.
     */
    static final class Buffers {
        final CannyEdges canny = new CannyEdges();
        final GrayU8 edges = new GrayU8(1, 1);
        final GrayU8 closed = new GrayU8(1, 1);
        final GrayU8 binary = new GrayU8(1, 1);
        final GrayU8 eroded = new GrayU8(1, 1);
        final GrayU8 offSurface = new GrayU8(1, 1);
        final GrayF32 grey = new GrayF32(1, 1);
        final GrayF32 mean = new GrayF32(1, 1);
        final GrayF32 plane = new GrayF32(1, 1);
        final GrayF32 meanOfSquares = new GrayF32(1, 1);
        final GrayS32 labels = new GrayS32(1, 1);
        final BinaryLabelContourFinder labelled = FactoryBinaryContourFinder.linearChang2004();
        final BinaryContourFinder external = FactoryBinaryContourFinder.linearExternal();
        /** A contour's points as the finders give them, reused from one contour to the next. */
        final DogArray<Point2D_I32> points = new DogArray<>(Point2D_I32::new);
        final float[][] planes = new float[3][0];
        float[] variance = new float[0];
        /** The most pixels these images have been shaped for. */
        long pixels;

        Buffers() {
            labelled.setConnectRule(ConnectRule.EIGHT);
            external.setConnectRule(ConnectRule.EIGHT);
        }

        /** Shapes the images for a search of a {@code w × h} image. */
        void reshape(int w, int h) {
            for (GrayU8 image : new GrayU8[] {edges, closed, binary, eroded, offSurface}) {
                image.reshape(w, h);
            }
            for (GrayF32 image : new GrayF32[] {mean, plane, meanOfSquares}) {
                image.reshape(w, h);
            }
            labels.reshape(w, h);
            if (variance.length < w * h) {
                variance = new float[w * h];
            }
            pixels = Math.max(pixels, (long) w * h);
        }

        /** Colour plane {@code index} (red, green, blue), exactly {@code n} long; its values are left over. */
        float[] plane(int index, int n) {
            if (planes[index].length != n) {
                planes[index] = new float[n];
            }
            pixels = Math.max(pixels, n);
            return planes[index];
        }

        /**
         * The contours of {@code mask} of at least {@code minPoints} points, as {@code BinaryImageOps.contour(mask,
         * ConnectRule.EIGHT, null)} has them (each external contour, then with {@code holes} its internal ones, in the
         * finder's order), with these buffers' finder and labels; read as {@link Contours} says.
         */
        Contours contours(GrayU8 mask, boolean holes, int minPoints) {
            labelled.process(mask, labels);
            return new Contours(labelled, holes, minPoints, points);
        }

        /** {@code BinaryImageOps.contourExternal(mask, ConnectRule.EIGHT)}'s of at least {@code minPoints} points. */
        Contours externalContours(GrayU8 mask, int minPoints) {
            external.process(mask);
            return new Contours(external, false, minPoints, points);
        }
    }

    /**
     * The contours of a mask that a finder found, those of at least a number of points, in the finder's order, not
     * copied: {@link #get} loads one into the buffers' one array of points and answers a view of it, valid until the
     * next is read. A search fits at most {@value #MAX_CONTOURS_EACH} of a mask's, the longest; copying every long one
     * (a {@code Point2D_I32} a point) was a fifth of the bytes a 12 MP photo's match allocated (JFR).
     */
    static final class Contours extends java.util.AbstractList<List<Point2D_I32>> {
        private final BinaryContourInterface finder;
        private final DogArray<Point2D_I32> points;
        private final DogArray_I32 ids = new DogArray_I32();
        private final DogArray_I32 lengths = new DogArray_I32();

        Contours(BinaryContourInterface finder, boolean holes, int minPoints, DogArray<Point2D_I32> points) {
            this.finder = finder;
            this.points = points;
            for (ContourPacked contour : finder.getContours()) {
                keepIfLong(contour.externalIndex, minPoints);
                if (holes) {
                    for (int j = 0; j < contour.internalIndexes.size; j++) {
                        keepIfLong(contour.internalIndexes.get(j), minPoints);
                    }
                }
            }
        }

        private void keepIfLong(int id, int minPoints) {
            finder.loadContour(id, points);
            if (points.size >= minPoints) {
                ids.add(id);
                lengths.add(points.size);
            }
        }

        /** Contour {@code k}'s points: a view of the buffers' array, valid until the next contour is read. */
        @Override
        public List<Point2D_I32> get(int k) {
            finder.loadContour(ids.get(k), points);
            return points.toList();
        }

        @Override
        public int size() {
            return ids.size;
        }

        /** The contours' indices, the longest first, those of one length in the finder's order. */
        int[] longestFirst() {
            long[] keys = new long[ids.size];
            for (int k = 0; k < keys.length; k++) {
                keys[k] = (long) (Integer.MAX_VALUE - lengths.get(k)) << 32 | k;
            }
            java.util.Arrays.sort(keys);
            int[] order = new int[keys.length];
            for (int k = 0; k < keys.length; k++) {
                order[k] = (int) keys[k];
            }
            return order;
        }
    }

    /**
     * The most {@link Buffers} kept for the next searches: twice the cores, enough for a replica whose operator
     * lets twice the cores match at once (the service's match concurrency, the cores by default). Only as many
     * are ever made as searches ran at once. A search beyond them takes working images of its own, some 10 MB that
     * live as long as the search: long enough to outlive a young collection, be promoted, and fill the old generation
     * (docs/benchmarks.md, issue 24, the collector's log).
     */
    static final int SPARE = 2 * Runtime.getRuntime().availableProcessors();

    private final java.util.concurrent.ArrayBlockingQueue<Buffers> spare =
            new java.util.concurrent.ArrayBlockingQueue<>(SPARE);

    /**
     * The photo reduced: its grey image and its red, green and blue planes at the same size.
     *
     * @param whole whether the planes are the photo's own 8-bit values (reduced by a factor of 1): whole numbers
     *              0–255, whose sums are exact in any order ({@link #busyRing} sums them as ints)
     */
    record Reduced(GrayF32 grey, float[] red, float[] green, float[] blue, boolean whole) {
    }

    /**
     * The candidate outlines of one photo, pooled from every binarization: an outline found again (corners within
     * {@value #SAME_SHARE} of its shorter side) counts once more for the first, and the most often found come first.
     */
    private static final class Pool {
        final Reduced small;
        final GrayF32 grey;
        final int factor;
        final double minArea;
        final boolean hulls;
        final int minPoints;
        final Deadline deadline;
        final Buffers buffers;
        final PolylineSplitMerge fit = new PolylineSplitMerge();
        final PolylineSplitMerge loose = new PolylineSplitMerge();
        final List<Quad> quads = new ArrayList<>();
        final List<int[]> support = new ArrayList<>();
        final List<Double> contrast = new ArrayList<>();
        int fitted;

        Pool(Reduced small, int factor, double minArea, boolean hulls, Deadline deadline, Buffers buffers) {
            this.small = small;
            this.hulls = hulls;
            this.buffers = buffers;
            this.grey = small.grey;
            this.factor = factor;
            this.minArea = minArea;
            this.minPoints = (int) Math.sqrt(minArea) * 2;
            this.deadline = deadline;
            fit.setLoops(true);
            fit.setConvex(true);
            fit.setMinSides(4);
            fit.setMaxSides(4);
            fit.setMinimumSideLength(Math.max(6, (int) (Math.sqrt(minArea) / 4)));
            fit.setCornerScorePenalty(0.25);
            // a mask's outline with bits of the surface along it: sides further from straight, not quite convex
            loose.setLoops(true);
            loose.setConvex(false);
            loose.setMinSides(4);
            loose.setMaxSides(4);
            loose.setMinimumSideLength(Math.max(6, (int) (Math.sqrt(minArea) / 4)));
            loose.setCornerScorePenalty(0.25);
            loose.setMaxSideError(ConfigLength.relative(LOOSE_SIDE_ERROR, 4));
        }

        /** The external contours of {@code mask}, and of it eroded by a pixel (cards that touch come apart). */
        void addMask(GrayU8 mask, GrayU8 eroded) {
            deadline.check("finding the cards");
            addContours(buffers.externalContours(mask, minPoints));
            MaskMorphology.erode8(mask, eroded);
            deadline.check("finding the cards");
            addContours(buffers.externalContours(eroded, minPoints));
        }

        /** Fits the contours given (each of at least {@link #minPoints} points), the longest first. */
        void addContours(Contours contours) {
            int[] order = contours.longestFirst();
            for (int k = 0; k < order.length && k < MAX_CONTOURS_EACH && fitted < MAX_CONTOURS; k++) {
                if (++fitted % 16 == 0) {
                    deadline.check("finding the cards");
                }
                add(contours.get(order[k])); // read, and done with, before the next
            }
        }

        private void add(List<Point2D_I32> sequence) {
            Quad quad = fitted(sequence);
            if (quad == null && boundsArea(sequence) >= minArea) {
                // a die or a fingertip over a card's border, glare across its edge, or a sleeve's white on a light
                // surface, bite notches out of the mask: a card is convex, so its outline is its contour's convex
                // hull's, when the contour runs along nearly all of that outline (a pattern's blob or a speckled
                // region does not); along most of it, when no mask gave a card at all ({@code hulls})
                Quad hull = fitted(hullContour(sequence));
                if (hull != null && alongOutline(sequence, hull) >= (hulls ? MIN_HULL_ALONG : MIN_NOTCHED_ALONG)) {
                    quad = hull;
                }
            }
            if (quad == null) {
                return;
            }
            Quad refined = refine(quad, grey);
            if (refined != null && cardShaped(refined, minArea)) {
                quad = refined;
            }
            // BoofCV's coordinates are pixel centres; ours pixel edges
            Quad outline = upright(quad.translated(0.5, 0.5));
            if (upright(Quad.frame(grey.width, grey.height)).cornerDistance(outline)
                    < FRAME_SHARE * Math.max(grey.width, grey.height)) {
                return; // the photo's own edge (a busy surface's edges reach it): the whole photo is tried anyway
            }
            Quad scaled = outline.scaled(factor, factor);
            for (int k = 0; k < quads.size(); k++) {
                Quad q = quads.get(k);
                if (sameOutline(q, scaled)) {
                    support.get(k)[0]++;
                    return;
                }
            }
            if (quads.size() >= MAX_OUTLINES) {
                return;
            }
            double edge = edgeContrast(small, quad);
            if (edge < MIN_EDGE_CONTRAST) {
                return; // no edge all round: the halo of a local threshold around a card, a shadow's outline
            }
            quads.add(scaled);
            support.add(new int[] {1});
            contrast.add(edge);
        }

        /**
         * The card-shaped quadrilateral fitted to {@code sequence} (split-and-merge, again more loosely when that
         * fails; its sides by {@link #sidesMet}), or null.
         */
        private Quad fitted(List<Point2D_I32> sequence) {
            PolylineSplitMerge used = fit;
            if (!fit.process(sequence) || fit.getBestPolyline() == null) {
                used = loose;
                if (!loose.process(sequence) || loose.getBestPolyline() == null) {
                    return null;
                }
            }
            DogArray_I32 corners = used.getBestPolyline().splits;
            if (corners.size != 4) {
                return null;
            }
            Quad quad = sidesMet(sequence, corners);
            return quad != null && cardShaped(quad, minArea) ? quad : null;
        }

        /** The outlines, the most often found first (the first found on a tie). */
        List<Quad> outlines() {
            Integer[] order = new Integer[quads.size()];
            for (int k = 0; k < order.length; k++) {
                order[k] = k;
            }
            java.util.Arrays.sort(order, Comparator.comparingInt((Integer k) -> -support.get(k)[0])
                    .thenComparingDouble(k -> -contrast.get(k)));
            List<Quad> out = new ArrayList<>();
            for (Integer k : order) {
                out.add(quads.get(k));
            }
            return out;
        }
    }

    /**
     * How clearly {@code quad} (pixel-centre coordinates of the small image) is an edge all round: for each side, the
     * mean colour difference (Euclidean, 0–255 a channel) between points {@value #EDGE_STEP} pixels either side of it,
     * along its middle (clear of rounded corners); the least of the four sides.
     */
    static double edgeContrast(Reduced small, Quad quad) {
        double least = Double.MAX_VALUE;
        int w = small.grey.width;
        int h = small.grey.height;
        double cx = quad.centreX();
        double cy = quad.centreY();
        for (int side = 0; side < 4; side++) {
            double x0 = quad.x(side);
            double y0 = quad.y(side);
            double x1 = quad.x(side + 1);
            double y1 = quad.y(side + 1);
            double length = Math.hypot(x1 - x0, y1 - y0);
            if (length < 1) {
                return 0;
            }
            double nx = -(y1 - y0) / length;
            double ny = (x1 - x0) / length;
            if (nx * ((x0 + x1) / 2 - cx) + ny * ((y0 + y1) / 2 - cy) < 0) {
                nx = -nx; // outwards
                ny = -ny;
            }
            int samples = Math.max(4, (int) (length / 2));
            double sum = 0;
            int counted = 0;
            for (int k = 0; k < samples; k++) {
                double t = 0.15 + 0.7 * (k + 0.5) / samples;
                double px = x0 + t * (x1 - x0);
                double py = y0 + t * (y1 - y0);
                double ox = px + EDGE_STEP * nx;
                double oy = py + EDGE_STEP * ny;
                double ix = px - EDGE_STEP * nx;
                double iy = py - EDGE_STEP * ny;
                if (ox < 0 || oy < 0 || ox > w - 1 || oy > h - 1 || ix < 0 || iy < 0 || ix > w - 1 || iy > h - 1) {
                    continue;
                }
                double dr = bilinear(small.red, w, ox, oy) - bilinear(small.red, w, ix, iy);
                double dg = bilinear(small.green, w, ox, oy) - bilinear(small.green, w, ix, iy);
                double db = bilinear(small.blue, w, ox, oy) - bilinear(small.blue, w, ix, iy);
                sum += Math.sqrt(dr * dr + dg * dg + db * db);
                counted++;
            }
            least = Math.min(least, counted == 0 ? 0 : sum / counted);
        }
        return least;
    }

    private static double bilinear(float[] plane, int w, double x, double y) {
        int x0 = Math.min((int) x, w - 2);
        int y0 = (int) y;
        int h = plane.length / w;
        y0 = Math.min(y0, h - 2);
        double fx = x - x0;
        double fy = y - y0;
        int i = y0 * w + x0;
        return (plane[i] * (1 - fx) + plane[i + 1] * fx) * (1 - fy) + (plane[i + w] * (1 - fx) + plane[i + w + 1] * fx)
                * fy;
    }

    /** How far either side of an outline its edge's contrast is sampled, in pixels of the small image. */
    static final double EDGE_STEP = 1.5;

    /** The least edge contrast ({@link #edgeContrast}) of an outline kept. */
    static final double MIN_EDGE_CONTRAST = 10;

    /** The farthest a contour may be from a side of the loose fit, as a share of the side's length. */
    static final double LOOSE_SIDE_ERROR = 0.1;

    /** Whether two outlines are one: every corner within {@value #SAME_SHARE} of the shorter side of either. */
    static boolean sameOutline(Quad a, Quad b) {
        double shortest = Math.min(Math.min(a.side(0), a.side(1)), Math.min(a.side(2), a.side(3)));
        for (int turn = 0; turn < 4; turn += 2) {
            if (a.startingAt(turn).cornerDistance(b) < SAME_SHARE * shortest) {
                return true;
            }
        }
        return false;
    }

    /** Corners of two outlines of one edge differ by less than this share of the shorter side. */
    static final double SAME_SHARE = 0.02;

    /** The local thresholds' windows, as the share of the image's shorter side (a fifth, a tenth). */
    private static final int[] LOCAL_WINDOWS = {5, 10};

    /** The most contours of one binarization a polygon is fitted to (the longest first). */
    static final int MAX_CONTOURS_EACH = 60;

    /**
     * Marks in {@code mask} the pixels whose colour is far from every colour of the surface, the surface's colours
     * being those along the photo's edge (a ring of 2 pixels, clustered into {@value #SURFACE_COLOURS} by k-means);
     * far is more than twice the distance within which 95 % of the ring's own pixels lie of their colour, and at least
     * {@value #MIN_COLOUR_DISTANCE} (0–255 per channel). Opened by a pixel (specks of the surface go). False when the
     * ring is too varied to say (the photo is itself the card, or the surface is as varied as a card). {@code scratch}
     * holds the erosion on the way (overwritten).
     */
    static boolean surfaceMask(Reduced small, GrayU8 mask, GrayU8 scratch) {
        int w = small.grey.width;
        int h = small.grey.height;
        if (w < 16 || h < 16) {
            return false;
        }
        int[] ring = ring(w, h);
        float[][] centres = new float[SURFACE_COLOURS][3];
        for (int c = 0; c < SURFACE_COLOURS; c++) {
            int i = ring[(int) ((long) c * ring.length / SURFACE_COLOURS + ring.length / (2L * SURFACE_COLOURS))];
            centres[c] = new float[] {small.red[i], small.green[i], small.blue[i]};
        }
        int[] nearest = new int[ring.length];
        for (int iteration = 0; iteration < 8; iteration++) {
            double[][] sums = new double[SURFACE_COLOURS][4];
            for (int k = 0; k < ring.length; k++) {
                int i = ring[k];
                nearest[k] = nearestColour(centres, small.red[i], small.green[i], small.blue[i]);
                double[] s = sums[nearest[k]];
                s[0] += small.red[i];
                s[1] += small.green[i];
                s[2] += small.blue[i];
                s[3]++;
            }
            for (int c = 0; c < SURFACE_COLOURS; c++) {
                if (sums[c][3] > 0) {
                    centres[c] = new float[] {(float) (sums[c][0] / sums[c][3]), (float) (sums[c][1] / sums[c][3]),
                            (float) (sums[c][2] / sums[c][3])};
                }
            }
        }
        float[] spread = new float[ring.length];
        for (int k = 0; k < ring.length; k++) {
            int i = ring[k];
            spread[k] = colourDistance(centres, small.red[i], small.green[i], small.blue[i]);
        }
        java.util.Arrays.sort(spread);
        float within = spread[(int) (0.95 * (spread.length - 1))];
        if (within > MAX_SURFACE_SPREAD) {
            return false;
        }
        markFar(small, centres, Math.max(MIN_COLOUR_DISTANCE, 2 * within), mask);
        MaskMorphology.dilate8(MaskMorphology.erode8(mask, scratch), mask); // opened, in place
        return true;
    }

    /**
     * Marks in {@code mask} (1, else 0) the pixels whose {@link #colourDistance} to {@code centres} is over
     * {@code far}, its arithmetic unchanged: far from every colour when every squared distance is over the largest
     * whose root is not over far ({@link #squaredWithin}, so the root is not taken).
     *
     * @param centres colours, each red, green and blue (0–255)
     * @param far     a distance, finite and 0 or more
     */
    static void markFar(Reduced small, float[][] centres, float far, GrayU8 mask) {
        int w = small.grey.width;
        int h = small.grey.height;
        int colours = centres.length;
        float[] cr = new float[colours];
        float[] cg = new float[colours];
        float[] cb = new float[colours];
        for (int c = 0; c < colours; c++) {
            cr[c] = centres[c][0];
            cg[c] = centres[c][1];
            cb[c] = centres[c][2];
        }
        float within2 = squaredWithin(far);
        // a row at a time, each colour over the whole row: the least squared distance to any colour, then far when
        // it is over the bound (any colour near: the least is). The row is copied first, so that every array of the
        // loop is read at the same index: C2 vectorises it then, and not when they are read at row + x and x
        // (4.7 times as fast, docs/benchmarks.md)
        float[] least = new float[w];
        float[] red = new float[w];
        float[] green = new float[w];
        float[] blue = new float[w];
        for (int y = 0; y < h; y++) {
            int row = y * w;
            System.arraycopy(small.red, row, red, 0, w);
            System.arraycopy(small.green, row, green, 0, w);
            System.arraycopy(small.blue, row, blue, 0, w);
            java.util.Arrays.fill(least, Float.POSITIVE_INFINITY);
            for (int c = 0; c < colours; c++) {
                float r = cr[c];
                float g = cg[c];
                float b = cb[c];
                for (int x = 0; x < w; x++) {
                    float dr = red[x] - r;
                    float dg = green[x] - g;
                    float db = blue[x] - b;
                    least[x] = Math.min(least[x], dr * dr + dg * dg + db * db);
                }
            }
            int o = mask.startIndex + y * mask.stride;
            for (int x = 0; x < w; x++) {
                mask.data[o + x] = (byte) (least[x] > within2 ? 1 : 0);
            }
        }
    }

    /**
     * The largest float whose square root, rounded to a float as {@code (float) Math.sqrt(d)}, is not over
     * {@code far}: for any squared distance {@code d} of 0 or more, {@code (float) Math.sqrt(d) > far} exactly when
     * {@code d} is over it (the rounded root never decreases as {@code d} grows).
     *
     * @param far a distance, finite and 0 or more
     */
    static float squaredWithin(float far) {
        float t = far * far;
        while (t > 0 && (float) Math.sqrt(t) > far) {
            t = Math.nextDown(t);
        }
        while ((float) Math.sqrt(Math.nextUp(t)) <= far) {
            t = Math.nextUp(t);
        }
        return t;
    }

    /**
     * Marks in {@code mask} the pixels whose colour is far from a smooth surface: each channel's surface a quadratic
     * in x and y (light that falls off across the photo and towards its corners) fitted by least squares to the ring
     * of 2 pixels along the photo's edge; far is more than three times the distance within which 95 % of the ring
     * lies of the fit, and at least {@value #MIN_SMOOTH_DISTANCE}. Opened by a pixel. False when the ring is not that
     * smooth (more than {@value #MAX_SMOOTH_SPREAD} from the fit): a patterned surface, or a photo that is a card.
     * {@code scratch} holds the erosion on the way (overwritten).
     */
    static boolean smoothSurfaceMask(Reduced small, GrayU8 mask, GrayU8 scratch) {
        int w = small.grey.width;
        int h = small.grey.height;
        if (w < 16 || h < 16) {
            return false;
        }
        org.ejml.data.DMatrixRMaj normal = new org.ejml.data.DMatrixRMaj(6, 6);
        org.ejml.data.DMatrixRMaj[] rhs = new org.ejml.data.DMatrixRMaj[3];
        for (int c = 0; c < 3; c++) {
            rhs[c] = new org.ejml.data.DMatrixRMaj(6, 1);
        }
        float[][] planes = {small.red, small.green, small.blue};
        double[] t = new double[6];
        int[] ring = ring(w, h);
        for (int i : ring) {
            terms(i % w, i / w, w, h, t);
            for (int a = 0; a < 6; a++) {
                for (int b = 0; b < 6; b++) {
                    normal.add(a, b, t[a] * t[b]);
                }
                for (int c = 0; c < 3; c++) {
                    rhs[c].add(a, 0, t[a] * planes[c][i]);
                }
            }
        }
        double[][] fit = new double[3][];
        for (int c = 0; c < 3; c++) {
            org.ejml.data.DMatrixRMaj x = new org.ejml.data.DMatrixRMaj(6, 1);
            if (!org.ejml.dense.row.CommonOps_DDRM.solve(normal, rhs[c], x)) {
                return false;
            }
            fit[c] = x.data;
        }
        float[] spread = new float[ring.length];
        for (int k = 0; k < ring.length; k++) {
            int i = ring[k];
            spread[k] = (float) offSurface(planes, fit, i, 2.0 * (i % w) / (w - 1) - 1, 2.0 * (i / w) / (h - 1) - 1);
        }
        java.util.Arrays.sort(spread);
        float within = spread[(int) (0.95 * (spread.length - 1))];
        if (within > MAX_SMOOTH_SPREAD) {
            return false;
        }
        double far = Math.max(MIN_SMOOTH_DISTANCE, 3 * within);
        double[] xs = new double[w]; // each column's x, computed once
        for (int px = 0; px < w; px++) {
            xs[px] = 2.0 * px / (w - 1) - 1;
        }
        for (int py = 0; py < h; py++) {
            double y = 2.0 * py / (h - 1) - 1;
            for (int px = 0; px < w; px++) {
                int i = py * w + px;
                mask.data[i] = (byte) (offSurface(planes, fit, i, xs[px], y) > far ? 1 : 0);
            }
        }
        MaskMorphology.dilate8(MaskMorphology.erode8(mask, scratch), mask); // opened, in place
        return true;
    }

    /**
     * How far pixel {@code i}'s colour is from the smooth surface's fit there ({@code x} and {@code y} from -1 to 1
     * across the image, as {@link #terms} has them).
     */
    private static double offSurface(float[][] planes, double[][] fit, int i, double x, double y) {
        double xx = x * x;
        double xy = x * y;
        double yy = y * y;
        double sum = 0;
        for (int c = 0; c < 3; c++) {
            double[] f = fit[c];
            // the terms of terms(), summed in its order: no array a pixel (JFR: 3 MB a 12 MP photo)
            double v = f[0] + f[1] * x + f[2] * y + f[3] * xx + f[4] * xy + f[5] * yy;
            double d = planes[c][i] - v;
            sum += d * d;
        }
        return Math.sqrt(sum);
    }

    /**
     * Marks in {@code mask} the pixels around which the colour is nearly flat: the standard deviation over a
     * 5 × 5 window, of the three channels together, under {@value #FLAT_DEVIATION} (0–255 a channel). Only for a
     * busy surface: false, and nothing marked, unless the median of that deviation along the photo's edge is at
     * least three times as much.
     */
    static boolean smoothRegionMask(Reduced small, GrayU8 mask, Buffers buffers) {
        int w = small.grey.width;
        int h = small.grey.height;
        if (w < 16 || h < 16) {
            return false;
        }
        if (small.whole() && !busyRing(small)) {
            return false; // the ring's own windows say so: the whole image's deviation is not needed
        }
        float[] variance = buffers.variance;
        java.util.Arrays.fill(variance, 0, w * h, 0f);
        GrayF32 plane = buffers.plane;
        GrayF32 mean = buffers.mean;
        GrayF32 meanOfSquares = buffers.meanOfSquares;
        for (float[] channel : new float[][] {small.red, small.green, small.blue}) {
            System.arraycopy(channel, 0, plane.data, 0, w * h);
            BoxMean.mean(plane, mean, 2);
            PixelMath.pow2(plane, plane);
            BoxMean.mean(plane, meanOfSquares, 2);
            for (int i = 0; i < w * h; i++) {
                variance[i] += Math.max(0, meanOfSquares.data[i] - mean.data[i] * mean.data[i]);
            }
        }
        int[] ring = ring(w, h);
        float[] edge = new float[ring.length];
        for (int k = 0; k < edge.length; k++) {
            edge[k] = variance[ring[k]];
        }
        if (!busy(edge)) {
            return false;
        }
        float flat = FLAT_DEVIATION * FLAT_DEVIATION;
        for (int i = 0; i < w * h; i++) {
            mask.data[i] = (byte) (variance[i] < flat ? 1 : 0);
        }
        return true;
    }

    /**
     * Whether the surface is busy as {@link #smoothRegionMask} decides it (the median of the ring's colour deviation
     * at least three times {@value #FLAT_DEVIATION}), for a photo's own 8-bit values ({@link Reduced#whole}), from the
     * ring's own windows alone: the sums of a window's values and of their squares are whole numbers, exact in an
     * {@code int} as in {@link BoxMean}'s double precision, so each window's deviation is the same float the box
     * means give, and so the answer is the same (CardFinderTest). A plain surface, most photos', then costs about a
     * tenth of the box means of the whole image: 0.3 ms in place of 2.5 at 504 × 378 (a 12 MP photo's search), whose
     * whole match takes about 35.
     */
    private static boolean busyRing(Reduced small) {
        int w = small.grey.width;
        int h = small.grey.height;
        float[][] planes = {small.red, small.green, small.blue};
        int[] ring = ring(w, h);
        float[] edge = new float[ring.length];
        int[] sums = new int[6];
        for (int k = 0; k < ring.length; k++) {
            int x = ring[k] % w;
            int y = ring[k] / w;
            java.util.Arrays.fill(sums, 0);
            for (int wy = Math.max(0, y - 2); wy <= Math.min(h - 1, y + 2); wy++) {
                for (int wx = Math.max(0, x - 2); wx <= Math.min(w - 1, x + 2); wx++) {
                    for (int c = 0; c < 3; c++) {
                        int v = (int) planes[c][wy * w + wx];
                        sums[c] += v;
                        sums[3 + c] += v * v;
                    }
                }
            }
            edge[k] = windowVariance(sums, 1.0 / (Math.min(w, x + 3) - Math.max(0, x - 2)),
                    1.0 / (Math.min(h - 1, y + 2) - Math.max(0, y - 2) + 1));
        }
        return busy(edge);
    }

    /**
     * Whether a surface is busy from the colour variances along the photo's edge ({@code edge}, sorted here): their
     * median at least that of a deviation three times {@value #FLAT_DEVIATION}.
     */
    private static boolean busy(float[] edge) {
        java.util.Arrays.sort(edge);
        return edge[edge.length / 2] >= 9 * FLAT_DEVIATION * FLAT_DEVIATION;
    }

    /**
     * The colour variance of a window from its sums (red, green, blue, then their squares), in {@link BoxMean}'s
     * and {@link #smoothRegionMask}'s arithmetic: each mean the float of the sum times 1 / the window's columns times
     * 1 / its rows, each channel's variance in float, the channels added in order.
     */
    private static float windowVariance(int[] sums, double perColumns, double perRows) {
        float variance = 0f;
        for (int c = 0; c < 3; c++) {
            float mean = (float) (sums[c] * perColumns * perRows);
            float meanOfSquares = (float) (sums[3 + c] * perColumns * perRows);
            variance += Math.max(0, meanOfSquares - mean * mean);
        }
        return variance;
    }

    /** The colour deviation under which a neighbourhood is flat ({@link #smoothRegionMask}). */
    static final float FLAT_DEVIATION = 8;

    /** 1, x, y, x², xy, y² with x and y from -1 to 1 across the image. */
    private static void terms(int px, int py, int w, int h, double[] t) {
        double x = 2.0 * px / (w - 1) - 1;
        double y = 2.0 * py / (h - 1) - 1;
        t[0] = 1;
        t[1] = x;
        t[2] = y;
        t[3] = x * x;
        t[4] = x * y;
        t[5] = y * y;
    }

    /** The pixels (indices) of the ring 2 pixels wide along the edge of a {@code w × h} image. */
    static int[] ring(int w, int h) {
        int[] ring = new int[w * h - Math.max(0, w - 4) * Math.max(0, h - 4)];
        int n = 0;
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                if (x < 2 || y < 2 || x >= w - 2 || y >= h - 2) {
                    ring[n++] = y * w + x;
                }
                if (y >= 2 && y < h - 2 && x == 2) {
                    x = w - 3;
                }
            }
        }
        return ring;
    }

    /** The least distance from a smooth surface's fit (0–255 a channel, Euclidean) that sets a pixel apart. */
    static final double MIN_SMOOTH_DISTANCE = 9;

    /** A ring further than this from its smooth fit (95 % of it) is not a smooth surface. */
    static final float MAX_SMOOTH_SPREAD = 8;

    private static int nearestColour(float[][] centres, float r, float g, float b) {
        int best = 0;
        float bestD = Float.MAX_VALUE;
        for (int c = 0; c < centres.length; c++) {
            float dr = r - centres[c][0];
            float dg = g - centres[c][1];
            float db = b - centres[c][2];
            float d = dr * dr + dg * dg + db * db;
            if (d < bestD) {
                bestD = d;
                best = c;
            }
        }
        return best;
    }

    static float colourDistance(float[][] centres, float r, float g, float b) {
        int c = nearestColour(centres, r, g, b);
        float dr = r - centres[c][0];
        float dg = g - centres[c][1];
        float db = b - centres[c][2];
        return (float) Math.sqrt(dr * dr + dg * dg + db * db);
    }

    /** The colours a surface is taken to have. */
    static final int SURFACE_COLOURS = 6;

    /** The least colour distance (Euclidean over 0–255 channels) that sets a pixel apart from the surface. */
    static final float MIN_COLOUR_DISTANCE = 24;

    /** A ring whose colours spread further than this from their clusters is not a surface. */
    static final float MAX_SURFACE_SPREAD = 40;

    /**
     * {@code image} reduced by {@code factor}: each pixel the mean of a {@code factor × factor} block (the last row
     * and column of blocks may be partial), as grey ({@code 0.299 R + 0.587 G + 0.114 B}) and as its three planes.
     */
    static Reduced reduce(RgbImage image, int factor) {
        return reduce(image, factor, new Buffers());
    }

    /** {@link #reduce(RgbImage, int)} into {@code buffers}' planes and grey image. */
    private static Reduced reduce(RgbImage image, int factor, Buffers buffers) {
        if (factor == 1) {
            return unreduced(image, buffers);
        }
        int w = (image.width() + factor - 1) / factor;
        int h = (image.height() + factor - 1) / factor;
        float[] red = buffers.plane(0, w * h);
        float[] green = buffers.plane(1, w * h);
        float[] blue = buffers.plane(2, w * h);
        java.util.Arrays.fill(red, 0f);
        java.util.Arrays.fill(green, 0f);
        java.util.Arrays.fill(blue, 0f);
        int[] counts = new int[w];
        int[] pixels = image.pixels();
        for (int by = 0; by < h; by++) {
            java.util.Arrays.fill(counts, 0);
            int y1 = Math.min(image.height(), (by + 1) * factor);
            int o = by * w;
            for (int y = by * factor; y < y1; y++) {
                int row = y * image.width();
                for (int x = 0; x < image.width(); x++) {
                    int p = pixels[row + x];
                    int bx = x / factor;
                    red[o + bx] += (p >> 16) & 0xFF;
                    green[o + bx] += (p >> 8) & 0xFF;
                    blue[o + bx] += p & 0xFF;
                    counts[bx]++;
                }
            }
            for (int bx = 0; bx < w; bx++) {
                red[o + bx] /= counts[bx];
                green[o + bx] /= counts[bx];
                blue[o + bx] /= counts[bx];
            }
        }
        GrayF32 grey = buffers.grey;
        grey.reshape(w, h);
        for (int i = 0; i < w * h; i++) {
            grey.data[i] = 0.299f * red[i] + 0.587f * green[i] + 0.114f * blue[i];
        }
        return new Reduced(grey, red, green, blue, false);
    }

    /** {@link #reduce} by a factor of 1: the same values, without the sums. */
    private static Reduced unreduced(RgbImage image, Buffers buffers) {
        int n = image.width() * image.height();
        float[] red = buffers.plane(0, n);
        float[] green = buffers.plane(1, n);
        float[] blue = buffers.plane(2, n);
        int[] pixels = image.pixels();
        GrayF32 grey = buffers.grey;
        grey.reshape(image.width(), image.height());
        for (int i = 0; i < n; i++) {
            int p = pixels[i];
            red[i] = (p >> 16) & 0xFF;
            green[i] = (p >> 8) & 0xFF;
            blue[i] = p & 0xFF;
            grey.data[i] = 0.299f * red[i] + 0.587f * green[i] + 0.114f * blue[i];
        }
        return new Reduced(grey, red, green, blue, true);
    }

    /**
     * How much of {@code outline}'s perimeter {@code contour} runs along: its points within
     * {@value #ALONG_DISTANCE} pixels of one of the outline's sides, per pixel of the outline's perimeter, at most 1.
     */
    static double alongOutline(List<Point2D_I32> contour, Quad outline) {
        int near = 0;
        for (Point2D_I32 p : contour) {
            for (int k = 0; k < 4; k++) {
                if (segmentDistance(p.x, p.y, outline.x(k), outline.y(k), outline.x(k + 1), outline.y(k + 1))
                        <= ALONG_DISTANCE) {
                    near++;
                    break;
                }
            }
        }
        double perimeter = outline.side(0) + outline.side(1) + outline.side(2) + outline.side(3);
        return Math.min(1, near / perimeter);
    }

    /** The distance from (px, py) to the segment from (ax, ay) to (bx, by). */
    private static double segmentDistance(double px, double py, double ax, double ay, double bx, double by) {
        double dx = bx - ax;
        double dy = by - ay;
        double t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)));
        return Math.hypot(px - ax - t * dx, py - ay - t * dy);
    }

    /** How near a contour's point is to an outline's side to run along it, in pixels of the searched image. */
    static final double ALONG_DISTANCE = 2;

    /**
     * The least share of its convex hull's outline a contour runs along for that outline to be taken
     * ({@link #alongOutline}).
     */
    static final double MIN_HULL_ALONG = 0.7;

    /**
     * The least share of its convex hull's outline a contour runs along for that outline to be taken at the first
     * search, before it is known whether any mask gives a card: a notch such as a die or a fingertip over the border
     * bites less than this from a card's outline, while a busy surface's blobs rarely run along so much of their hull.
     */
    static final double MIN_NOTCHED_ALONG = 0.85;

    /** The area of the bounding box of {@code contour}'s points, in pixels. */
    static double boundsArea(List<Point2D_I32> contour) {
        int x0 = Integer.MAX_VALUE;
        int y0 = Integer.MAX_VALUE;
        int x1 = Integer.MIN_VALUE;
        int y1 = Integer.MIN_VALUE;
        for (Point2D_I32 p : contour) {
            x0 = Math.min(x0, p.x);
            y0 = Math.min(y0, p.y);
            x1 = Math.max(x1, p.x);
            y1 = Math.max(y1, p.y);
        }
        return (double) (x1 - x0) * (y1 - y0);
    }

    /**
     * The convex hull of {@code contour}'s points ({@link ConvexHullAndrewMonotone_F64}) as a contour: its vertices
     * in order and the whole pixels along each of its edges between them, one step apart, so that a fit of it sees
     * its sides as straight runs of points as it sees a mask's.
     */
    static List<Point2D_I32> hullContour(List<Point2D_I32> contour) {
        DogArray<Point2D_F64> points = new DogArray<>(contour.size(), Point2D_F64::new);
        for (Point2D_I32 p : contour) {
            points.grow().setTo(p.x, p.y);
        }
        Polygon2D_F64 hull = new Polygon2D_F64();
        new ConvexHullAndrewMonotone_F64().process(points, hull);
        List<Point2D_I32> out = new ArrayList<>();
        int n = hull.size();
        for (int k = 0; k < n; k++) {
            Point2D_F64 a = hull.get(k);
            Point2D_F64 b = hull.get((k + 1) % n);
            int steps = (int) Math.max(Math.abs(b.x - a.x), Math.abs(b.y - a.y));
            for (int i = 0; i < Math.max(1, steps); i++) {
                double t = steps == 0 ? 0 : (double) i / steps;
                out.add(new Point2D_I32((int) Math.round(a.x + t * (b.x - a.x)),
                        (int) Math.round(a.y + t * (b.y - a.y))));
            }
        }
        return out;
    }

    /**
     * The quadrilateral whose sides are the lines fitted (least squares, {@link FitLine_F64}) to the contour's points
     * between consecutive corners, leaving out the {@value #CORNER_SHARE} of each side nearest its ends, where a
     * card's corners are rounded; its corners are where those lines meet. Null when two sides are parallel or a side
     * has too few points.
     */
    static Quad sidesMet(List<Point2D_I32> contour, DogArray_I32 corners) {
        int n = contour.size();
        LineGeneral2D_F64[] lines = new LineGeneral2D_F64[4];
        List<Point2D_F64> points = new ArrayList<>();
        for (int side = 0; side < 4; side++) {
            int from = corners.get(side);
            int to = corners.get((side + 1) % 4);
            int length = Math.floorMod(to - from, n);
            int skip = (int) (length * CORNER_SHARE);
            points.clear();
            for (int i = skip; i <= length - skip; i++) {
                Point2D_I32 p = contour.get((from + i) % n);
                points.add(new Point2D_F64(p.x, p.y));
            }
            if (points.size() < 3) {
                return null;
            }
            LinePolar2D_F64 polar = FitLine_F64.polar(points, (LinePolar2D_F64) null);
            if (polar == null) {
                return null;
            }
            lines[side] = UtilLine2D_F64.convert(polar, (LineGeneral2D_F64) null);
        }
        double[] xy = new double[8];
        Point2D_F64 meet = new Point2D_F64();
        for (int c = 0; c < 4; c++) {
            // corner c is where side c-1 meets side c
            if (Intersection2D_F64.intersection(lines[(c + 3) % 4], lines[c], meet) == null
                    || !Double.isFinite(meet.x) || !Double.isFinite(meet.y)) {
                return null;
            }
            xy[2 * c] = meet.x;
            xy[2 * c + 1] = meet.y;
        }
        return new Quad(xy);
    }

    /** The share of each side, at either end, left out of its line's fit (a corner's rounding is 5 % of a side). */
    static final double CORNER_SHARE = 0.12;

    /** Whether {@code quad} could be a card's outline (see the class): shape, corners, proportions and size. */
    static boolean cardShaped(Quad quad, double minArea) {
        if (!quad.convex() || quad.area() < minArea) {
            return false;
        }
        for (int k = 0; k < 4; k++) {
            double ax = quad.x(k - 1) - quad.x(k);
            double ay = quad.y(k - 1) - quad.y(k);
            double bx = quad.x(k + 1) - quad.x(k);
            double by = quad.y(k + 1) - quad.y(k);
            double cos = (ax * bx + ay * by) / (Math.hypot(ax, ay) * Math.hypot(bx, by));
            if (Math.abs(cos) > Math.cos(Math.toRadians(35))) {
                return false;
            }
        }
        double a0 = quad.side(0);
        double a2 = quad.side(2);
        double b1 = quad.side(1);
        double b3 = quad.side(3);
        if (Math.max(a0, a2) > 1.9 * Math.min(a0, a2) || Math.max(b1, b3) > 1.9 * Math.min(b1, b3)) {
            return false;
        }
        double a = (a0 + a2) / 2;
        double b = (b1 + b3) / 2;
        double ratio = Math.max(a, b) / Math.min(a, b);
        return ratio <= 2.0;
    }

    /** {@code quad}'s sides snapped to the strongest nearby edge of {@code grey}; null when that fails. */
    private static Quad refine(Quad quad, GrayF32 grey) {
        double shortest = Math.min(Math.min(quad.side(0), quad.side(1)), Math.min(quad.side(2), quad.side(3)));
        // keep clear of the rounded corners (3 mm of a 63 mm side) when sampling a side's edge
        RefinePolygonToGrayLine<GrayF32> refine = new RefinePolygonToGrayLine<>(Math.max(2, 0.08 * shortest), 20, 2,
                10, 0.01, 2, GrayF32.class);
        refine.setImage(grey);
        Polygon2D_F64 in = new Polygon2D_F64(4);
        for (int k = 0; k < 4; k++) {
            in.get(k).setTo(quad.x(k), quad.y(k));
        }
        Polygon2D_F64 out = new Polygon2D_F64(4);
        if (!refine.refine(in, out)) {
            return null;
        }
        Quad refined = Quad.of(out.get(0).x, out.get(0).y, out.get(1).x, out.get(1).y, out.get(2).x, out.get(2).y,
                out.get(3).x, out.get(3).y);
        // a side that jumped to another edge far away is not a refinement
        return refined.cornerDistance(quad) <= 0.1 * shortest + 2 ? refined : null;
    }

    /**
     * The same outline clockwise as displayed, starting at the corner that makes side 0 a short side, of the two
     * short sides the one higher in the image (the card upright, or upside down: the match tries both).
     */
    public static Quad upright(Quad quad) {
        Quad q = quad.clockwise() ? quad : quad.reversed();
        double even = q.side(0) + q.side(2);
        double odd = q.side(1) + q.side(3);
        Quad shortFirst = even <= odd ? q : q.startingAt(1);
        Quad flipped = shortFirst.startingAt(2);
        double topY = (shortFirst.y(0) + shortFirst.y(1)) / 2;
        double bottomY = (shortFirst.y(2) + shortFirst.y(3)) / 2;
        return topY <= bottomY ? shortFirst : flipped;
    }

    /**
     * Outlines of one card into one entry: an outline joins the largest outline whose area is at most
     * 1 / {@value #NESTED_AREA} times its own and that holds its centre, and whose centre it holds. Within an entry
     * the outlines keep the order they are given in (the most often found first), at most {@value #MAX_PER_CARD}.
     */
    static List<FoundCard> group(List<Quad> outlines) {
        List<Integer> byArea = new ArrayList<>();
        for (int k = 0; k < outlines.size(); k++) {
            byArea.add(k);
        }
        byArea.sort(Comparator.comparingDouble((Integer k) -> outlines.get(k).area()).reversed());
        List<List<Integer>> groups = new ArrayList<>();
        for (int k : byArea) {
            Quad quad = outlines.get(k);
            List<Integer> home = null;
            for (List<Integer> group : groups) {
                Quad outer = outlines.get(group.get(0));
                if (quad.area() >= NESTED_AREA * outer.area() && outer.contains(quad.centreX(), quad.centreY())
                        && quad.contains(outer.centreX(), outer.centreY())) {
                    home = group;
                    break;
                }
            }
            if (home == null) {
                groups.add(new ArrayList<>(List.of(k)));
            } else if (home.stream().noneMatch(q -> outlines.get(q).cornerDistance(quad) < 1.0)) {
                home.add(k);
            }
        }
        List<FoundCard> cards = new ArrayList<>();
        for (List<Integer> group : groups) {
            List<Integer> inOrder = new ArrayList<>(group);
            inOrder.sort(null);
            cards.add(new FoundCard(inOrder.subList(0, Math.min(MAX_PER_CARD, inOrder.size())).stream()
                    .map(outlines::get).toList()));
        }
        return cards;
    }

    /** The most outlines kept of one card (each tried by the match three ways). */
    static final int MAX_PER_CARD = 4;

    /** Degrees of {@link Quad#skew() skew} beyond the least skewed of a card's outlines that {@link FoundCard#edge} allows. */
    static final double EDGE_SKEW_SLACK = 6;

    /** How much smaller than a card's largest outline another of its outlines may be (sleeve 66 × 91 mm over
     * the inside of a card's border). */
    static final double NESTED_AREA = 0.6;
}
