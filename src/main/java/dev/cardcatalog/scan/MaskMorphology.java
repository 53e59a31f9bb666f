package dev.cardcatalog.scan;

import boofcv.struct.image.GrayU8;

/**
 * Erosion and dilation of a binary mask (0 or 1 a pixel) by one pixel in all eight directions, the same masks as
 * BoofCV's {@code BinaryImageOps.erode8} and {@code dilate8} with one pass, bit for bit (MaskMorphologyTest): at the
 * image's edge only the neighbours inside it count. Each is the 3 × 3 window's minimum (erosion) or maximum
 * (dilation), taken as a row of three and then a column of three, for a third of BoofCV's reads of each pixel; the
 * card search runs about twenty of them a photo (docs/benchmarks.md, issue 24).
 */
final class MaskMorphology {

    private MaskMorphology() {
    }

    /**
     * {@code mask} eroded: a pixel is 1 when it and each of its neighbours inside the image are non-zero.
     *
     * @param mask   the mask, 0 or 1 a pixel
     * @param output where the result goes (the same size; not {@code mask}), or null for a new image
     * @return {@code output}, or the new image
     */
    static GrayU8 erode8(GrayU8 mask, GrayU8 output) {
        return apply(mask, output, true);
    }

    /**
     * {@code mask} dilated: a pixel is 1 when it or any of its neighbours inside the image is non-zero.
     *
     * @param mask   the mask, 0 or 1 a pixel
     * @param output where the result goes (the same size; not {@code mask}), or null for a new image
     * @return {@code output}, or the new image
     */
    static GrayU8 dilate8(GrayU8 mask, GrayU8 output) {
        return apply(mask, output, false);
    }

    private static GrayU8 apply(GrayU8 mask, GrayU8 output, boolean erode) {
        int w = mask.width;
        int h = mask.height;
        GrayU8 out = output == null ? new GrayU8(w, h) : output;
        if (out == mask) {
            throw new IllegalArgumentException("the output must be another image than the mask");
        }
        out.reshape(w, h);
        // three rows of the row-wise result, cycled; beyond the image's top and bottom the row itself stands in
        // (neutral for both the minimum and the maximum)
        byte[][] rows = {new byte[w], new byte[w], new byte[w]};
        rowPass(mask, 0, rows[0], erode);
        if (h > 1) {
            rowPass(mask, 1, rows[1], erode);
        }
        for (int y = 0; y < h; y++) {
            if (y > 0 && y + 1 < h) {
                rowPass(mask, y + 1, rows[(y + 1) % 3], erode);
            }
            byte[] here = rows[y % 3];
            byte[] above = y > 0 ? rows[(y + 2) % 3] : here;
            byte[] below = y + 1 < h ? rows[(y + 1) % 3] : here;
            int o = out.startIndex + y * out.stride;
            byte[] d = out.data;
            if (erode) {
                for (int x = 0; x < w; x++) {
                    d[o + x] = (byte) (above[x] & here[x] & below[x]);
                }
            } else {
                for (int x = 0; x < w; x++) {
                    d[o + x] = (byte) (above[x] | here[x] | below[x]);
                }
            }
        }
        return out;
    }

    /** Row {@code y} of {@code mask} eroded or dilated along the row only, as 0 or 1 a pixel. */
    private static void rowPass(GrayU8 mask, int y, byte[] row, boolean erode) {
        int w = mask.width;
        byte[] d = mask.data;
        int i = mask.startIndex + y * mask.stride;
        for (int x = 0; x < w; x++) {
            row[x] = (byte) (d[i + x] != 0 ? 1 : 0);
        }
        if (w == 1) {
            return;
        }
        // beyond either end of the row, the pixel itself stands in
        int previous = row[0];
        int current = row[0];
        if (erode) {
            for (int x = 0; x < w - 1; x++) {
                int next = row[x + 1];
                row[x] = (byte) (previous & current & next);
                previous = current;
                current = next;
            }
            row[w - 1] = (byte) (previous & current);
        } else {
            for (int x = 0; x < w - 1; x++) {
                int next = row[x + 1];
                row[x] = (byte) (previous | current | next);
                previous = current;
                current = next;
            }
            row[w - 1] = (byte) (previous | current);
        }
    }
}
