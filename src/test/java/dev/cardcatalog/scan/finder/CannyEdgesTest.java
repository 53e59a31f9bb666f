package dev.cardcatalog.scan.finder;

import static org.assertj.core.api.Assertions.assertThat;

import boofcv.alg.feature.detect.edge.GradientToEdgeFeatures;
import boofcv.factory.feature.detect.edge.FactoryEdgeDetectors;
import boofcv.struct.image.GrayF32;
import boofcv.struct.image.GrayS8;
import boofcv.struct.image.GrayU8;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link CannyEdges} marks BoofCV's own Canny edges bit for bit: its direction without the arc tangent, its
 * suppression by a table, and the whole detector, on images of every kind of gradient.
 */
class CannyEdgesTest {

    @Test
    void theDirectionIsBoofCvsForEveryKindOfQuotient() {
        // the four bounds are where BoofCV's direction changes: checked here a thousand floats either side of each
        // (and over every float once, docs/benchmarks.md), and for random, tiny, zero, infinite and NaN derivatives
        List<float[]> pairs = new ArrayList<>();
        for (float bound : CannyEdges.BOUNDS) {
            for (int step = -1000; step <= 1000; step++) {
                float t = Float.intBitsToFloat(Float.floatToIntBits(bound) + step * (bound < 0 ? -1 : 1));
                pairs.add(new float[] {1f, t});
                pairs.add(new float[] {-1f, -t});
            }
        }
        Random random = new Random(24);
        for (int i = 0; i < 200_000; i++) {
            pairs.add(new float[] {(float) random.nextGaussian() * 40, (float) random.nextGaussian() * 40});
            pairs.add(new float[] {random.nextInt(7) - 3, random.nextInt(7) - 3}); // whole steps: exact diagonals
        }
        for (float dx : new float[] {0f, -0f, 1e-11f, -1e-11f, 1e-10f, -1e-10f, 1e-9f, Float.MIN_VALUE,
                Float.MAX_VALUE, -Float.MAX_VALUE, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.NaN}) {
            for (float dy : new float[] {0f, -0f, 1f, -1f, 1e30f, -1e30f, Float.MAX_VALUE, Float.NaN,
                    Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY}) {
                pairs.add(new float[] {dx, dy});
            }
        }
        GrayF32 derivX = new GrayF32(pairs.size(), 1);
        GrayF32 derivY = new GrayF32(pairs.size(), 1);
        for (int i = 0; i < pairs.size(); i++) {
            derivX.data[i] = pairs.get(i)[0];
            derivY.data[i] = pairs.get(i)[1];
        }
        GrayF32 angle = new GrayF32(pairs.size(), 1);
        GradientToEdgeFeatures.direction(derivX, derivY, angle);
        GrayS8 theirs = GradientToEdgeFeatures.discretizeDirection4(angle, null);
        GrayS8 ours = new GrayS8(pairs.size(), 1);
        GrayF32 intensity = new GrayF32(pairs.size(), 1);
        CannyEdges.intensityAndDirection(derivX, derivY, intensity, ours, new float[4][pairs.size()]);
        for (int i = 0; i < pairs.size(); i++) {
            assertThat(ours.data[i]).as("direction of dx %s, dy %s", derivX.data[i], derivY.data[i])
                    .isEqualTo(theirs.data[i]);
        }
        // the same derivatives as rows of a sub-image (a stride and an offset), a row's quotients at a time
        int width = 1000;
        int rows = (pairs.size() + width - 1) / width;
        GrayF32 wideX = new GrayF32(width + 3, rows + 2).subimage(2, 1, 2 + width, 1 + rows);
        GrayF32 wideY = new GrayF32(width + 3, rows + 2).subimage(2, 1, 2 + width, 1 + rows);
        for (int i = 0; i < rows * width; i++) {
            wideX.set(i % width, i / width, i < pairs.size() ? derivX.data[i] : 1f);
            wideY.set(i % width, i / width, i < pairs.size() ? derivY.data[i] : 0f);
        }
        GrayS8 wideOurs = new GrayS8(width + 5, rows + 1).subimage(1, 1, 1 + width, 1 + rows);
        GrayF32 wideIntensity = new GrayF32(width + 2, rows + 3).subimage(1, 2, 1 + width, 2 + rows);
        CannyEdges.intensityAndDirection(wideX, wideY, wideIntensity, wideOurs, new float[4][width]);
        GrayF32 theirIntensity = new GrayF32(pairs.size(), 1);
        GradientToEdgeFeatures.intensityAbs(derivX, derivY, theirIntensity);
        for (int i = 0; i < pairs.size(); i++) {
            assertThat(wideOurs.get(i % width, i / width)).as("direction of dx %s, dy %s in rows", derivX.data[i],
                    derivY.data[i]).isEqualTo(theirs.data[i]);
            assertThat(Float.floatToIntBits(wideIntensity.get(i % width, i / width))) // NaN as NaN
                    .as("intensity of dx %s, dy %s in rows", derivX.data[i], derivY.data[i])
                    .isEqualTo(Float.floatToIntBits(theirIntensity.data[i]));
        }
        assertThat(intensity.data).isEqualTo(theirIntensity.data);
        // the bounds are the floats nearest tan(22.5°) and tan(67.5°), as the bins say
        assertThat(CannyEdges.BOUNDS[2]).isCloseTo((float) Math.tan(Math.PI / 8), org.assertj.core.api.Assertions
                .within(1e-6f));
        assertThat(CannyEdges.BOUNDS[3]).isCloseTo((float) Math.tan(3 * Math.PI / 8), org.assertj.core.api
                .Assertions.within(1e-6f));
    }

