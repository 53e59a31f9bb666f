package dev.cardcatalog.scan.finder;

import boofcv.alg.shapes.polyline.splitmerge.PolylineSplitMerge;
import boofcv.struct.ConfigLength;
import boofcv.struct.image.GrayF32;
import boofcv.struct.image.GrayU8;
import georegression.struct.point.Point2D_I32;
import georegression.struct.shapes.Polygon2D_F64;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.ddogleg.struct.DogArray_I32;

/**
 * The candidate outlines of one photo, pooled from every binarization: each contour whose box is as large as the
 * least card fitted with a card-shaped quadrilateral ({@link QuadFit}), kept when it is an edge all round
 * ({@link #edgeContrast}); an outline found again (corners within {@value #SAME_SHARE} of its shorter side) counts
 * once more for the first, and the most often found come first. A contour whose every point is that of one fitted
 * before (a region two binarizations share) is not fitted again: it gives the same outline. One pool belongs to one
 * search.
 */
final class OutlinePool {

    /** An outline whose corners are all within this share of the photo's size of its corners is its edge. */
    static final double FRAME_SHARE = 0.03;

    /** The most contours read from all binarizations (the longest first), fitted or not. */
    static final int MAX_CONTOURS = 600;

    /** The most card outlines kept from one photo, before they are grouped into cards. */
    static final int MAX_OUTLINES = 256;

    /** The most contours read from one binarization (the longest first), fitted or not. */
    static final int MAX_CONTOURS_EACH = 60;

    final ReducedPhoto small;
    final GrayF32 grey;
    final int factor;
    final double minArea;
    final boolean hulls;
    final int minPoints;
    final Deadline deadline;
    final WorkingImages working;
    final PolylineSplitMerge fit = new PolylineSplitMerge();
    final PolylineSplitMerge loose = new PolylineSplitMerge();
    final List<Quad> quads = new ArrayList<>();
    final List<int[]> support = new ArrayList<>();
    final List<Double> contrast = new ArrayList<>();
    /** Contours read (at most {@link #MAX_CONTOURS}). */
    int contoursRead;

    /** Contours fitted: those read that are as large as the least card and not the same points as one read before. */
    int contoursFitted;

    OutlinePool(ReducedPhoto small, int factor, double minArea, boolean hulls, Deadline deadline,
            WorkingImages working) {
        this.small = small;
        this.hulls = hulls;
        this.working = working;
        this.grey = small.grey();
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
        addContours(working.externalContours(mask, minPoints));
        MaskMorphology.erode8(mask, eroded);
        deadline.check("finding the cards");
        addContours(working.externalContours(eroded, minPoints));
    }

    /** Fits the contours given (each of at least {@link #minPoints} points), the longest first. */
    void addContours(MaskContours contours) {
        int[] order = contours.longestFirst();
        for (int k = 0; k < order.length && k < MAX_CONTOURS_EACH && contoursRead < MAX_CONTOURS; k++) {
            if (++contoursRead % 16 == 0) {
                deadline.check("finding the cards");
            }
            add(contours.get(order[k])); // read, and done with, before the next
        }
    }

    private void add(List<Point2D_I32> sequence) {
        if (QuadFit.boundsArea(sequence) < minArea) {
            // smaller than the least card: what is fitted to a contour lies within its box, but for a pixel where a
            // rounded corner is cut (over the 298 photos of bench FinderOutlines, the smallest box of a contour that
            // gave a card-shaped quadrilateral was 1.04 of the least area); 29,152 of the 58,534 they read
            return;
        }
        FittedContour found = remembered + sequence.size() > MAX_REMEMBERED_POINTS
                ? fitAnew(sequence) // the memory of contours is full: fitted as it comes
                : fitOnce(sequence);
        if (found.quad() != null) {
            pool(found.quad(), found.scaled());
        }
    }

    /** What {@code sequence} gives: what it gave before if its points are those of a contour fitted already. */
    private FittedContour fitOnce(List<Point2D_I32> sequence) {
        int[] points = new int[2 * sequence.size()];
        for (int i = 0; i < sequence.size(); i++) {
            points[2 * i] = sequence.get(i).x;
            points[2 * i + 1] = sequence.get(i).y;
        }
        // a contour found again (the same region in another binarization) gives what it gave
        return fittedBefore.computeIfAbsent(new Points(points), key -> {
            remembered += sequence.size();
            return fitAnew(sequence);
        });
    }

