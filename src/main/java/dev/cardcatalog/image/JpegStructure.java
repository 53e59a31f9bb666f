package dev.cardcatalog.image;

import java.util.ArrayList;
import java.util.List;

/**
 * What the decoder needs to know of a JPEG before decoding it, from one walk over its marker segments (ITU T.81
 * Annex B), the entropy-coded data skipped: the frame header's declared size, sample precision, components and their
 * sampling factors, its marker ({@code frame}, SOF0 to SOF15: 0xC0 to 0xCF), how many scans and other marker segments
 * the file has, whether it is arithmetic-coded, whether an ICC profile is embedded and whether its chunks fit
 * together, where the metadata segments lie, and whether the image ends with an EOI marker (data after EOI, such as
 * a phone's appended trailer or second picture, is allowed and not walked).
 *
 * <p>The walk costs one pass over the bytes and allocates one small object per metadata segment, at most
 * {@code maxSegments} of them: a file with more segments, or more scans than {@code maxScans}, is refused as soon as
 * the walk finds one too many, so that a flood of markers costs no more than the walk up to the limit.
 *
 * @param width          the frame's declared width, in pixels
 * @param height         the frame's declared height, in pixels
 * @param components     the frame's component count (1 grey, 3 YCbCr or RGB, 4 CMYK or YCCK)
 * @param frame          the frame's marker, 0xC0 (baseline) to 0xCF
 * @param iccProfile     whether there is an APP2 ICC_PROFILE chunk
 * @param iccConsistent  whether the ICC chunks fit together (true without any)
 * @param metadata       the metadata segments (APP1-APP15, COM), in file order
 * @param complete       whether an EOI marker ends the image
 * @param precision      the frame's sample precision, in bits (8 for every camera; 12 or 16 exist)
 * @param frameComponents the frame's components with their sampling factors, in frame order
 * @param scans          the SOS segments before EOI: 1 for a baseline file, about 10 for a progressive one
 * @param segments       the marker segments before EOI other than scans (APPn, COM, DQT, DHT, DRI, SOF, DAC and any
 *                       other), and the markers without a length outside the entropy-coded data (RSTn, TEM, a
 *                       repeated SOI)
 * @param arithmetic     whether the file is arithmetic-coded: an SOF9-SOF11 or SOF13-SOF15 frame, or a DAC segment
 * @param closed         whether the file's last two bytes are an EOI marker: a file the walk finds incomplete
 *                       ({@code complete} false) but closed was not cut short, its markers are damaged (a flipped
 *                       bit that makes a marker inside the coded data)
 */