    @Test
    void theSuppressionIsBoofCvsInsideAndOnTheBorderThroughAStride() {
        Random random = new Random(7);
        for (int[] size : new int[][] {{1, 1}, {2, 3}, {3, 3}, {17, 5}, {64, 48}}) {
            GrayF32 whole = new GrayF32(size[0] + 4, size[1] + 3);
            GrayS8 wholeDirections = new GrayS8(size[0] + 4, size[1] + 3);
            for (int i = 0; i < whole.data.length; i++) {
                whole.data[i] = random.nextInt(4) == 0 ? 5f : random.nextFloat() * 10; // ties as well
                wholeDirections.data[i] = (byte) (random.nextInt(4) - 1);
            }
            GrayF32 intensity = whole.subimage(2, 1, 2 + size[0], 1 + size[1]);
            GrayS8 direction = wholeDirections.subimage(2, 1, 2 + size[0], 1 + size[1]);
            GrayF32 theirs = GradientToEdgeFeatures.nonMaxSuppression4(intensity, direction, null);
            GrayF32 ours = new GrayF32(size[0], size[1]);
            CannyEdges.suppress(intensity, direction, ours);
            assertThat(ours.data).as("%d x %d", size[0], size[1]).isEqualTo(theirs.data);
        }
    }

    @Test
    void theEdgesAreBoofCvsAtBothThresholdsOnEveryKindOfImage() {
        List<GrayF32> greys = new ArrayList<>();
        Random random = new Random(11);
        for (int[] size : new int[][] {{3, 3}, {5, 3}, {3, 7}, {40, 61}, {200, 150}}) { // the search's least is 3 a side
            GrayF32 noise = new GrayF32(size[0], size[1]);
            for (int i = 0; i < noise.data.length; i++) {
                noise.data[i] = random.nextInt(256);
            }
            greys.add(noise);
        }
        greys.add(new GrayF32(30, 20)); // flat: no edge at all
        for (double turn = 0; turn < Math.PI; turn += Math.PI / 16) { // a square at every direction and between
            GrayF32 square = new GrayF32(120, 90);
            double c = Math.cos(turn);
            double s = Math.sin(turn);
            for (int y = 0; y < square.height; y++) {
                for (int x = 0; x < square.width; x++) {
                    double u = (x - 60) * c + (y - 45) * s;
                    double v = -(x - 60) * s + (y - 45) * c;
                    square.set(x, y, (Math.abs(u) < 25 && Math.abs(v) < 18 ? 200f : 40f) + (x * 7 + y * 3) % 5);
                }
            }
            greys.add(square);
        }
        CannyEdges ours = new CannyEdges(); // one for all: reused from one image to the next, as the finder does
        for (GrayF32 grey : greys) {
            var theirs = FactoryEdgeDetectors.canny(2, false, true, GrayF32.class, GrayF32.class);
            GrayU8 expected = new GrayU8(grey.width, grey.height);
            GrayU8 actual = new GrayU8(1, 1);
            theirs.process(grey, 0.04f, 0.12f, expected);
            ours.process(grey, 0.04f, 0.12f, actual);
            assertThat(actual.data).as("edges, %d x %d", grey.width, grey.height).isEqualTo(expected.data);
            theirs.process(grey, 0.02f, 0.06f, expected);
            ours.again(0.02f, 0.06f, actual);
            assertThat(actual.data).as("edges again, %d x %d", grey.width, grey.height).isEqualTo(expected.data);
        }
    }
}
