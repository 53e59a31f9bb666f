package dev.cardcatalog.scan.finder;

import boofcv.alg.shapes.polygon.RefinePolygonToGrayLine;
import boofcv.struct.image.GrayF32;
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
import java.util.List;
import org.ddogleg.struct.DogArray;
import org.ddogleg.struct.DogArray_I32;

/**
 * Fitting a card's quadrilateral to a contour, and what counts as one. A quadrilateral is fitted to a contour by
 * split-and-merge ({@link boofcv.alg.shapes.polyline.splitmerge.PolylineSplitMerge}, the fit BoofCV's polygon
 * detector uses; {@link OutlinePool} holds them), its sides fitted clear of the rounded corners ({@link #sidesMet}),
 * then snapped to the edge in the grey image with sub-pixel precision ({@link #refine}). A contour that no
 * quadrilateral fits is fitted as its convex hull ({@link #hullContour}), when that may hold a card at all
 * ({@link #mayHoldCard}), and taken when it runs along nearly all of the hull ({@link #MIN_NOTCHED_ALONG}): a die or
 * a fingertip over a card's border bites a notch out of its outline in every mask; at the second search, most of it
 * ({@link #MIN_HULL_ALONG}).
 *
 * <p>What counts as a card's outline ({@link #cardShaped}): a convex quadrilateral whose corners are at 35°–145°,
 * whose opposite sides differ by at most 1.9 times (perspective), whose longer pair of sides is at most 2 times the
 * shorter pair (a card is 88 / 63 = 1.40; a tilt of 35° makes it 1.15–1.71 and perspective a little more), and whose
 * area is at least {@value CardFinder#MIN_AREA_SHARE} of the photo's (a collection of 40 cards laid out in a grid
 * gives each about 1.5 %, and a photo holds up to 64).
 */
public final class QuadFit {

    private QuadFit() {
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
     * Whether a contour's convex hull ({@link #convexHull}) could hold a card's outline, so that fitting it is worth
     * its cost: its area is at least {@value #MIN_HULL_AREA} of a card's least ({@code minArea}, pixels), and its
     * smallest enclosing rectangle is at most {@value #MAX_HULL_ELONGATION} times as long as it is wide. A
     * quadrilateral fitted to a hull the contour runs along most of lies about on it, so is no larger than that; and no
     * card-shaped quadrilateral ({@link #cardShaped}) is more elongated: the most is 4.92, a parallelogram of sides
     * 2 : 1 at 35°. Over the 298 photos of {@code bench} {@code FinderOutlines}, the 5,610 hulls that a card-shaped
     * quadrilateral fitted had 0.92 of the least area at the smallest and an elongation of 3.5 at the most, and 6,386
     * of the 21,190 hulls fitted before this test fail it (a busy surface's long blobs, a speckled region's small
     * ones).
     */
    static boolean mayHoldCard(Polygon2D_F64 hull, double minArea) {
        if (Math.abs(hull.areaSimple()) < MIN_HULL_AREA * minArea) {
            return false;
        }
        // the smallest rectangle around a convex polygon has a side along one of the polygon's
        int n = hull.size();
        double leastArea = Double.POSITIVE_INFINITY;
        double elongation = Double.POSITIVE_INFINITY;
        for (int k = 0; k < n; k++) {
            Point2D_F64 a = hull.get(k);
            Point2D_F64 b = hull.get((k + 1) % n);
            double length = a.distance(b);
            if (length == 0) {
                continue;
            }
            double ux = (b.x - a.x) / length;
            double uy = (b.y - a.y) / length;
            double along0 = Double.POSITIVE_INFINITY;
            double along1 = Double.NEGATIVE_INFINITY;
            double across0 = Double.POSITIVE_INFINITY;
            double across1 = Double.NEGATIVE_INFINITY;
            for (int i = 0; i < n; i++) {
                Point2D_F64 p = hull.get(i);
                double along = p.x * ux + p.y * uy;
                double across = p.y * ux - p.x * uy;
                along0 = Math.min(along0, along);
                along1 = Math.max(along1, along);
                across0 = Math.min(across0, across);
                across1 = Math.max(across1, across);
            }
            double w = along1 - along0;
            double h = across1 - across0;
            if (w * h < leastArea) {
                leastArea = w * h;
                elongation = Math.max(w, h) / Math.min(w, h);
            }
        }
        return elongation <= MAX_HULL_ELONGATION;
    }

    /** The least area of a hull worth fitting, as a share of a card's least ({@link #mayHoldCard}). */
    static final double MIN_HULL_AREA = 0.85;

    /**
     * The most a hull worth fitting is longer than wide, its smallest enclosing rectangle's long side over its short
     * ({@link #mayHoldCard}).
     */
    static final double MAX_HULL_ELONGATION = 5;

    /** The convex hull of {@code contour}'s points, from its {@link #rowEnds}. */
    static Polygon2D_F64 convexHull(List<Point2D_I32> contour) {
        return hull(rowEnds(contour));
    }

    /**
     * A convex hull ({@link #convexHull}) as a contour: its vertices in order and the whole pixels along each of its
     * edges between them, one step apart, so that a fit of it sees its sides as straight runs of points as it sees a
     * mask's.
     */
    static List<Point2D_I32> hullContour(Polygon2D_F64 hull) {
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

    /** The convex hull of {@code points} ({@link ConvexHullAndrewMonotone_F64}), its vertices in order. */
    static Polygon2D_F64 hull(List<Point2D_I32> points) {
        DogArray<Point2D_F64> copies = new DogArray<>(points.size(), Point2D_F64::new);
        for (Point2D_I32 p : points) {
            copies.grow().setTo(p.x, p.y);
        }
        Polygon2D_F64 hull = new Polygon2D_F64();
        new ConvexHullAndrewMonotone_F64().process(copies, hull);
        return hull;
    }

    /**
     * The leftmost and the rightmost of {@code contour}'s points on each of its rows, which have the same convex hull
     * as all of them (every other point lies between the two of its row): a contour that winds, as a busy surface's
     * blobs do, has many times more points than rows, and the hull's cost is in sorting them.
     */
    static List<Point2D_I32> rowEnds(List<Point2D_I32> contour) {
        if (contour.isEmpty()) {
            return contour;
        }
        int y0 = Integer.MAX_VALUE;
        int y1 = Integer.MIN_VALUE;
        for (Point2D_I32 p : contour) {
            y0 = Math.min(y0, p.y);
            y1 = Math.max(y1, p.y);
        }
        int rows = y1 - y0 + 1;
        int[] left = new int[rows];
        int[] right = new int[rows];
        java.util.Arrays.fill(left, Integer.MAX_VALUE);
        java.util.Arrays.fill(right, Integer.MIN_VALUE);
        for (Point2D_I32 p : contour) {
            int row = p.y - y0;
            left[row] = Math.min(left[row], p.x);
            right[row] = Math.max(right[row], p.x);
        }
        List<Point2D_I32> ends = new ArrayList<>(2 * rows);
        for (int row = 0; row < rows; row++) {
            if (left[row] == Integer.MAX_VALUE) {
                continue;
            }
            ends.add(new Point2D_I32(left[row], y0 + row));
            if (right[row] != left[row]) {
                ends.add(new Point2D_I32(right[row], y0 + row));
            }
        }
        return ends;
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
    static Quad refine(Quad quad, GrayF32 grey) {
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
}
