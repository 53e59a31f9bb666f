package dev.cardcatalog.testing;

import java.awt.geom.Area;
import java.awt.geom.Path2D;
import java.awt.geom.PathIterator;

/**
 * How much two card outlines overlap: intersection over union of their areas, the measure by which a card is
 * outlined right (≥ {@value #RIGHT}) or an answer is no card (&lt; {@value #NO_CARD} with every true outline) on real
 * photos (docs/benchmarks.md, "Real photos") and on the photos the suite draws.
 */
public final class Overlap {

    /** A card is outlined right when an answered outline overlaps its true one at least this much. */
    public static final double RIGHT = 0.85;

    /** An answered outline that overlaps every true one less than this is no card. */
    public static final double NO_CARD = 0.5;

    private Overlap() {
    }

    /**
     * Intersection over union of two polygons given by their corners ({@code [k][0]} x, {@code [k][1]} y, in one
     * image's pixels, either way round), 0–1.
     */
    public static double of(double[][] a, double[][] b) {
        Area inter = new Area(path(a));
        inter.intersect(new Area(path(b)));
        double i = area(inter);
        double u = Math.abs(shoelace(a)) + Math.abs(shoelace(b)) - i;
        return u <= 0 ? 0 : i / u;
    }

    private static Path2D path(double[][] corners) {
        Path2D.Double p = new Path2D.Double();
        p.moveTo(corners[0][0], corners[0][1]);
        for (int k = 1; k < corners.length; k++) {
            p.lineTo(corners[k][0], corners[k][1]);
        }
        p.closePath();
        return p;
    }

    private static double shoelace(double[][] corners) {
        double sum = 0;
        for (int k = 0; k < corners.length; k++) {
            double[] p = corners[k];
            double[] q = corners[(k + 1) % corners.length];
            sum += p[0] * q[1] - q[0] * p[1];
        }
        return sum / 2;
    }

    /** The area of an {@link Area} made of straight segments, by the shoelace formula over each of its loops. */
    private static double area(Area area) {
        double sum = 0;
        double[] c = new double[6];
        double startX = 0;
        double startY = 0;
        double lastX = 0;
        double lastY = 0;
        for (PathIterator it = area.getPathIterator(null); !it.isDone(); it.next()) {
            switch (it.currentSegment(c)) {
                case PathIterator.SEG_MOVETO -> {
                    startX = lastX = c[0];
                    startY = lastY = c[1];
                }
                case PathIterator.SEG_LINETO -> {
                    sum += lastX * c[1] - c[0] * lastY;
                    lastX = c[0];
                    lastY = c[1];
                }
                case PathIterator.SEG_CLOSE -> {
                    sum += lastX * startY - startX * lastY;
                    lastX = startX;
                    lastY = startY;
                }
                default -> throw new IllegalStateException("a polygon's intersection has no curves");
            }
        }
        return Math.abs(sum) / 2;
    }
}
