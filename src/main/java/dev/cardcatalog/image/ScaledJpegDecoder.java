package dev.cardcatalog.image;

import org.bytedeco.javacpp.IntPointer;
import org.bytedeco.leptonica.PIX;
import org.bytedeco.leptonica.global.leptonica;
import org.jboss.logging.Logger;

/**
 * Decodes a JPEG scaled down while it is decoded, with libjpeg-turbo's DCT scaling (libjpeg's {@code scale_denom}
 * of 2, 4 or 8): the inverse DCT of each 8 × 8 block is computed at 4 × 4, 2 × 2 or 1 × 1, so a 1/8 pixel is the
 * mean of its 8 × 8 block and a 12-megapixel photo costs its entropy decoding and little else. ImageIO does not
 * expose it (its source subsampling drops pixels after the full-size IDCT).
 *
 * <p>The decoder is Leptonica's {@code pixReadMemJpeg} (Leptonica 1.87.0, with libjpeg-turbo built in, through
 * JavaCPP's {@code org.bytedeco:leptonica} presets and its native libraries for the platform the service is built
 * for). Its defaults are libjpeg's: accurate integer IDCT ({@code JDCT_ISLOW}), fancy upsampling, no colour
 * management, the same colour conversion as the JDK's reader. It aborts on the first libjpeg warning (corrupt or
 * missing data), and then this class answers {@code null}: the caller decodes the file with ImageIO instead, which
 * says why it is refused.
 *
 * <p>JavaCPP extracts the native libraries to its cache directory on first use: {@code ~/.javacpp/cache}, or the
 * system property {@code org.bytedeco.javacpp.cachedir} (the container image sets it to {@code /tmp/javacpp}, since
 * the pod's root file system is read-only). Whether they loaded is decided once per JVM and logged at INFO; when
 * they did not (another platform, no writable cache), {@link #available()} is false and uploads are decoded by
 * ImageIO.
 *
 * <p>Stateless and thread-safe: each call has its own libjpeg decompressor; the native image is freed before the
 * call returns.
 */
public final class ScaledJpegDecoder {

    private static final Logger LOG = Logger.getLogger(ScaledJpegDecoder.class);

    private ScaledJpegDecoder() {
    }

    /** Whether the native decoder loaded on this platform (decided, and logged at INFO, on the first call). */
    public static boolean available() {
        return Native.LOADED;
    }

    /** Why the native decoder did not load, or null when it did. */
    public static String unavailableReason() {
        return Native.REASON;
    }

    /**
     * {@code jpeg} decoded at 1/{@code reduction} of its size in each direction (libjpeg rounds up:
     * {@code ceil(width / reduction)} × {@code ceil(height / reduction)}).
     *
     * @param jpeg      a whole JPEG file with 1 or 3 components (the caller checks it; 4-component files are not
     *                  converted by ImageMagick's formula here, so they must not come here)
     * @param reduction 2, 4 or 8 (1 works too, unscaled)
     * @return the pixels as packed {@code 0xRRGGBB}, or null when the native decoder is not available, reports a
     *         warning or an error, or gives a layout other than 8-bit grey or 24-bit colour: the file is then to be
     *         decoded by ImageIO
     * @throws IllegalArgumentException when {@code reduction} is not 1, 2, 4 or 8
     */
    public static RgbImage decode(byte[] jpeg, int reduction) {
        return decode(jpeg, reduction, 0, 0);
    }

