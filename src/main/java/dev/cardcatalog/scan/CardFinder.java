package dev.cardcatalog.scan;

import boofcv.alg.feature.detect.edge.CannyEdge;
import boofcv.alg.filter.binary.BinaryImageOps;
import boofcv.alg.filter.binary.Contour;
import boofcv.alg.shapes.polyline.splitmerge.PolylineSplitMerge;
import boofcv.alg.shapes.polygon.RefinePolygonToGrayLine;
import boofcv.concurrency.BoofConcurrency;
import boofcv.factory.feature.detect.edge.FactoryEdgeDetectors;
import boofcv.struct.ConnectRule;
import boofcv.struct.image.GrayF32;
import boofcv.struct.image.GrayU8;
import dev.cardcatalog.art.RgbImage;
import georegression.fitting.line.FitLine_F64;
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
import org.ddogleg.struct.DogArray_I32;

/**
 * Finds the outlines of cards in a photo (SERVICE.md §5.10) with BoofCV: edges by Canny's detector, the contours of
 * the regions they enclose, a quadrilateral fitted to each contour by split-and-merge ({@link PolylineSplitMerge}, the
 * fit BoofCV's polygon detector uses), those of a card's proportions (rounded corners cut off), their sides snapped to the edge
 * in the grey image with sub-pixel precision ({@link RefinePolygonToGrayLine}). A card gives several nested
 * outlines (a sleeve or a pocket around it, its own edge, the inside of its border); they are kept together as the
 * outlines of one {@link FoundCard}, and which one frames the card is decided by matching ({@link PhotoMatch}).
 *
 * <p>What counts as a card's outline: a convex quadrilateral whose corners are at 35°–145°, whose opposite sides
 * differ by at most 1.9 times (perspective), whose longer pair of sides is 0.95–2.3 times the shorter pair (a card is
 * 88 / 63 = 1.40; a tilt of 35° makes it 1.15–1.71 and perspective a little more), and whose area is at least
 * {@value #MIN_AREA_SHARE} of the photo's (a card at 5 % of the frame, tilted 35°, covers 4.1 %).
 *
 * <p>Cost, bounded before it starts: the search runs on the photo reduced by whole-pixel averaging to at most
 * {@value #SEARCH_SIDE} pixels on its longer side (about 8 float images of that size for the edge detector, 6.3 MB,
 * and a byte image for the edges), on one thread; at most {@value #MAX_CONTOURS} contours are fitted and at most
 * {@value #MAX_OUTLINES} outlines kept, and the upload's deadline is checked between the steps and every 16 contours.
 * Stateless and thread-safe (every call has its own working images).
 */
public final class CardFinder {

    /** Longest side, in pixels, of the image the cards are looked for in. */
    public static final int SEARCH_SIDE = 512;

    /** An outline whose corners are all within this share of the photo's size of its corners is its edge. */
    static final double FRAME_SHARE = 0.03;

    /** The smallest outline kept, as a share of the photo's area. */
    public static final double MIN_AREA_SHARE = 0.025;

    /** The most contours a polygon is fitted to (the longest first). */
    static final int MAX_CONTOURS = 400;

    /** The most card outlines kept from one photo, before they are grouped into cards. */
    static final int MAX_OUTLINES = 96;

    static {
        // Work on the calling thread only: an upload's cost must stay within its own decoding turn.
        BoofConcurrency.USE_CONCURRENT = false;
    }

    /**
     * One card found: its outlines, largest first, each a quad in the searched image's pixel-edge coordinates
     * scaled back to those of the image given to {@link #find}, starting at the corner that is top-left when the
     * card is upright or upside down (corner 0 to 1 is one of its short sides).
     */
    public record FoundCard(List<Quad> outlines) {

        /** The largest outline. */
        public Quad outer() {
            return outlines.get(0);
        }
    }

    /**
     * The cards in {@code image}, in no particular order.
     *
     * @param image    the photo as displayed (EXIF orientation applied), at any size
     * @param deadline the upload's deadline, checked between the steps and inside the loops
     * @return the cards found, at most one entry per card; empty when none is
     */
    public List<FoundCard> find(RgbImage image, UploadDeadline deadline) {
        return find(image, SEARCH_SIDE, deadline);
    }

