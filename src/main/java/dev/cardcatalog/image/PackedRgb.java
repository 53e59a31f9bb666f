package dev.cardcatalog.image;

import java.awt.color.ColorSpace;
import java.awt.image.BufferedImage;
import java.awt.image.ColorModel;
import java.awt.image.ComponentColorModel;
import java.awt.image.DataBufferByte;
import java.awt.image.IndexColorModel;
import java.awt.image.PixelInterleavedSampleModel;
import java.awt.image.Raster;

/**
 * What an ImageIO reader returned, as packed RGB ({@link RgbImage}): the raw samples with no colour management, as
 * ImageMagick's {@code -depth 8 ppm:-} gives them (FINGERPRINT.md §1, §11). Grey is copied to the three channels;
 * 16-bit samples are scaled to 8 bits with rounding; CMYK becomes RGB by ImageMagick's formula
 * {@code R = (255 - C) * (255 - K) / 255}, rounded; alpha is flattened on a white background,
 * {@code out = round((c * a + 255 * (255 - a)) / 255)}.
 */
final class PackedRgb {

    private static final int BACKGROUND = 255;

    private PackedRgb() {
    }

    /**
     * {@code image}'s raw samples as packed RGB.
     *
     * @throws ImageDecodeException {@code CORRUPT} for a colour layout other than grey, RGB or CMYK
     */
    static RgbImage of(BufferedImage image) throws ImageDecodeException {
        final int w = image.getWidth();
        final int h = image.getHeight();
        final int[] out = new int[w * h];
        final Raster raster = image.getRaster();
        final ColorModel cm = image.getColorModel();

        if (cm instanceof ComponentColorModel && !cm.hasAlpha()
                && cm.getColorSpace().getType() == ColorSpace.TYPE_RGB
                && raster.getDataBuffer() instanceof DataBufferByte buffer
                && raster.getSampleModel() instanceof PixelInterleavedSampleModel sm
                && sm.getNumBands() == 3 && buffer.getNumBanks() == 1
                && raster.getSampleModelTranslateX() == 0 && raster.getSampleModelTranslateY() == 0) {
            // The usual JPEG case (TYPE_3BYTE_BGR): read the bytes directly.
            final byte[] data = buffer.getData();
            final int[] offsets = sm.getBandOffsets();
            final int stride = sm.getPixelStride();
            final int scan = sm.getScanlineStride();
            for (int y = 0; y < h; y++) {
                int p = y * scan;
                final int row = y * w;
                for (int x = 0; x < w; x++, p += stride) {
                    out[row + x] = ((data[p + offsets[0]] & 0xFF) << 16) | ((data[p + offsets[1]] & 0xFF) << 8)
                            | (data[p + offsets[2]] & 0xFF);
                }
            }
            return new RgbImage(w, h, out);
        }

        if (cm instanceof IndexColorModel icm) {
            final int[] row = new int[w];
            for (int y = 0; y < h; y++) {
                raster.getSamples(0, y, w, 1, 0, row);
                for (int x = 0; x < w; x++) {
                    int i = row[x];
                    out[y * w + x] = pack(flatten(icm.getRed(i), icm.getAlpha(i), false),
                            flatten(icm.getGreen(i), icm.getAlpha(i), false),
                            flatten(icm.getBlue(i), icm.getAlpha(i), false));
                }
            }
            return new RgbImage(w, h, out);
        }

        final int bands = raster.getNumBands();
        final int colours = cm.getNumColorComponents();
        final boolean alpha = cm.hasAlpha() && bands > colours;
        final boolean premultiplied = cm.isAlphaPremultiplied();
        final int spaceType = cm.getColorSpace().getType();
        final boolean cmyk = spaceType == ColorSpace.TYPE_CMYK && colours == 4;
        if (!(colours == 1 || colours == 3 || cmyk) || bands < colours) {
            throw new ImageDecodeException(ImageDecodeException.Kind.CORRUPT,
                    "unsupported colour layout (" + colours + " colour components)");
        }
        final int[] bits = raster.getSampleModel().getSampleSize();
        final int[] pixels = new int[w * bands];
        for (int y = 0; y < h; y++) {
            raster.getPixels(0, y, w, 1, pixels);
            for (int x = 0; x < w; x++) {
                final int base = x * bands;
                final int a = alpha ? to8(pixels[base + colours], bits[colours]) : 255;
                int r;
                int g;
                int b;
                if (colours == 1) {
                    r = g = b = to8(pixels[base], bits[0]);
                } else if (cmyk) {
                    final int k = 255 - to8(pixels[base + 3], bits[3]);
                    r = (255 - to8(pixels[base], bits[0])) * k;
                    g = (255 - to8(pixels[base + 1], bits[1])) * k;
                    b = (255 - to8(pixels[base + 2], bits[2])) * k;
                    r = (r + 127) / 255;
                    g = (g + 127) / 255;
                    b = (b + 127) / 255;
                } else {
                    r = to8(pixels[base], bits[0]);
                    g = to8(pixels[base + 1], bits[1]);
                    b = to8(pixels[base + 2], bits[2]);
                }
                if (alpha) {
                    r = flatten(r, a, premultiplied);
                    g = flatten(g, a, premultiplied);
                    b = flatten(b, a, premultiplied);
                }
                out[y * w + x] = pack(r, g, b);
            }
        }
        return new RgbImage(w, h, out);
    }

    private static int to8(int sample, int bits) {
        if (bits == 8) {
            return sample;
        }
        final int max = (1 << bits) - 1;
        return (int) ((sample * 255L + max / 2) / max);
    }

    private static int flatten(int c, int a, boolean premultiplied) {
        if (a == 255) {
            return c;
        }
        if (premultiplied) {
            return Math.min(255, c + (BACKGROUND * (255 - a) + 127) / 255);
        }
        return (c * a + BACKGROUND * (255 - a) + 127) / 255;
    }

    private static int pack(int r, int g, int b) {
        return (r << 16) | (g << 8) | b;
    }
}