    /**
     * As {@link #decode(byte[], int)}, and null also when the decoded size is not {@code width} × {@code height}
     * (the caller's {@code ceil(side / reduction)} from the frame header): a file whose decoding libjpeg did not
     * scale (a lossless frame is decoded whole whatever the reduction) must not come back at full size, and is
     * dropped before its pixels are copied.
     *
     * @param width  the width expected, in pixels; 0: any
     * @param height the height expected, in pixels; 0: any
     */
    public static RgbImage decode(byte[] jpeg, int reduction, int width, int height) {
        if (reduction != 1 && reduction != 2 && reduction != 4 && reduction != 8) {
            throw new IllegalArgumentException("reduction must be 1, 2, 4 or 8, not " + reduction);
        }
        if (!available()) {
            return null;
        }
        int[] warnings = new int[1];
        // cmapflag 0: no colour quantisation; hint 0: abort at the first warning of bad data
        PIX pix = leptonica.pixReadMemJpeg(jpeg, jpeg.length, 0, reduction, warnings, 0);
        if (pix == null || pix.isNull()) {
            LOG.debugf("the native JPEG decoder refused a %d-byte JPEG; ImageIO reads it", jpeg.length);
            return null;
        }
        try {
            if (warnings[0] != 0) {
                LOG.debugf("the native JPEG decoder warned %d times on a %d-byte JPEG; ImageIO reads it",
                        warnings[0], jpeg.length);
                return null;
            }
            if (width > 0 && (leptonica.pixGetWidth(pix) != width || leptonica.pixGetHeight(pix) != height)) {
                LOG.debugf("the native JPEG decoder gave %dx%d, not the %dx%d asked for; ImageIO reads it",
                        leptonica.pixGetWidth(pix), leptonica.pixGetHeight(pix), width, height);
                return null;
            }
            return toRgb(pix);
        } finally {
            leptonica.pixDestroy(pix);
        }
    }

    /**
     * A Leptonica image to packed RGB. A 32-bit pixel is one word {@code 0xRRGGBBAA} (the alpha byte unused here);
     * an 8-bit row packs four pixels into each word, the first in its most significant byte.
     */
    private static RgbImage toRgb(PIX pix) {
        int w = leptonica.pixGetWidth(pix);
        int h = leptonica.pixGetHeight(pix);
        int depth = leptonica.pixGetDepth(pix);
        int wpl = leptonica.pixGetWpl(pix);
        if ((depth != 32 && depth != 8) || (depth == 32 && wpl != w) || leptonica.pixGetColormap(pix) != null || w < 1
                || h < 1) {
            LOG.debugf("the native JPEG decoder gave a %d-bit image; ImageIO reads it", depth);
            return null;
        }
        IntPointer data = leptonica.pixGetData(pix);
        int[] out = new int[w * h];
        if (depth == 32) {
            // one word a pixel, so a row is exactly its words (wpl == w): read straight into the answer
            data.capacity((long) wpl * h).get(out);
            for (int i = 0; i < out.length; i++) {
                out[i] >>>= 8;
            }
        } else {
            int[] words = new int[wpl * h];
            data.capacity(words.length).get(words);
            for (int y = 0; y < h; y++) {
                int from = y * wpl;
                int row = y * w;
                for (int x = 0; x < w; x++) {
                    int g = (words[from + (x >> 2)] >>> (24 - 8 * (x & 3))) & 0xFF;
                    out[row + x] = (g << 16) | (g << 8) | g;
                }
            }
        }
        return new RgbImage(w, h, out);
    }

    /** Loads the native libraries once (class initialisation is thread-safe) and says which decoder serves. */
    private static final class Native {
        static final boolean LOADED;
        static final String REASON;

        static {
            String reason = null;
            try {
                // loading the class loads libjnileptonica and libleptonica (JavaCPP's Loader, into its cache)
                leptonica.setMsgSeverity(leptonica.L_SEVERITY_NONE);
            } catch (Throwable e) {
                // UnsatisfiedLinkError (no library for this platform, or no writable cache), or its wrapper
                reason = e.toString();
            }
            LOADED = reason == null;
            REASON = reason;
            if (LOADED) {
                LOG.infof("Uploaded JPEGs are decoded scaled by libjpeg-turbo (Leptonica %s, native libraries in %s)",
                        leptonica.getLeptonicaVersion().getString().trim(), cacheDir());
            } else {
                LOG.infof("Uploaded JPEGs are decoded by ImageIO: the native JPEG decoder did not load on %s-%s (%s)",
                        System.getProperty("os.name"), System.getProperty("os.arch"), reason);
            }
        }

        private static String cacheDir() {
            String dir = System.getProperty("org.bytedeco.javacpp.cachedir");
            return dir != null ? dir : System.getProperty("user.home") + "/.javacpp/cache";
        }
    }
}
