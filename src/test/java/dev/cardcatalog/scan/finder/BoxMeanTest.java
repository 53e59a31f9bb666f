package dev.cardcatalog.scan.finder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import boofcv.alg.filter.blur.BlurImageOps;
import boofcv.struct.image.GrayF32;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The card search's window mean: each pixel the mean of the window's part inside the image, as computed directly in
 * double precision, and what BoofCV's {@code BlurImageOps.mean} gives, to a float's rounding, for the radii the
 * search uses (2, and a fifth and a tenth of a side) and windows larger than the image.
 */
class BoxMeanTest {

    @Test
    void eachPixelIsTheMeanOfItsWindowInsideTheImage() {
        Random random = new Random(5);
        for (int[] size : new int[][] {{1, 1}, {9, 1}, {1, 9}, {13, 8}, {40, 31}}) {
            GrayF32 image = noise(size, random);
            for (int radius : new int[] {0, 1, 2, 5, 50}) {
                GrayF32 out = new GrayF32(1, 1);
                BoxMean.mean(image, out, radius);
                assertThat(out.width).isEqualTo(size[0]);
                for (int y = 0; y < size[1]; y++) {
                    for (int x = 0; x < size[0]; x++) {
                        double sum = 0;
                        int n = 0;
                        for (int v = Math.max(0, y - radius); v <= Math.min(size[1] - 1, y + radius); v++) {
                            for (int u = Math.max(0, x - radius); u <= Math.min(size[0] - 1, x + radius); u++) {
                                sum += image.get(u, v);
                                n++;
                            }
                        }
                        assertThat((double) out.get(x, y)).as("%d x %d, radius %d, (%d, %d)", size[0], size[1],
                                radius, x, y).isCloseTo(sum / n, org.assertj.core.api.Assertions.within(1e-4));
                    }
                }
            }
        }
    }

    @Test
    void itIsBoofCvsMeanToAFloatsRounding() {
        Random random = new Random(11);
        for (int[] size : new int[][] {{504, 378}, {378, 504}, {61, 40}}) {
            GrayF32 image = noise(size, random);
            int shorter = Math.min(size[0], size[1]);
            for (int radius : new int[] {2, (Math.max(15, shorter / 5) | 1) / 2, (Math.max(15, shorter / 10) | 1) / 2}) {
                GrayF32 ours = new GrayF32(size[0], size[1]);
                GrayF32 theirs = new GrayF32(size[0], size[1]);
                BoxMean.mean(image, ours, radius);
                BlurImageOps.mean(image, theirs, radius, new GrayF32(size[0], size[1]), null);
                for (int i = 0; i < ours.data.length; i++) {
                    assertThat(ours.data[i]).as("%d x %d, radius %d, pixel %d", size[0], size[1], radius, i)
                            .isCloseTo(theirs.data[i], org.assertj.core.api.Assertions.within(
                                    2e-5f * Math.max(1, Math.abs(theirs.data[i]))));
                }
            }
        }
    }

    @Test
    void aNegativeRadiusOrTheInputAsOutputIsRefused() {
        GrayF32 image = new GrayF32(4, 4);
        assertThatThrownBy(() -> BoxMean.mean(image, new GrayF32(4, 4), -1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("radius");
        assertThatThrownBy(() -> BoxMean.mean(image, image, 1)).isInstanceOf(IllegalArgumentException.class);
    }

    /** Values as the search's are: 0–255, a gradient across the image with noise on it. */
    private static GrayF32 noise(int[] size, Random random) {
        GrayF32 image = new GrayF32(size[0], size[1]);
        for (int i = 0; i < image.data.length; i++) {
            image.data[i] = (i % size[0]) * 200f / size[0] + random.nextInt(56) + random.nextFloat();
        }
        return image;
    }
}
