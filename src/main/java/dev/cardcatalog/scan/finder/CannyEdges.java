package dev.cardcatalog.scan.finder;

import boofcv.abst.filter.blur.BlurFilter;
import boofcv.abst.filter.derivative.ImageGradient;
import boofcv.alg.feature.detect.edge.HysteresisEdgeTraceMark;
import boofcv.alg.feature.detect.edge.impl.ImplEdgeNonMaxSuppression;
import boofcv.alg.misc.ImageMiscOps;
import boofcv.alg.misc.ImageStatistics;
import boofcv.factory.filter.blur.FactoryBlurFilter;
import boofcv.factory.filter.derivative.FactoryDerivative;
import boofcv.struct.image.GrayF32;
import boofcv.struct.image.GrayS8;
import boofcv.struct.image.GrayU8;
import boofcv.struct.image.ImageType;

/**
 * BoofCV's Canny edge detector as the card search uses it, {@code FactoryEdgeDetectors.canny(2, false, true,
 * GrayF32.class, GrayF32.class)}: a Gaussian blur of radius 2, the three-point derivative, the gradient's direction
 * in four, non-maximum suppression, and hysteresis at thresholds relative to the strongest edge. The same edges bit
 * for bit (CardFinderTest, CannyEdgesTest), from BoofCV's own blur, derivative, border suppression and hysteresis;
 * two of its steps are done here in a way that costs less:
 * <ul>
 * <li>the direction in four ({@link #intensityAndDirection}) from the derivatives' quotient compared with four
 * bounds, where BoofCV takes its arc tangent pixel by pixel (a native call: about 7 % of a 12 MP photo's search,
 * JFR);</li>
 * <li>the suppression inside the border with the neighbours' offsets from a table, not a branch a direction, and
 * without a branch on the intensities.</li>
 * </ul>
 * The same image's edges can be thresholded again ({@link #again}) without blurring, differentiating and thinning it
 * again. Not thread-safe; every image is reshaped to the input's size and reused from one image to the next.
 */
final class CannyEdges {
    /** BoofCV's bins: the angle's eighth and quarter of a half turn, as floats. */
    private static final float EIGHTH = (float) (Math.PI / 8.0);
    private static final float QUARTER = (float) (Math.PI / 4.0);

    /**
     * The least floats {@code dy / dx} from which BoofCV's direction, before it folds -2 onto 2, is at least -1, 0, 1
     * and 2: it never decreases as the quotient grows (checked over every float, docs/benchmarks.md), so these four
     * bounds give it exactly.
     */
    static final float[] BOUNDS = {least(-1), least(0), least(1), least(2)};

    /** The direction for how many of {@link #BOUNDS} a quotient reaches: -2 (folded onto 2), -1, 0, 1, 2. */
    private static final byte[] DIRECTION = {2, -1, 0, 1, 2};

    private final BlurFilter<GrayF32> blur = FactoryBlurFilter.gaussian(ImageType.single(GrayF32.class), -1, 2);
    private final ImageGradient<GrayF32, GrayF32> gradient = FactoryDerivative.three(GrayF32.class, GrayF32.class);
    private final GrayF32 blurred = new GrayF32(1, 1);
    private final GrayF32 derivX = new GrayF32(1, 1);
    private final GrayF32 derivY = new GrayF32(1, 1);
    private final GrayF32 intensity = new GrayF32(1, 1);
    private final GrayS8 direction = new GrayS8(1, 1);
    /** The thinned intensities, kept for {@link #again}. */
    private final GrayF32 thinned = new GrayF32(1, 1);
    /** A copy of {@link #thinned} for the hysteresis, which marks the intensities it traverses. */
    private final GrayF32 traced = new GrayF32(1, 1);
    private final HysteresisEdgeTraceMark hysteresis = new HysteresisEdgeTraceMark();
    /** A row's derivatives, intensities and quotients, for {@link #intensityAndDirection}. */
    private float[][] rows = new float[4][0];