    /**
     * As {@link #find(RgbImage, UploadDeadline)}, searching {@code image} reduced to at most {@code searchSide}
     * pixels on its longer side.
     */
    public List<FoundCard> find(RgbImage image, int searchSide, UploadDeadline deadline) {
        int factor = Math.max(1, (Math.max(image.width(), image.height()) + searchSide - 1) / searchSide);
        GrayF32 grey = grey(image, factor);
        deadline.check("finding the cards");

        CannyEdge<GrayF32, GrayF32> canny = FactoryEdgeDetectors.canny(2, false, true, GrayF32.class,
                GrayF32.class);
        GrayU8 edges = new GrayU8(grey.width, grey.height);
        canny.process(grey, 0.04f, 0.12f, edges);
        GrayU8 closed = BinaryImageOps.dilate8(edges, 1, null); // closes gaps of a pixel in the edges
        deadline.check("finding the cards");

        List<Contour> contours = BinaryImageOps.contour(closed, ConnectRule.EIGHT, null);
        double minArea = MIN_AREA_SHARE * grey.width * grey.height;
        int minPoints = (int) Math.sqrt(minArea) * 2;
        List<List<Point2D_I32>> sequences = new ArrayList<>();
        for (Contour contour : contours) {
            if (contour.external.size() >= minPoints) {
                sequences.add(contour.external);
            }
            for (List<Point2D_I32> hole : contour.internal) {
                if (hole.size() >= minPoints) {
                    sequences.add(hole);
                }
            }
        }
        sequences.sort(Comparator.comparingInt((List<Point2D_I32> s) -> s.size()).reversed());
        if (sequences.size() > MAX_CONTOURS) {
            sequences = sequences.subList(0, MAX_CONTOURS);
        }
        deadline.check("finding the cards");

        List<Quad> outlines = new ArrayList<>();
        PolylineSplitMerge fit = new PolylineSplitMerge();
        fit.setLoops(true);
        fit.setConvex(true);
        fit.setMinSides(4);
        fit.setMaxSides(4);
        fit.setMinimumSideLength(Math.max(6, (int) (Math.sqrt(minArea) / 4)));
        fit.setCornerScorePenalty(0.25);
        for (int k = 0; k < sequences.size() && outlines.size() < MAX_OUTLINES; k++) {
            if (k % 16 == 15) {
                deadline.check("finding the cards");
            }
            List<Point2D_I32> sequence = sequences.get(k);
            if (!fit.process(sequence) || fit.getBestPolyline() == null) {
                continue;
            }
            DogArray_I32 corners = fit.getBestPolyline().splits;
            if (corners.size != 4) {
                continue;
            }
            Quad quad = sidesMet(sequence, corners);
            if (quad == null) {
                continue;
            }
            if (!cardShaped(quad, minArea)) {
                continue;
            }
            Quad refined = refine(quad, grey);
            if (refined != null && cardShaped(refined, minArea)) {
                quad = refined;
            }
            // BoofCV's coordinates are pixel centres; ours pixel edges
            Quad outline = quad.translated(0.5, 0.5);
            if (outline.cornerDistance(Quad.frame(grey.width, grey.height))
                    < FRAME_SHARE * Math.max(grey.width, grey.height)) {
                continue; // the photo's own edge (a busy surface's edges reach it): the whole photo is tried anyway
            }
            outlines.add(upright(outline.scaled(factor, factor)));
        }
        deadline.check("finding the cards");
        return group(outlines);
    }

    /**
     * The grey image ({@code 0.299 R + 0.587 G + 0.114 B}) of {@code image} reduced by {@code factor}: each pixel the
     * mean of a {@code factor × factor} block (the last row and column of blocks may be partial).
     */
    static GrayF32 grey(RgbImage image, int factor) {
        int w = (image.width() + factor - 1) / factor;
        int h = (image.height() + factor - 1) / factor;
        GrayF32 grey = new GrayF32(w, h);
        float[] sums = new float[w];
        int[] counts = new int[w];
        int[] pixels = image.pixels();
        for (int by = 0; by < h; by++) {
            java.util.Arrays.fill(sums, 0);
            java.util.Arrays.fill(counts, 0);
            int y1 = Math.min(image.height(), (by + 1) * factor);
            for (int y = by * factor; y < y1; y++) {
                int row = y * image.width();
                for (int x = 0; x < image.width(); x++) {
                    int p = pixels[row + x];
                    sums[x / factor] += 0.299f * ((p >> 16) & 0xFF) + 0.587f * ((p >> 8) & 0xFF) + 0.114f * (p & 0xFF);
                    counts[x / factor]++;
                }
            }
            for (int bx = 0; bx < w; bx++) {
                grey.unsafe_set(bx, by, sums[bx] / counts[bx]);
            }
        }
        return grey;
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
    static Quad upright(Quad quad) {
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
     * 1 / {@value #NESTED_AREA} times its own and that holds its centre, and whose centre it holds.
     */
    static List<FoundCard> group(List<Quad> outlines) {
        List<Quad> byArea = new ArrayList<>(outlines);
        byArea.sort(Comparator.comparingDouble(Quad::area).reversed());
        List<List<Quad>> groups = new ArrayList<>();
        for (Quad quad : byArea) {
            List<Quad> home = null;
            for (List<Quad> group : groups) {
                Quad outer = group.get(0);
                if (quad.area() >= NESTED_AREA * outer.area() && outer.contains(quad.centreX(), quad.centreY())
                        && quad.contains(outer.centreX(), outer.centreY())) {
                    home = group;
                    break;
                }
            }
            if (home == null) {
                groups.add(new ArrayList<>(List.of(quad)));
            } else if (home.stream().noneMatch(q -> q.cornerDistance(quad) < 1.0)) {
                home.add(quad);
            }
        }
        return groups.stream().map(g -> new FoundCard(List.copyOf(g))).toList();
    }

    /** How much smaller than a card's largest outline another of its outlines may be (sleeve 66 × 91 mm over
     * the inside of a card's border). */
    static final double NESTED_AREA = 0.6;
}
