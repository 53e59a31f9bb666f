package dev.cardcatalog.scan;

import dev.cardcatalog.image.JpegStructure;
import dev.cardcatalog.image.PngStructure;

/**
 * What one upload will cost, known from its header before it is decoded (SERVICE.md §7): the work it
 * declares, the memory its decoding and matching will need, heap and native, and whether it is expensive (decoded
 * in the smaller turn pool, {@link MatchLimit}).
 *
 * <p>The memory is an upper bound, added up from what the decoders allocate (bytes):
 * <ul>
 *   <li>a multi-scan JPEG's whole coefficient array, native ({@link JpegStructure#coefficientBytes()}: 2 bytes a
 *       coefficient at full size whatever the output scaling; 3 bytes a pixel for 4:2:0 colour);</li>
 *   <li>libjpeg's row buffers at full width: each component's MCU rows with their context rows (3 × 8 × the
 *       largest vertical sampling factor rows of {@code width × components} bytes) and the JDK reader's
 *       one-row buffers; for a PNG, three rows as stored and the inflater's window;</li>
 *   <li>the decoded pixels, 16 bytes each: the native image, its copy and the packed RGB array (or ImageIO's raster
 *       and the RGB array), and while matching the upright picture and one turned copy; a PNG's raster holds
 *       {@code channels × (1 or 2)} bytes a pixel more;</li>
 *   <li>two copies of the body (the decoder drops metadata segments into a copy) and 256 KiB for the readers'
 *       state and tables.</li>
 * </ul>
 * The body itself is counted by {@code upload-buffer} ({@link MatchUploads}).
 *
 * @param format      {@code "jpeg"}, {@code "png"} or {@code "other"} (left to the decoder, which refuses it)
 * @param work        the declared work ({@link JpegStructure#declaredWork()}, {@link PngStructure#declaredWork()});
 *                    0 for other bodies
 * @param memoryBytes the memory the decode and match may need, bytes
 * @param expensive   whether it is decoded in the expensive uploads' turn pool: a multi-scan JPEG, or a body or
 *                    the samples its decoding computes ({@link UploadDecoder#decodedWork}) over the cheap thresholds
 * @param jpeg        a JPEG's marker walk, made with the upload decoder's limits, for the decode to use rather than
 *                    walk the body again; null for a PNG and anything else
 */
public record UploadCost(String format, long work, long memoryBytes, boolean expensive, JpegStructure jpeg) {

    /** The readers' state, tables and small buffers, bytes. */
    static final long FIXED_BYTES = 256 * 1024;

    /** Bytes a decoded pixel costs: 3 int copies while decoding and 1 more while matching (one at a time). */
    static final long BYTES_PER_DECODED_PIXEL = 16;

    /** The cost of an upload that is neither a JPEG nor a PNG: the decoder refuses it from its first bytes. */
    static UploadCost other(byte[] body) {
        return new UploadCost("other", 0, FIXED_BYTES + body.length, false, null);
    }

    /**
     * The memory a JPEG's decode and match may need.
     *
     * @param jpeg           its marker walk
     * @param bodyBytes      its body's length
     * @param maxDecodedSide the longest side ImageIO decodes to (it subsamples to it)
     * @param scaledFloor    the upload decoder's floor ({@link UploadDecoder#scaledReduction}); 0 when it does not
     *                       scale
     */
    static long jpegMemory(JpegStructure jpeg, long bodyBytes, int maxDecodedSide, int scaledFloor) {
        long width = jpeg.width();
        long height = jpeg.height();
        long components = Math.max(1, jpeg.components());
        long coefficients = jpeg.multiScan() ? jpeg.coefficientBytes() : 0;
        long rows = width * components * 8L * jpeg.maxVerticalSampling() * 3 + width * components * 2;
        int longer = (int) Math.max(width, height);
        long pixels = subsampledPixels(width, height, maxDecodedSide);
        int reduction = UploadDecoder.scaledReduction(longer, scaledFloor);
        if (reduction > 1) {
            pixels = Math.max(pixels, UploadDecoder.scaledPixels(jpeg, reduction));
        }
        return coefficients + rows + pixels * (BYTES_PER_DECODED_PIXEL + components) + 2 * bodyBytes + FIXED_BYTES;
    }

    /** The memory a PNG's decode and match may need (see the class comment). */
    static long pngMemory(PngStructure png, long bodyBytes, int maxDecodedSide) {
        long pixels = subsampledPixels(png.width(), png.height(), maxDecodedSide);
        long raster = png.channels() * (png.bitDepth() == 16 ? 2L : 1L);
        long inflater = 64 * 1024;
        return 3 * png.rowBytes() + inflater + pixels * (BYTES_PER_DECODED_PIXEL + raster) + 2 * bodyBytes
                + FIXED_BYTES;
    }

    /** Pixels ImageIO decodes to: each side divided by the smallest integer that brings the longer within bound. */
    private static long subsampledPixels(long width, long height, int maxDecodedSide) {
        long longer = Math.max(width, height);
        long step = Math.max(1, ceilDiv(longer, maxDecodedSide));
        return ceilDiv(width, step) * ceilDiv(height, step);
    }

    private static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }
}