    /**
     * Marks in {@code output} (1, else 0; reshaped to the input's size) the edges of {@code input} as BoofCV's
     * {@code CannyEdgeDynamic.process} marks them.
     *
     * @param input a grey image, any values
     * @param low   the lower threshold, a share (0–1) of the strongest thinned edge
     * @param high  the upper threshold, likewise
     * @throws IllegalArgumentException when a threshold is outside 0–1
     */
    void process(GrayF32 input, float low, float high, GrayU8 output) {
        int w = input.width;
        int h = input.height;
        for (GrayF32 image : new GrayF32[] {blurred, derivX, derivY, intensity, thinned, traced}) {
            image.reshape(w, h);
        }
        direction.reshape(w, h);
        output.reshape(w, h);
        blur.process(input, blurred);
        gradient.process(blurred, derivX, derivY);
        if (rows[0].length < w) {
            rows = new float[4][w];
        }
        intensityAndDirection(derivX, derivY, intensity, direction, rows);
        suppress(intensity, direction, thinned);
        threshold(low, high, output);
    }

    /**
     * Marks the edges of the image last given to {@link #process} at other thresholds, as {@link #process} would
     * mark them.
     */
    void again(float low, float high, GrayU8 output) {
        threshold(low, high, output);
    }

    /** {@code CannyEdgeDynamic.performThresholding}, over a copy of the thinned intensities. */
    private void threshold(float low, float high, GrayU8 output) {
        if (low < 0 || low > 1 || high < 0 || high > 1) {
            throw new IllegalArgumentException("Relative thresholds must be from 0 to 1, inclusive.");
        }
        float max = ImageStatistics.max(thinned);
        float lower = max * low;
        float upper = max * high;
        if (lower <= 0f && upper <= 0f) {
            ImageMiscOps.fill(output, 0); // no texture at all: no edge, rather than the whole image
            return;
        }
        traced.setTo(thinned);
        hysteresis.process(traced, direction, lower, upper, output);
    }

    /**
     * Each pixel's edge intensity, {@code |dx| + |dy|} (BoofCV's {@code intensityAbs}), and its gradient's direction
     * in four as BoofCV's {@code GradientToEdgeFeatures.direction} and {@code discretizeDirection4} give it: 0 along
     * x, 1 and -1 the diagonals, 2 along y; 2 when {@code |dx|} is under 1e-10; 0 when the quotient is NaN. From the
     * quotient {@code dy / dx} and {@link #BOUNDS}, without its arc tangent. A row at a time: the intensities and the
     * quotients in one loop (one the compiler vectorises, divisions included), the quotients compared with the
     * bounds in the next, then the few pixels the bounds do not decide (about half the time of the three done pixel
     * by pixel; docs/benchmarks.md).
     *
     * @param rows four arrays of scratch, each at least as wide as the derivatives; their values are left over
     */
    static void intensityAndDirection(GrayF32 derivX, GrayF32 derivY, GrayF32 intensity, GrayS8 direction,
            float[][] rows) {
        byte[] dirs = direction.data;
        float[] xs = rows[0];
        float[] ys = rows[1];
        float[] sums = rows[2];
        float[] t = rows[3];
        float b0 = BOUNDS[0];
        float b1 = BOUNDS[1];
        float b2 = BOUNDS[2];
        float b3 = BOUNDS[3];
        int w = derivX.width;
        for (int y = 0; y < derivX.height; y++) {
            // the row copied out and back: C2 vectorises a loop whose arrays are all read at one index, and not one
            // that reads them at row + x and x
            System.arraycopy(derivX.data, derivX.startIndex + y * derivX.stride, xs, 0, w);
            System.arraycopy(derivY.data, derivY.startIndex + y * derivY.stride, ys, 0, w);
            for (int x = 0; x < w; x++) {
                sums[x] = Math.abs(xs[x]) + Math.abs(ys[x]);
                t[x] = ys[x] / xs[x];
            }
            System.arraycopy(sums, 0, intensity.data, intensity.startIndex + y * intensity.stride, w);
            int id = direction.startIndex + y * direction.stride;
            for (int x = 0; x < w; x++) {
                // q >= b exactly when q - b has no sign bit (a difference of floats is 0 only when they are equal,
                // and then +0; an infinite q gives an infinite difference of its sign): the bounds not reached
                // counted without a branch, where the comparisons compiled to branches that the photo's data
                // mispredicts
                float q = t[x];
                int missed = (Float.floatToRawIntBits(q - b0) >>> 31) + (Float.floatToRawIntBits(q - b1) >>> 31)
                        + (Float.floatToRawIntBits(q - b2) >>> 31) + (Float.floatToRawIntBits(q - b3) >>> 31);
                dirs[id + x] = DIRECTION[4 - missed];
            }
            // what the bounds do not decide: a tiny dx, and a NaN quotient
            for (int x = 0; x < w; x++) {
                if (Math.abs(xs[x]) < 1e-10f) {
                    dirs[id + x] = 2;
                } else if (t[x] != t[x]) {
                    dirs[id + x] = 0;
                }
            }
        }
    }

