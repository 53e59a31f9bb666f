package dev.cardcatalog.scan.finder;

import boofcv.abst.filter.binary.BinaryContourFinder;
import boofcv.abst.filter.binary.BinaryLabelContourFinder;
import boofcv.factory.filter.binary.FactoryBinaryContourFinder;
import boofcv.struct.ConfigLength;
import boofcv.struct.ConnectRule;
import boofcv.struct.image.GrayF32;
import boofcv.struct.image.GrayS32;
import boofcv.struct.image.GrayU8;
import georegression.struct.point.Point2D_I32;
import org.ddogleg.struct.DogArray;

/**
 * The working images of one search, kept for the next: a search allocates about 13 MB of them at 504 × 378, and at
 * twenty 12 MP photos a second over HTTP that garbage had the 256 MB heap's collector stop the process for a quarter
 * of its time (JFR of {@code bench/match-http-bench.sh}). Every step overwrites what it reads of them (BoofCV's edge
 * detector and contour finders are made to run frame after frame), so a search finds what it finds with new ones
 * (CardFinderTest). Used by one search at a time; {@link CardFinder} keeps at most {@link CardFinder#SPARE} of them,
 * each of at most {@value CardFinder#SEARCH_SIDE} × {@value CardFinder#SEARCH_SIDE} pixels (about 14 MB at
 * 504 × 378): those of a finer search are dropped after it.
 */
final class WorkingImages {
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

    WorkingImages() {
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

    /**
     * Six rows of column sums at least {@code w} long (a flat-colour test's values and squares of three channels,
     * {@link SurfaceMasks#flatWindows}); their values are left over.
     */
    int[][] columnSums(int w) {
        if (columnSums[0].length < w) {
            for (int k = 0; k < columnSums.length; k++) {
                columnSums[k] = new int[w];
            }
        }
        return columnSums;
    }

    private final int[][] columnSums = new int[6][0];

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
     * finder's order), with these buffers' finder and labels; read as {@link MaskContours} says.
     */
    MaskContours contours(GrayU8 mask, boolean holes, int minPoints) {
        labelled.process(mask, labels);
        return new MaskContours(labelled, holes, minPoints, points);
    }

    /**
     * {@code BinaryImageOps.contourExternal(mask, ConnectRule.EIGHT)}'s of at least {@code minPoints} points: the
     * finder itself drops the shorter ones as it traces them (a busy surface's mask has thousands), so that they are
     * neither kept nor read back to be measured.
     */
    MaskContours externalContours(GrayU8 mask, int minPoints) {
        external.setMinContour(ConfigLength.fixed(minPoints));
        external.process(mask);
        return new MaskContours(external, false, minPoints, points);
    }
}
