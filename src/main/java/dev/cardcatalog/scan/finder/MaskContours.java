package dev.cardcatalog.scan.finder;

import boofcv.abst.filter.binary.BinaryContourInterface;
import boofcv.alg.filter.binary.ContourPacked;
import georegression.struct.point.Point2D_I32;
import java.util.List;
import org.ddogleg.struct.DogArray;
import org.ddogleg.struct.DogArray_I32;

/**
 * The contours of a mask that a finder found, those of at least a number of points, in the finder's order, not
 * copied: {@link #get} loads one into the working images' one array of points and answers a view of it, valid until
 * the next is read. A search fits at most {@value OutlinePool#MAX_CONTOURS_EACH} of a mask's, the longest; copying
 * every long one (a {@code Point2D_I32} a point) was a fifth of the bytes a 12 MP photo's match allocated (JFR).
 */
final class MaskContours extends java.util.AbstractList<List<Point2D_I32>> {
    private final BinaryContourInterface finder;
    private final DogArray<Point2D_I32> points;
    private final DogArray_I32 ids = new DogArray_I32();
    private final DogArray_I32 lengths = new DogArray_I32();

    MaskContours(BinaryContourInterface finder, boolean holes, int minPoints, DogArray<Point2D_I32> points) {
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
