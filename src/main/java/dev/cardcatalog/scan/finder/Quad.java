package dev.cardcatalog.scan.finder;

import java.util.Arrays;

/**
 * A quadrilateral in an image: four corners in order around it, in pixel-edge coordinates (pixel {@code (x, y)}
 * covers {@code [x, x+1) × [y, y+1)}, so an image {@code w} wide spans 0 to {@code w}). When the quad is a card's
 * outline, corner 0 is the card's top-left as the card reads upright, then top-right, bottom-right, bottom-left.
 * Immutable.
 *
 * @param xy the corners' coordinates, {@code x0, y0, x1, y1, x2, y2, x3, y3}
 */
public record Quad(double[] xy) {

    public Quad {
        if (xy == null || xy.length != 8) {
            throw new IllegalArgumentException("a quad has four corners, 8 coordinates");
        }
        xy = xy.clone();
    }

    /** A quad with corners {@code (x0, y0) .. (x3, y3)}. */
    public static Quad of(double x0, double y0, double x1, double y1, double x2, double y2, double x3, double y3) {
        return new Quad(new double[] {x0, y0, x1, y1, x2, y2, x3, y3});
    }

    /** The whole of a {@code width} × {@code height} image: its top-left, top-right, bottom-right, bottom-left. */
    public static Quad frame(double width, double height) {
        return of(0, 0, width, 0, width, height, 0, height);
    }

    /** Corner {@code k}'s x, {@code k} taken modulo 4. */
    public double x(int k) {
        return xy[2 * Math.floorMod(k, 4)];
    }

    /** Corner {@code k}'s y, {@code k} taken modulo 4. */
    public double y(int k) {
        return xy[2 * Math.floorMod(k, 4) + 1];
    }

    /** Length of side {@code k}, from corner {@code k} to corner {@code k + 1}. */
    public double side(int k) {
        return Math.hypot(x(k + 1) - x(k), y(k + 1) - y(k));
    }

    /** The area, positive whichever way the corners go round. */
    public double area() {
        double sum = 0;
        for (int k = 0; k < 4; k++) {
            sum += x(k) * y(k + 1) - x(k + 1) * y(k);
        }
        return Math.abs(sum) / 2;
    }

    /** Whether the corners go clockwise as the image is displayed (y pointing down). */
    public boolean clockwise() {
        double sum = 0;
        for (int k = 0; k < 4; k++) {
            sum += x(k) * y(k + 1) - x(k + 1) * y(k);
        }
        return sum > 0;
    }

    /**
     * How far the quad is from a rectangle, in degrees: the largest of its corners' departures from a right angle and
     * of the angles between its opposite sides. A card seen under a phone's perspective stays within a few degrees;
     * an outline that took in a corner of a neighbour, or a card's art box fitted with one of its text box's corners,
     * does not.
     */
    public double skew() {
        double worst = 0;
        for (int k = 0; k < 4; k++) {
            double ax = x(k + 3) - x(k);
            double ay = y(k + 3) - y(k);
            double bx = x(k + 1) - x(k);
            double by = y(k + 1) - y(k);
            double cos = (ax * bx + ay * by) / (Math.hypot(ax, ay) * Math.hypot(bx, by));
            worst = Math.max(worst, Math.abs(Math.toDegrees(Math.acos(Math.max(-1, Math.min(1, cos)))) - 90));
        }
        for (int k = 0; k < 2; k++) {
            double a = Math.atan2(y(k + 1) - y(k), x(k + 1) - x(k));
            double b = Math.atan2(y(k + 2) - y(k + 3), x(k + 2) - x(k + 3));
            double apart = Math.toDegrees(Math.abs(a - b)) % 180;
            worst = Math.max(worst, Math.min(apart, 180 - apart));
        }
        return worst;
    }

    /** The mean of the corners. */
    public double centreX() {
        return (xy[0] + xy[2] + xy[4] + xy[6]) / 4;
    }

    /** The mean of the corners. */
    public double centreY() {
        return (xy[1] + xy[3] + xy[5] + xy[7]) / 4;
    }

    /** Whether the corners make a convex quadrilateral (no three on a line). */
    public boolean convex() {
        int sign = 0;
        for (int k = 0; k < 4; k++) {
            double cross = (x(k + 1) - x(k)) * (y(k + 2) - y(k + 1)) - (y(k + 1) - y(k)) * (x(k + 2) - x(k + 1));
            int s = cross > 0 ? 1 : cross < 0 ? -1 : 0;
            if (s == 0 || sign != 0 && s != sign) {
                return false;
            }
            sign = s;
        }
        return true;
    }

