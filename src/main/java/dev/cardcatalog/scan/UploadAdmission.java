package dev.cardcatalog.scan;

import dev.cardcatalog.image.BodySniffer;
import dev.cardcatalog.image.ImageDecodeException;
import dev.cardcatalog.image.JpegStructure;
import dev.cardcatalog.image.PngStructure;
import dev.cardcatalog.platform.Problem;
import dev.cardcatalog.platform.ProblemException;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Admits an upload to decoding from one cheap pass over its markers (SERVICE.md §7), before it
 * takes a decoding turn: what no camera writes is refused 400 problem+json, and what is admitted comes with its
 * {@link UploadCost}, which picks its turn pool and the memory it reserves.
 *
 * <p>Refusals, in the order they are checked (each with {@code field: "body"}; those of a configured limit also with
 * {@code limit}, and the key named in the detail):
 * <ul>
 *   <li>{@code too-many-scans}: a JPEG with more scans than {@code card-catalog.art.upload-max-scans};</li>
 *   <li>{@code too-many-segments}: a JPEG with more marker segments besides its scans, or a PNG with more chunks,
 *       than {@code card-catalog.art.upload-max-segments};</li>
 *   <li>{@code invalid-image}: what the walk finds broken (no frame header, a damaged marker, no end-of-image
 *       marker, a PNG that does not start with IHDR), a declared size over the decoder's (8,192 a side,
 *       8,192 × 8,192 in all), or a lossless or hierarchical JPEG over 1,024 pixels a side, as the decoder itself
 *       would refuse it ({@link dev.cardcatalog.image.ImageDecoder#checkJpeg});</li>
 *   <li>{@code arithmetic-coding}: an arithmetic-coded JPEG (SOF9-SOF11, SOF13-SOF15, or a DAC segment);</li>
 *   <li>{@code too-much-work}: declared work ({@link UploadLimits#maxWork()}) over
 *       {@code card-catalog.art.upload-max-work}, with {@code declared};</li>
 *   <li>{@code too-much-memory}: an estimate ({@link UploadCost}) over {@code card-catalog.art.upload-max-memory},
 *       with {@code declared} in bytes.</li>
 * </ul>
 * Anything that is neither a JPEG nor a PNG is admitted as cheap and refused by the decoder from its first bytes.
 *
 * <p>Metrics: {@code art.matches.too.costly} (counter, tag {@code type}: the five types above but
 * {@code invalid-image}, and {@code upload-too-costly} for uploads past their deadline, {@link #counted}), every
 * value registered at 0 from the start. Immutable and thread-safe.
 */
public final class UploadAdmission {

    /** The {@code type}s of {@code art.matches.too.costly}, all registered at start. */
    public static final List<String> COSTLY_TYPES = List.of("too-many-scans", "too-many-segments",
            "arithmetic-coding", "too-much-work", "too-much-memory", "upload-too-costly");

    private final UploadLimits limits;
    private final long cheapWork;
    private final long cheapBytes;
    private final UploadDecoder decoder;
    private final Map<String, Counter> refused = new LinkedHashMap<>();

    /**
     * @param limits     what an upload may declare
     * @param cheapWork  the most samples the decoding of a cheap upload computes ({@link UploadDecoder#decodedWork})
     * @param cheapBytes the largest body of a cheap upload
     * @param decoder    the decoder the upload goes to: its size limits and the sizes it decodes to
     */
    public UploadAdmission(UploadLimits limits, long cheapWork, long cheapBytes, UploadDecoder decoder,
            MeterRegistry metrics) {
        this.limits = limits;
        this.cheapWork = cheapWork;
        this.cheapBytes = cheapBytes;
        this.decoder = decoder;
        for (String type : COSTLY_TYPES) {
            refused.put(type, Counter.builder("art.matches.too.costly").tag("type", type)
                    .description("Photo uploads refused as too costly: from their markers before decoding (400), or "
                            + "past their deadline (422 upload-too-costly)")
                    .register(metrics));
        }
    }

    /**
     * The cost of {@code body}, or its refusal.
     *
     * @param body the whole upload, not empty
     * @throws ProblemException 400 with one of the types of the class comment
     */
    public UploadCost admit(byte[] body) {
        if (isJpeg(body)) {
            return admitJpeg(body);
        }
        if (isPng(body)) {
            return admitPng(body);
        }
        return UploadCost.other(body);
    }

    private UploadCost admitJpeg(byte[] body) {
        JpegStructure jpeg;
        try {
            jpeg = JpegStructure.scan(body, limits.maxSegments(), limits.maxScans());
            decoder.checkJpeg(jpeg);
        } catch (ImageDecodeException e) {
            throw walkRefusal(e, body, "JPEG");
        }
        if (jpeg.arithmetic()) {
            throw refuse("arithmetic-coding", "Arithmetic coding", String.format(Locale.ROOT,
                    "The JPEG is arithmetic-coded (%s), which no camera writes: send it Huffman-coded, as "
                            + "cameras and encoders write JPEGs (received %s).",
                    jpeg.frame() >= 0xC9 && jpeg.frame() != 0xCC ? "SOF" + (jpeg.frame() - 0xC0)
                            : "a DAC segment", BodySniffer.describe(body)), null, null);
        }
        long memory = UploadCost.jpegMemory(jpeg, body.length, decoder.maxDecodedSide(), decoder.scaledFloor());
        check(jpeg.declaredWork(), memory, body, String.format(Locale.ROOT, "%,d x %,d pixels x %d components x "
                + "%,d scans", jpeg.width(), jpeg.height(), jpeg.components(), jpeg.scans()));
        // a single-scan JPEG read scaled costs the samples of its scaled decodes, not those it declares
        boolean expensive = jpeg.multiScan() || decoder.decodedWork(body, jpeg) > cheapWork
                || body.length > cheapBytes;
        return new UploadCost("jpeg", jpeg.declaredWork(), memory, expensive, jpeg);
    }

    private UploadCost admitPng(byte[] body) {
        PngStructure png;
        try {
            png = PngStructure.scan(body, limits.maxSegments());
            decoder.checkDimensions(png.width(), png.height());
        } catch (ImageDecodeException e) {
            throw walkRefusal(e, body, "PNG");
        }
        long memory = UploadCost.pngMemory(png, body.length, decoder.maxDecodedSide());
        check(png.declaredWork(), memory, body, String.format(Locale.ROOT, "%,d x %,d pixels x %d channels of %d "
                + "bits", png.width(), png.height(), png.channels(), png.bitDepth()));
        boolean expensive = png.declaredWork() > cheapWork || body.length > cheapBytes;
        return new UploadCost("png", png.declaredWork(), memory, expensive, null);
    }

    private void check(long work, long memory, byte[] body, String declared) {
        if (work > limits.maxWork()) {
            throw refuse("too-much-work", "Too much work", String.format(Locale.ROOT,
                    "The image declares %s, %,d in all, over the %,d an upload may declare "
                            + "(card-catalog.art.upload-max-work); received %s.",
                    declared, work, limits.maxWork(), BodySniffer.describe(body)), limits.maxWork(), work);
        }
        if (memory > limits.maxMemoryBytes()) {
            throw refuse("too-much-memory", "Too much memory", String.format(Locale.ROOT,
                    "Decoding the image (%s) would need about %,d bytes of memory, over the %,d an upload may "
                            + "need (card-catalog.art.upload-max-memory); received %s.",
                    declared, memory, limits.maxMemoryBytes(), BodySniffer.describe(body)),
                    limits.maxMemoryBytes(), memory);
        }
    }

    private ProblemException walkRefusal(ImageDecodeException e, byte[] body, String format) {
        return switch (e.kind()) {
            case TOO_MANY_SCANS -> refuse("too-many-scans", "Too many scans", "The " + format + " was refused "
                    + "before decoding: " + e.getMessage() + ", over card-catalog.art.upload-max-scans; received "
                    + BodySniffer.describe(body) + ".", (long) limits.maxScans(), null);
            case TOO_MANY_SEGMENTS -> refuse("too-many-segments", "Too many segments", "The " + format
                    + " was refused before decoding: " + e.getMessage() + ", over card-catalog.art.upload-max-segments;"
                    + " received " + BodySniffer.describe(body) + ".", (long) limits.maxSegments(), null);
            default -> invalidImage(e.getMessage(), body);
        };
    }

    private ProblemException refuse(String type, String title, String detail, Long limit, Long declared) {
        refused.get(type).increment();
        Problem problem = Problem.of(type, title, 400, detail).with("field", "body");
        if (limit != null) {
            problem = problem.with("limit", limit);
        }
        if (declared != null) {
            problem = problem.with("declared", declared);
        }
        return new ProblemException(problem);
    }

    /** The 400 {@code invalid-image} the match answers for a body the decoder refuses, with the same wording. */
    static ProblemException invalidImage(String reason, byte[] body) {
        return new ProblemException(Problem.of("invalid-image", "Not an image", 400,
                "The body is not a JPEG or PNG image that can be read: " + reason + " (received "
                        + BodySniffer.describe(body) + ")").with("field", "body"));
    }

    /**
     * Runs an admitted upload's work, counting an answer of 422 {@code upload-too-costly} (its deadline passed).
     *
     * @return what {@code work} returns
     */
    public <T> T counted(Supplier<T> work) {
        try {
            return work.get();
        } catch (ProblemException e) {
            if (e.problem().type().equals(Problem.TYPE_BASE + "upload-too-costly")) {
                refused.get("upload-too-costly").increment();
            }
            throw e;
        }
    }

    private static boolean isJpeg(byte[] b) {
        return b.length >= 3 && (b[0] & 0xFF) == 0xFF && (b[1] & 0xFF) == 0xD8 && (b[2] & 0xFF) == 0xFF;
    }

    private static boolean isPng(byte[] b) {
        return b.length >= 8 && (b[0] & 0xFF) == 0x89 && b[1] == 'P' && b[2] == 'N' && b[3] == 'G'
                && b[4] == 0x0D && b[5] == 0x0A && b[6] == 0x1A && b[7] == 0x0A;
    }
}
