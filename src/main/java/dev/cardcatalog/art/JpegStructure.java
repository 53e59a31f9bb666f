package dev.cardcatalog.art;

import java.util.ArrayList;
import java.util.List;

/**
 * What the decoder needs to know of a JPEG before decoding it, from a walk over its marker segments: the frame
 * header's declared size and component count, its marker ({@code frame}, SOF0 to SOF15: 0xC0 to 0xCF), whether
 * an ICC profile is embedded and whether its chunks fit together, where the metadata segments lie, and whether the image ends with an EOI marker (data after EOI,
 * such as a phone's appended trailer, is allowed).
 */
public record JpegStructure(int width, int height, int components, int frame, boolean iccProfile,
        boolean iccConsistent, List<Segment> metadata, boolean complete) {

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

    public static JpegStructure scan(byte[] b) throws ImageDecodeException {
        int width = -1;
        int height = -1;
        int components = -1;
        int frame = -1;
        boolean icc = false;
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
                        metadata, true);
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
                height = ((b[pos + 5] & 0xFF) << 8) | (b[pos + 6] & 0xFF);
                width = ((b[pos + 7] & 0xFF) << 8) | (b[pos + 8] & 0xFF);
                components = b[pos + 9] & 0xFF;
                frame = marker;
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
                // Skip the entropy-coded data: it ends at the first marker other than a stuffed 0xFF00 or
                // a restart marker.
                pos += 2 + length;
                while (pos + 1 < b.length) {
                    if ((b[pos] & 0xFF) == 0xFF) {
                        int next = b[pos + 1] & 0xFF;
                        if (next != 0x00 && next != 0xFF && (next < 0xD0 || next > 0xD7)) {
                            break;
                        }
                    }
                    pos++;
                }
                continue;
            }
            pos += 2 + length;
        }
        if (width < 0) {
            throw new ImageDecodeException(pos + 1 >= b.length ? ImageDecodeException.Kind.TRUNCATED
                    : ImageDecodeException.Kind.CORRUPT, "the JPEG has no frame header");
        }
        return new JpegStructure(width, height, components, frame, icc, iccConsistent(b, metadata), metadata,
                false);
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

    private static boolean isStartOfFrame(int marker) {
        return marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
    }

    private static long readU32(byte[] b, int at) {
        return ((b[at] & 0xFFL) << 24) | ((b[at + 1] & 0xFFL) << 16) | ((b[at + 2] & 0xFFL) << 8) | (b[at + 3] & 0xFFL);
    }
}