    /** Whether point {@code (px, py)} lies inside (for a convex quad). */
    public boolean contains(double px, double py) {
        int sign = 0;
        for (int k = 0; k < 4; k++) {
            double cross = (x(k + 1) - x(k)) * (py - y(k)) - (y(k + 1) - y(k)) * (px - x(k));
            int s = cross > 0 ? 1 : cross < 0 ? -1 : 0;
            if (s != 0) {
                if (sign != 0 && s != sign) {
                    return false;
                }
                sign = s;
            }
        }
        return true;
    }

    /** The same corners starting at corner {@code k}: corner {@code k} becomes corner 0. */
    public Quad startingAt(int k) {
        double[] out = new double[8];
        for (int i = 0; i < 4; i++) {
            out[2 * i] = x(k + i);
            out[2 * i + 1] = y(k + i);
        }
        return new Quad(out);
    }

    /** The corners in the other direction round, corner 0 staying first. */
    public Quad reversed() {
        return of(x(0), y(0), x(3), y(3), x(2), y(2), x(1), y(1));
    }

    /** Every coordinate multiplied by {@code sx} (x) and {@code sy} (y): the same outline in a scaled image. */
    public Quad scaled(double sx, double sy) {
        double[] out = xy.clone();
        for (int k = 0; k < 4; k++) {
            out[2 * k] *= sx;
            out[2 * k + 1] *= sy;
        }
        return new Quad(out);
    }

    /**
     * The point at {@code (u, v)} of the plane map that takes the unit square's corners (0, 0), (1, 0), (1, 1),
     * (0, 1) to corners 0, 1, 2, 3 (Heckbert's square-to-quad homography): what a point of a card, in fractions of
     * its width and height, looks like in the photo when this is the card's outline.
     *
     * @return {@code {x, y}}
     */
    public double[] at(double u, double v) {
        double sx = x(0) - x(1) + x(2) - x(3);
        double sy = y(0) - y(1) + y(2) - y(3);
        double dx1 = x(1) - x(2);
        double dx2 = x(3) - x(2);
        double dy1 = y(1) - y(2);
        double dy2 = y(3) - y(2);
        double den = dx1 * dy2 - dx2 * dy1;
        double g = (sx * dy2 - dx2 * sy) / den;
        double h = (dx1 * sy - sx * dy1) / den;
        double a = x(1) - x(0) + g * x(1);
        double b = x(3) - x(0) + h * x(3);
        double d = y(1) - y(0) + g * y(1);
        double e = y(3) - y(0) + h * y(3);
        double w = g * u + h * v + 1;
        return new double[] {(a * u + b * v + x(0)) / w, (d * u + e * v + y(0)) / w};
    }

    /**
     * The quad whose corners are at {@code (-du, -dv)}, {@code (1 + du, -dv)}, {@code (1 + du, 1 + dv)},
     * {@code (-du, 1 + dv)} of this one ({@link #at}): this outline grown (or, negative, shrunk) by {@code du} of its
     * width on the left and right and {@code dv} of its height at the top and bottom, in perspective.
     */
    public Quad grown(double du, double dv) {
        double[] a = at(-du, -dv);
        double[] b = at(1 + du, -dv);
        double[] c = at(1 + du, 1 + dv);
        double[] d = at(-du, 1 + dv);
        return of(a[0], a[1], b[0], b[1], c[0], c[1], d[0], d[1]);
    }

    /** Every corner moved by {@code (dx, dy)}. */
    public Quad translated(double dx, double dy) {
        double[] out = xy.clone();
        for (int k = 0; k < 4; k++) {
            out[2 * k] += dx;
            out[2 * k + 1] += dy;
        }
        return new Quad(out);
    }

    /** The largest distance between a corner of this quad and the same corner of {@code other}. */
    public double cornerDistance(Quad other) {
        double max = 0;
        for (int k = 0; k < 4; k++) {
            max = Math.max(max, Math.hypot(x(k) - other.x(k), y(k) - other.y(k)));
        }
        return max;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Quad q && Arrays.equals(xy, q.xy);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(xy);
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("Quad[");
        for (int k = 0; k < 4; k++) {
            s.append(k == 0 ? "" : ", ").append(String.format(java.util.Locale.ROOT, "(%.1f, %.1f)", x(k), y(k)));
        }
        return s.append(']').toString();
    }
}
