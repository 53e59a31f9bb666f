package dev.cardcatalog.scan;

import dev.cardcatalog.scan.finder.Quad;
import java.util.ArrayList;
import java.util.List;
import org.ejml.data.FMatrixRMaj;
import org.ejml.dense.row.CommonOps_FDRM;

/**
 * Whether a page of cards was read whole by the first look at a photo (SERVICE.md §5.10), so the second look, twice
 * as fine, can find nothing more on it ({@link PhotoMatch}): every card on the page is {@link MatchStatus#CONFIDENT},
 * the cards fill whole rows and columns of the page with no gap, and together they cover at least
 * {@value #MIN_COVER} of the page's area.
 *
 * <p>The cards' centres are taken into the page's own plane (the homography of its outline, so perspective and a
 * page turned any way do not matter) and grouped into rows and, within the page, into columns: a new row starts
 * where the next centre lies more than half the median card height (in the page's plane) below the last one, and a
 * new column likewise across. A card missing from a page of nine leaves a row shorter than the others; a whole row or
 * column missing leaves a third of the page uncovered (nine cards cover about 76 % of a nine-pocket page, six about
 * 50 %). A page that fails is looked at again.
 */
public final class PageGrid {

    /** The least share of a page's area its cards must cover for the page to be read whole. */
    static final double MIN_COVER = 0.6;

    private PageGrid() {
    }

    /**
     * Whether {@code page} was read whole: see the class.
     *
     * @param page  a find that held two or more cards, in the photo's pixels
     * @param cards the cards found in the photo, in the same pixels; those whose centre lies on the page are its
     */
    public static boolean readWhole(Quad page, List<PhotoMatch.Found> cards) {
        List<PhotoMatch.Found> on = cards.stream().filter(c -> page.contains(c.corners().centreX(),
                c.corners().centreY())).toList();
        if (on.size() < 2 || on.stream().anyMatch(c -> c.status() != MatchStatus.CONFIDENT)) {
            return false;
        }
        double covered = on.stream().mapToDouble(c -> c.corners().area()).sum();
        if (covered < MIN_COVER * page.area()) {
            return false;
        }
        FMatrixRMaj toPage = toPage(page);
        if (toPage == null) {
            return false;
        }
        List<double[]> centres = new ArrayList<>();
        double[] heights = new double[on.size()];
        double[] widths = new double[on.size()];
        for (int k = 0; k < on.size(); k++) {
            Quad q = on.get(k).corners();
            centres.add(map(toPage, q.centreX(), q.centreY()));
            double[][] corners = new double[4][];
            for (int c = 0; c < 4; c++) {
                corners[c] = map(toPage, q.x(c), q.y(c));
            }
            heights[k] = extent(corners, 1);
            widths[k] = extent(corners, 0);
        }
        java.util.Arrays.sort(heights);
        java.util.Arrays.sort(widths);
        List<Integer> rows = groups(centres, 1, heights[heights.length / 2] / 2);
        int columns = groups(centres, 0, widths[widths.length / 2] / 2).size();
        // every row as long as there are columns: no gap inside the grid
        return rows.stream().allMatch(inRow -> inRow == columns);
    }

    /**
     * The sizes of the groups the centres fall into along {@code axis}, in order: a gap of more than {@code split}
     * starts the next.
     */
    private static List<Integer> groups(List<double[]> centres, int axis, double split) {
        double[] along = centres.stream().mapToDouble(c -> c[axis]).sorted().toArray();
        List<Integer> sizes = new ArrayList<>();
        int size = 1;
        for (int k = 1; k < along.length; k++) {
            if (along[k] - along[k - 1] > split) {
                sizes.add(size);
                size = 1;
            } else {
                size++;
            }
        }
        sizes.add(size);
        return sizes;
    }

    private static double extent(double[][] points, int axis) {
        double min = Double.MAX_VALUE;
        double max = -Double.MAX_VALUE;
        for (double[] p : points) {
            min = Math.min(min, p[axis]);
            max = Math.max(max, p[axis]);
        }
        return max - min;
    }

    /** The homography from the photo's pixels to the page's plane (its outline the square 0–1,000 a side). */
    private static FMatrixRMaj toPage(Quad page) {
        FMatrixRMaj fromPage = CardWarp.homography(page, 0, 0, PLANE, PLANE);
        if (fromPage == null) {
            return null;
        }
        FMatrixRMaj inverse = new FMatrixRMaj(3, 3);
        return CommonOps_FDRM.invert(fromPage, inverse) ? inverse : null;
    }

    private static final int PLANE = 1000;

    private static double[] map(FMatrixRMaj h, double x, double y) {
        float[] m = h.data;
        double z = m[6] * x + m[7] * y + m[8];
        return new double[] {(m[0] * x + m[1] * y + m[2]) / z, (m[3] * x + m[4] * y + m[5]) / z};
    }
}