    /** {@link #outline}, counted. */
    private FittedContour fitAnew(List<Point2D_I32> sequence) {
        contoursFitted++;
        return outline(sequence);
    }

    /** A contour's points, x and y in turn, as a key: equal when every point is. */
    private record Points(int[] xy) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Points p && java.util.Arrays.equals(xy, p.xy);
        }

        @Override
        public int hashCode() {
            return java.util.Arrays.hashCode(xy);
        }
    }

    /**
     * What a contour gave: its outline in the small image's pixel centres ({@code quad}, for the edge test) and in
     * the photo's pixel edges ({@code scaled}); both null when it gave none.
     */
    private record FittedContour(Quad quad, Quad scaled) {
    }

    /** The contours fitted so far, by their points: of 76 a 12 MP photo's search fits, about 8 are found again. */
    private final java.util.Map<Points, FittedContour> fittedBefore = new java.util.HashMap<>();

    /** The points of the contours in {@link #fittedBefore}. */
    int remembered;

    /**
     * The most points of contours a search remembers (8 bytes each: 512 KB), whatever its masks: a 12 MP whole photo's
     * 76 contours have about 36,000; a contour beyond it is fitted as it comes.
     */
    static final int MAX_REMEMBERED_POINTS = 1 << 16;

    /** The outline {@code sequence} gives: fitted, refined, upright; none when it is no card's, or the photo's edge. */
    private FittedContour outline(List<Point2D_I32> sequence) {
        Quad quad = fitted(sequence);
        if (quad == null) {
            // a die or a fingertip over a card's border, glare across its edge, or a sleeve's white on a light
            // surface, bite notches out of the mask: a card is convex, so its outline is its contour's convex
            // hull's, when the contour runs along nearly all of that outline (a pattern's blob or a speckled
            // region does not); along most of it, when no mask gave a card at all ({@code hulls})
            Polygon2D_F64 convex = QuadFit.convexHull(sequence);
            Quad hull = QuadFit.mayHoldCard(convex, minArea) ? fitted(QuadFit.hullContour(convex)) : null;
            if (hull != null && QuadFit.alongOutline(sequence, hull)
                    >= (hulls ? QuadFit.MIN_HULL_ALONG : QuadFit.MIN_NOTCHED_ALONG)) {
                quad = hull;
            }
        }
        if (quad == null) {
            return NONE;
        }
        Quad refined = QuadFit.refine(quad, grey);
        if (refined != null && QuadFit.cardShaped(refined, minArea)) {
            quad = refined;
        }
        // BoofCV's coordinates are pixel centres; ours pixel edges
        Quad outline = QuadFit.upright(quad.translated(0.5, 0.5));
        if (QuadFit.upright(Quad.frame(grey.width, grey.height)).cornerDistance(outline)
                < FRAME_SHARE * Math.max(grey.width, grey.height)) {
            return NONE; // the photo's own edge (a busy surface's edges reach it): the whole photo is tried anyway
        }
        return new FittedContour(quad, outline.scaled(factor, factor));
    }

    private static final FittedContour NONE = new FittedContour(null, null);

    /**
     * Pools an outline a contour gave ({@code quad} in the small image's pixel centres, {@code scaled} in the
     * photo's pixel edges): one more find of an outline pooled already, else a new one if an edge all round.
     */
    private void pool(Quad quad, Quad scaled) {
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
     * fails; its sides by {@link QuadFit#sidesMet}), or null.
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
        Quad quad = QuadFit.sidesMet(sequence, corners);
        return quad != null && QuadFit.cardShaped(quad, minArea) ? quad : null;
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

    /**
     * How clearly {@code quad} (pixel-centre coordinates of the small image) is an edge all round: its
     * {@linkplain SideContrast#ANY_SIGN any-sign} contrast, {@value SideContrast#STEP} pixels either side.
     */
    static double edgeContrast(ReducedPhoto small, Quad quad) {
        return SideContrast.least(quad, small.grey().width, small.grey().height, ANY_SIGN_STEPS,
                SideContrast.colours(small), SideContrast.ANY_SIGN);
    }

    private static final double[] ANY_SIGN_STEPS = {SideContrast.STEP};

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
}