    /**
     * BoofCV's direction before it folds -2 onto 2, from the arc tangent of the quotient: {@code (float) Math.atan}
     * of it, then that angle's bin of a quarter turn centred on 0, in single precision as BoofCV computes it.
     */
    static int unfolded(float quotient) {
        float angle = (float) Math.atan(quotient);
        return angle >= 0 ? (int) ((angle + EIGHTH) / QUARTER) : (int) ((angle - EIGHTH) / QUARTER);
    }

    /** The least float quotient whose {@link #unfolded} direction is at least {@code bin}, by bisection. */
    private static float least(int bin) {
        // floats in order as ints: negative floats' bits reversed below zero
        long lo = ordered(Float.NEGATIVE_INFINITY);
        long hi = ordered(Float.POSITIVE_INFINITY);
        while (lo < hi) {
            long mid = Math.floorDiv(lo + hi, 2);
            if (unfolded(fromOrdered(mid)) >= bin) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return fromOrdered(lo);
    }

    private static long ordered(float f) {
        int bits = Float.floatToRawIntBits(f);
        return bits < 0 ? -(long) (bits & 0x7fffffff) : bits;
    }

    private static float fromOrdered(long k) {
        return Float.intBitsToFloat(k < 0 ? (int) (-k) | 0x80000000 : (int) k);
    }

    /**
     * BoofCV's non-maximum suppression in four directions ({@code GradientToEdgeFeatures.nonMaxSuppression4}): a
     * pixel's intensity, or 0 when either neighbour along its direction is more, for intensities that are finite and
     * not -0 (|dx| + |dy| of finite derivatives always is). Inside the border the neighbours' offsets come from a
     * table and the choice is made without a branch; the border is BoofCV's own.
     */
    static void suppress(GrayF32 intensity, GrayS8 direction, GrayF32 output) {
        int w = intensity.width;
        int h = intensity.height;
        int s = intensity.stride;
        // by direction & 3: 0 along x, 1 down the diagonal, 2 along y, 3 (for -1) up the diagonal
        int[] step = {1, 1 + s, s, 1 - s};
        float[] in = intensity.data;
        float[] out = output.data;
        byte[] dirs = direction.data;
        for (int y = 1; y < h - 1; y++) {
            int i = intensity.startIndex + y * s + 1;
            int d = direction.startIndex + y * direction.stride + 1;
            int o = output.startIndex + y * output.stride + 1;
            for (int x = 1; x < w - 1; x++, i++, d++, o++) {
                // suppressed when a neighbour is more: when middle - neighbour has its sign bit (exact for finite
                // intensities that are not -0, as |dx| + |dy| always is). Without a branch: the comparisons compiled
                // to branches that the photo's data mispredicts, which took 2.5 to 4 times as long
                int k = step[dirs[d] & 3];
                float middle = in[i];
                int less = Float.floatToRawIntBits(middle - in[i - k]) | Float.floatToRawIntBits(middle - in[i + k]);
                out[o] = Float.intBitsToFloat(Float.floatToRawIntBits(middle) & ~(less >> 31));
            }
        }
        ImplEdgeNonMaxSuppression.border4(intensity, direction, output);
    }
}
