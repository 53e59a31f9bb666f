package dev.cardcatalog.scan.finder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import boofcv.alg.filter.binary.BinaryImageOps;
import boofcv.struct.image.GrayU8;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The card search's erosion and dilation are BoofCV's {@code erode8} and {@code dilate8}, bit for bit, on every
 * kind of mask the search makes (sparse edges, large blobs, noise) and every size down to a single pixel, so the
 * outlines found, and the recall measured with BoofCV's, stand.
 */
class MaskMorphologyTest {

    /** Rows of one pixel, of fewer than eight (one word), of whole words and of whole words and a few more. */
    private static final int[][] SIZES = {{1, 1}, {1, 7}, {7, 1}, {2, 2}, {3, 2}, {2, 5}, {8, 3}, {9, 4}, {15, 6},
            {16, 5}, {17, 13}, {23, 2}, {64, 64}, {504, 378}, {378, 504}};

    @Test
    void erosionAndDilationMarkWhatBoofCvsMark() {
        Random random = new Random(24);
        int compared = 0;
        for (int[] size : SIZES) {
            for (double density : new double[] {0.02, 0.5, 0.9, 0.995}) {
                for (GrayU8 mask : new GrayU8[] {noise(size, density, random), blobs(size, density, random)}) {
                    assertThat(MaskMorphology.erode8(mask, null).data)
                            .as("erosion, %d x %d, density %s", size[0], size[1], density)
                            .isEqualTo(BinaryImageOps.erode8(mask, 1, null).data);
                    assertThat(MaskMorphology.dilate8(mask, null).data)
                            .as("dilation, %d x %d, density %s", size[0], size[1], density)
                            .isEqualTo(BinaryImageOps.dilate8(mask, 1, null).data);
                    compared++;
                }
            }
        }
        assertThat(compared).isEqualTo(SIZES.length * 8);
    }

    @Test
    void theEdgesOfTheImageCountOnlyTheNeighboursInsideIt() {
        GrayU8 full = new GrayU8(5, 4);
        full.data = new byte[20];
        java.util.Arrays.fill(full.data, (byte) 1);
        // all set: erosion keeps every pixel, the image's edge included (nothing outside counts as unset)
        assertThat(MaskMorphology.erode8(full, null).data).containsOnly(1);
        GrayU8 corner = new GrayU8(5, 4);
        corner.set(0, 0, 1);
        GrayU8 dilated = MaskMorphology.dilate8(corner, null);
        assertThat(dilated.get(0, 0) + dilated.get(1, 0) + dilated.get(0, 1) + dilated.get(1, 1)).isEqualTo(4);
        assertThat(sum(dilated)).isEqualTo(4);
        // one unset pixel in the middle takes its eight neighbours out of the erosion
        full.set(2, 2, 0);
        assertThat(sum(MaskMorphology.erode8(full, null))).isEqualTo(20 - 9);
    }

    @Test
    void theOutputIsReusedAndMayNotBeTheMask() {
        Random random = new Random(7);
        GrayU8 mask = noise(new int[] {40, 30}, 0.7, random);
        GrayU8 reused = new GrayU8(40, 30);
        java.util.Arrays.fill(reused.data, (byte) 1);
        assertThat(MaskMorphology.erode8(mask, reused)).isSameAs(reused);
        assertThat(reused.data).isEqualTo(BinaryImageOps.erode8(mask, 1, null).data);
        assertThatThrownBy(() -> MaskMorphology.dilate8(mask, mask)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aSubImageIsReadAndWrittenThroughItsStrideAndAnyNonZeroPixelIsSet() {
        Random random = new Random(11);
        for (int[] size : new int[][] {{9, 7}, {16, 4}, {21, 11}}) {
            // the mask inside a larger image whose other pixels are set, with 255 for its own set pixels
            GrayU8 mask = blobs(size, 0.5, random);
            GrayU8 frame = new GrayU8(size[0] + 13, size[1] + 4);
            java.util.Arrays.fill(frame.data, (byte) 255);
            GrayU8 inside = frame.subimage(5, 2, 5 + size[0], 2 + size[1]);
            GrayU8 outFrame = new GrayU8(size[0] + 11, size[1] + 3);
            java.util.Arrays.fill(outFrame.data, (byte) 7);
            GrayU8 outInside = outFrame.subimage(3, 1, 3 + size[0], 1 + size[1]);
            for (int y = 0; y < size[1]; y++) {
                for (int x = 0; x < size[0]; x++) {
                    inside.set(x, y, mask.get(x, y) * 255);
                }
            }
            for (boolean erode : new boolean[] {true, false}) {
                GrayU8 expected = erode ? BinaryImageOps.erode8(mask, 1, null) : BinaryImageOps.dilate8(mask, 1, null);
                GrayU8 got = erode ? MaskMorphology.erode8(inside, outInside) : MaskMorphology.dilate8(inside, outInside);
                assertThat(got).isSameAs(outInside);
                for (int y = 0; y < outFrame.height; y++) {
                    for (int x = 0; x < outFrame.width; x++) {
                        boolean in = x >= 3 && x < 3 + size[0] && y >= 1 && y < 1 + size[1];
                        assertThat(outFrame.get(x, y)).as("%s %d x %d at (%d, %d)", erode ? "erosion" : "dilation",
                                size[0], size[1], x, y).isEqualTo(in ? expected.get(x - 3, y - 1) : 7);
                    }
                }
            }
        }
    }

    private static GrayU8 noise(int[] size, double density, Random random) {
        GrayU8 mask = new GrayU8(size[0], size[1]);
        for (int i = 0; i < mask.data.length; i++) {
            mask.data[i] = (byte) (random.nextDouble() < density ? 1 : 0);
        }
        return mask;
    }

    /** Rectangles of ones (a density's worth of the area, roughly), some reaching the image's edges. */
    private static GrayU8 blobs(int[] size, double density, Random random) {
        GrayU8 mask = new GrayU8(size[0], size[1]);
        for (int k = 0; k < 1 + (int) (density * 20); k++) {
            int x0 = random.nextInt(size[0]);
            int y0 = random.nextInt(size[1]);
            int x1 = Math.min(size[0], x0 + 1 + random.nextInt(Math.max(1, size[0] / 2)));
            int y1 = Math.min(size[1], y0 + 1 + random.nextInt(Math.max(1, size[1] / 2)));
            for (int y = y0; y < y1; y++) {
                for (int x = x0; x < x1; x++) {
                    mask.set(x, y, 1);
                }
            }
        }
        return mask;
    }

    private static int sum(GrayU8 mask) {
        int sum = 0;
        for (byte b : mask.data) {
            sum += b;
        }
        return sum;
    }
}