public record JpegStructure(int width, int height, int components, int frame, boolean iccProfile,
        boolean iccConsistent, List<Segment> metadata, boolean complete, int precision,
        List<Component> frameComponents, int scans, int segments, boolean arithmetic, boolean closed) {

    /** The most metadata segments a walk records when the caller sets no lower limit. */
    public static final int MAX_RECORDED_SEGMENTS = 65_536;

    private static final byte[] ICC_ID = {'I', 'C', 'C', '_', 'P', 'R', 'O', 'F', 'I', 'L', 'E', 0};
    private static final byte[] ADOBE_ID = {'A', 'd', 'o', 'b', 'e'};

    /** Bytes of an ICC profile's header (ICC.1:2022 §7.2); the profile's size is its first four bytes. */
    private static final int ICC_HEADER = 128;

    /**
     * A marker segment that carries no pixel data, {@code start} (its 0xFF) to {@code end} (exclusive).
     *
     * @param icc      an APP2 ICC_PROFILE chunk
     * @param optional one the decoder can read the pixels without: APP1–APP13, APP15 (EXIF, XMP, ICC and
     *                 others), a comment, and an APP14 that is not a well-formed Adobe segment. The JFIF APP0
     *                 and a well-formed Adobe APP14 say how to read the colours, so they are kept.
     */
    public record Segment(int start, int end, boolean icc, boolean optional) {
    }

    /**
     * A component of the frame.
     *
     * @param id         its identifier in the frame header
     * @param horizontal its horizontal sampling factor, 1 to 4
     * @param vertical   its vertical sampling factor, 1 to 4
     */
    public record Component(int id, int horizontal, int vertical) {
    }

    /** Whether the frame is progressive (SOF2, SOF6, SOF10, SOF14). */
    public boolean progressive() {
        return frame == 0xC2 || frame == 0xC6 || frame == 0xCA || frame == 0xCE;
    }

    /**
     * Whether a decoder must keep every DCT coefficient of the image until the last scan: a progressive file, or a
     * sequential one in several scans (libjpeg's {@code has_multiple_scans}, which allocates the whole coefficient
     * array, {@link #coefficientBytes()}, whatever the output scaling).
     */
    public boolean multiScan() {
        return progressive() || scans > 1;
    }

    /**
     * The bytes of the whole-image coefficient array libjpeg allocates for a multi-scan file (jdcoefct.c): for each
     * component, its width and height in 8 × 8 blocks ({@code ceil(side × factor / (8 × largest factor))}), each
     * rounded up to a multiple of its sampling factor, times 64 coefficients of 2 bytes. For 4:2:0 colour that is
     * 3 bytes a pixel, for 4:4:4 6, for grey 2. 0 when the frame declares no valid sampling factors.
     */
    public long coefficientBytes() {
        int maxH = 1;
        int maxV = 1;
        for (Component c : frameComponents) {
            maxH = Math.max(maxH, c.horizontal());
            maxV = Math.max(maxV, c.vertical());
        }
        long bytes = 0;
        for (Component c : frameComponents) {
            if (c.horizontal() < 1 || c.vertical() < 1) {
                return 0;
            }
            long blocksWide = ceilDiv((long) width * c.horizontal(), 8L * maxH);
            long blocksHigh = ceilDiv((long) height * c.vertical(), 8L * maxV);
            bytes += roundUp(blocksWide, c.horizontal()) * roundUp(blocksHigh, c.vertical()) * 128L;
        }
        return bytes;
    }

    /**
     * The work the frame declares: width × height × components × scans, the samples a decoder that shows every
     * scan (the JDK's ImageIO reader outputs the whole image after each scan of a progressive file) computes, and
     * an upper bound of what any decoder visits.
     */
    public long declaredWork() {
        return (long) width * height * Math.max(1, components) * Math.max(1, scans);
    }

    /** The largest vertical sampling factor of the frame's components (1 when none is declared). */
    public int maxVerticalSampling() {
        return frameComponents.stream().mapToInt(Component::vertical).max().orElse(1);
    }

    private static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }

    private static long roundUp(long a, long multiple) {
        return ceilDiv(a, multiple) * multiple;
    }

    /** Whether the file has a segment the decoder can do without. */
    public boolean hasOptionalMetadata() {
        return metadata.stream().anyMatch(Segment::optional);
    }

    /** {@code b} without the segments {@code drop} selects. */
    public byte[] without(byte[] b, java.util.function.Predicate<Segment> drop) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(b.length);
        int from = 0;
        for (Segment segment : metadata) {
            if (drop.test(segment)) {
                out.write(b, from, segment.start() - from);
                from = segment.end();
            }
        }
        out.write(b, from, b.length - from);
        return out.toByteArray();
    }

    /**
     * The walk of {@code b} with no limit on scans and at most {@link #MAX_RECORDED_SEGMENTS} segments.
     *
     * @throws ImageDecodeException as {@link #scan(byte[], int, int)}
     */
    public static JpegStructure scan(byte[] b) throws ImageDecodeException {
        return scan(b, MAX_RECORDED_SEGMENTS, Integer.MAX_VALUE);
    }

    /**
     * The walk of {@code b}, a JPEG from its SOI marker on.
     *
     * @param maxSegments the most marker segments other than scans accepted ({@link #segments}), at most
     *                    {@link #MAX_RECORDED_SEGMENTS}
     * @param maxScans    the most scans accepted
     * @throws ImageDecodeException {@code TOO_MANY_SEGMENTS} or {@code TOO_MANY_SCANS} as soon as the walk finds one
     *                              more than accepted; {@code CORRUPT} when a marker before the frame header is
     *                              damaged, a segment length is below 2, or a scan comes before the frame;
     *                              {@code TRUNCATED} or {@code CORRUPT} when there is no frame header
     */
    public static JpegStructure scan(byte[] b, int maxSegments, int maxScans) throws ImageDecodeException {
        if (maxSegments < 0 || maxSegments > MAX_RECORDED_SEGMENTS || maxScans < 0) {
            throw new IllegalArgumentException("segments 0 to " + MAX_RECORDED_SEGMENTS + " and scans 0 or more");
        }
        int width = -1;
        int height = -1;
        int components = -1;
        int frame = -1;
        int precision = -1;
        List<Component> frameComponents = List.of();
        boolean icc = false;
        boolean arithmetic = false;
        int scans = 0;
        int segments = 0;
        List<Segment> metadata = new ArrayList<>();
        int pos = 2;
        while (pos + 1 < b.length) {
            if ((b[pos] & 0xFF) != 0xFF) {
                if (width < 0) {
                    throw new ImageDecodeException(ImageDecodeException.Kind.CORRUPT,
                            "the JPEG has a damaged marker before its frame header");
                }
                pos++; // extraneous bytes between segments: libjpeg skips them with a warning
                continue;
            }
            int marker = b[pos + 1] & 0xFF;
            if (marker == 0xFF) {
                pos++; // fill byte
                continue;
            }
            if (marker == 0xD9) {
                if (width < 0) {
                    break;
                }
                return new JpegStructure(width, height, components, frame, icc, iccConsistent(b, metadata),
                        metadata, true, precision, frameComponents, scans, segments, arithmetic, closed(b));
            }
            if (marker != 0xDA && ++segments > maxSegments) {
                throw tooManySegments(maxSegments);
            }
            if (marker == 0x00 || marker == 0x01 || (marker >= 0xD0 && marker <= 0xD8)) {
                pos += 2; // markers without a length
                continue;
            }
            if (pos + 4 > b.length) {
                break;
            }
            int length = ((b[pos + 2] & 0xFF) << 8) | (b[pos + 3] & 0xFF);
            if (length < 2) {
                throw new ImageDecodeException(ImageDecodeException.Kind.CORRUPT,
                        "the JPEG has a damaged segment length");
            }
            if (isStartOfFrame(marker) && width < 0) {
                if (pos + 10 > b.length) {
                    break;
                }
                precision = b[pos + 4] & 0xFF;
                height = ((b[pos + 5] & 0xFF) << 8) | (b[pos + 6] & 0xFF);
                width = ((b[pos + 7] & 0xFF) << 8) | (b[pos + 8] & 0xFF);
                components = b[pos + 9] & 0xFF;
                frame = marker;
                arithmetic |= marker >= 0xC9 && marker != 0xCC;
                List<Component> declared = new ArrayList<>();
                for (int k = 0; k < components && pos + 12 + 3 * k < b.length && 3 * k + 8 < length; k++) {
                    int factors = b[pos + 11 + 3 * k] & 0xFF;
                    declared.add(new Component(b[pos + 10 + 3 * k] & 0xFF, factors >> 4, factors & 0x0F));
                }
                frameComponents = List.copyOf(declared);
            } else if (marker == 0xCC) {
                arithmetic = true; // DAC: arithmetic conditioning tables
            } else if (marker == 0xE2 && startsWith(b, pos + 4, ICC_ID)) {
                icc = true;
                metadata.add(new Segment(pos, Math.min(b.length, pos + 2 + length), true, true));
            } else if ((marker >= 0xE1 && marker <= 0xEF) || marker == 0xFE) {
                boolean adobe = marker == 0xEE && length >= 14 && startsWith(b, pos + 4, ADOBE_ID)
                        && pos + 15 < b.length && (b[pos + 15] & 0xFF) <= 2;
                metadata.add(new Segment(pos, Math.min(b.length, pos + 2 + length), false, !adobe));
            } else if (marker == 0xDA) {
                if (width < 0) {
                    throw new ImageDecodeException(ImageDecodeException.Kind.CORRUPT,
                            "the JPEG has a scan before its frame header");
                }
                if (++scans > maxScans) {
                    throw new ImageDecodeException(ImageDecodeException.Kind.TOO_MANY_SCANS, String.format(
                            java.util.Locale.ROOT, "the JPEG has more than %,d scans (a camera writes 1 to about 10)",
                            maxScans));
                }
                pos = endOfEntropyCodedData(b, pos + 2 + length);
                continue;
            }
            pos += 2 + length;
        }
        if (width < 0) {
            throw new ImageDecodeException(pos + 1 >= b.length ? ImageDecodeException.Kind.TRUNCATED
                    : ImageDecodeException.Kind.CORRUPT, "the JPEG has no frame header");
        }
        return new JpegStructure(width, height, components, frame, icc, iccConsistent(b, metadata), metadata,
                false, precision, frameComponents, scans, segments, arithmetic, closed(b));
    }

    /** Whether {@code b} ends with an EOI marker, 0xFF 0xD9. */
    private static boolean closed(byte[] b) {
        return b.length >= 4 && (b[b.length - 2] & 0xFF) == 0xFF && (b[b.length - 1] & 0xFF) == 0xD9;
    }

    private static ImageDecodeException tooManySegments(int maxSegments) {
        return new ImageDecodeException(ImageDecodeException.Kind.TOO_MANY_SEGMENTS, String.format(
                java.util.Locale.ROOT, "the JPEG has more than %,d marker segments besides its scans (a phone writes "
                        + "fewer than 30)", maxSegments));
    }

    /**
     * Whether the ICC_PROFILE chunks fit together (ICC.1:2022 Annex B.4): each gives the same chunk count, the
     * sequence numbers are exactly 1 to that count, and the joined profile is at least as long as the size its
     * header declares, with the {@code acsp} signature. True when there is no profile.
     */
    private static boolean iccConsistent(byte[] b, List<Segment> metadata) {
        List<Segment> chunks = metadata.stream().filter(Segment::icc).toList();
        if (chunks.isEmpty()) {
            return true;
        }
        int dataStart = 4 + ICC_ID.length + 2;
        int count = -1;
        Segment[] bySequence = null;
        for (Segment chunk : chunks) {
            if (chunk.end() - chunk.start() < dataStart) {
                return false;
            }
            int sequence = b[chunk.start() + 4 + ICC_ID.length] & 0xFF;
            int chunkCount = b[chunk.start() + 5 + ICC_ID.length] & 0xFF;
            if (count < 0) {
                count = chunkCount;
                bySequence = new Segment[count + 1];
            }
            if (chunkCount != count || count != chunks.size() || sequence < 1 || sequence > count
                    || bySequence[sequence] != null) {
                return false;
            }
            bySequence[sequence] = chunk;
        }
        java.io.ByteArrayOutputStream profile = new java.io.ByteArrayOutputStream();
        for (int k = 1; k <= count; k++) {
            Segment chunk = bySequence[k];
            profile.write(b, chunk.start() + dataStart, chunk.end() - chunk.start() - dataStart);
        }
        byte[] p = profile.toByteArray();
        return p.length >= ICC_HEADER && readU32(p, 0) >= ICC_HEADER && readU32(p, 0) <= p.length
                && p[36] == 'a' && p[37] == 'c' && p[38] == 's' && p[39] == 'p';
    }

    private static boolean startsWith(byte[] b, int at, byte[] prefix) {
        if (at + prefix.length > b.length) {
            return false;
        }
        for (int k = 0; k < prefix.length; k++) {
            if (b[at + k] != prefix[k]) {
                return false;
            }
        }
        return true;
    }

    /**
     * Where the entropy-coded data that starts at {@code from} ends: the position of the first marker other than a
     * stuffed 0xFF00, a fill byte or a restart marker (ITU T.81 B.1.1.5, F.1.2.3); {@code b.length - 1} or more
     * when the file ends first. Eight bytes are looked at a time while none of them is 0xFF, as scan data is
     * almost all of a photo and 0xFF about one byte in 256 of it.
     */
    static int endOfEntropyCodedData(byte[] b, int from) {
        int pos = from;
        while (pos + 1 < b.length) {
            while (pos + 10 <= b.length && !hasFfByte((long) LONGS.get(b, pos))) {
                pos += 8;
            }
            if ((b[pos] & 0xFF) == 0xFF) {
                int next = b[pos + 1] & 0xFF;
                if (next != 0x00 && next != 0xFF && (next < 0xD0 || next > 0xD7)) {
                    break;
                }
            }
            pos++;
        }
        return pos;
    }

    private static final java.lang.invoke.VarHandle LONGS = java.lang.invoke.MethodHandles.byteArrayViewVarHandle(
            long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);

    /** Whether one of the eight bytes of {@code v} is 0xFF: a zero byte of its complement (the classic SWAR test). */
    private static boolean hasFfByte(long v) {
        long x = ~v;
        return ((x - 0x0101010101010101L) & ~x & 0x8080808080808080L) != 0;
    }

    private static boolean isStartOfFrame(int marker) {
        return marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
    }

    private static long readU32(byte[] b, int at) {
        return ((b[at] & 0xFFL) << 24) | ((b[at + 1] & 0xFFL) << 16) | ((b[at + 2] & 0xFFL) << 8) | (b[at + 3] & 0xFFL);
    }
}
