package dev.cardcatalog.testing;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * Files made to hurt a decoder (issue 23): what an attacker sends to the public match endpoint, generated here
 * from the JDK's own writers and by hand, so that the suite downloads nothing and runs no external tool. Each is
 * small enough to pass the body limit; each costs a decoder far more than its bytes unless it is refused first.
 *
 * <p>Every method is deterministic. The large pictures behind some of them are made once per JVM and kept.
 */
public final class HostileImages {

    private static volatile byte[] progressive4096;
    private static final java.util.Map<List<Integer>, byte[]> FLAT_PNGS =
            new java.util.concurrent.ConcurrentHashMap<>();

    private HostileImages() {
    }

    /**
     * One file of the hostile corpus.
     *
     * @param name        what it is, for reports
     * @param contentType how it is sent
     * @param body        its bytes
     * @param refusedAs   the problem type it is always refused with from its markers (400), before any decoding;
     *                    null for a file that is decoded (answered 200, 400 {@code invalid-image} or 422
     *                    {@code upload-too-costly} past its deadline, by its damage and the machine's speed)
     */
    public record Sample(String name, String contentType, byte[] body, String refusedAs) {
    }

    /**
     * The hostile corpus of issue 23: the scan flood and the rest of its class (more scans than a camera
     * writes in a large frame, segment and table floods, PNG chunk floods, arithmetic and lossless frames, huge
     * declared sizes, a progressive frame whose coefficients alone are 120 MB, 16-bit PNGs at the side cap, a
     * truncated file, flipped bits in a baseline and in a large progressive photo). Each is at most about 1 MB.
     * Made in a few seconds; call it once.
     */
    public static List<Sample> corpus() {
        byte[] crop = CaptureSimulator.captureJpeg(21, 22);
        byte[] large = CaptureSimulator.captureJpeg(23, 24, CaptureSimulator.Severity.REALISTIC, 1024);
        byte[] twelveMegapixels = TestImageFiles.progressiveJpeg(CardArtGenerator.card(25).render(3000, 4000, 1),
                0.8f);
        List<Sample> corpus = new ArrayList<>();
        corpus.add(new Sample("scan flood (20,000 scans)", "image/jpeg", scanFlood(20_000), "too-many-scans"));
        corpus.add(new Sample("100 scans of 4,096 x 4,096", "image/jpeg", scanFlood(100), "too-much-work"));
        corpus.add(new Sample("200,000 empty APP1", "image/jpeg", app1Flood(200_000), "too-many-segments"));
        corpus.add(new Sample("tables sent 200 times", "image/jpeg", tableFlood(200), "too-many-segments"));
        corpus.add(new Sample("arithmetic progressive 8,192", "image/jpeg",
                declaredFrame(0xCA, 8192, 8192, 10, 0x11, 0x11, 0x11), "arithmetic-coding"));
        corpus.add(new Sample("lossless 1,024 wide", "image/jpeg", withFrameMarker(large, 0xC3), "invalid-image"));
        corpus.add(new Sample("declares 65,535 x 65,535", "image/jpeg", withDeclaredSize(crop, 65_535, 65_535),
                "invalid-image"));
        corpus.add(new Sample("progressive 4:4:4 5,000 x 4,000", "image/jpeg",
                declaredFrame(0xC2, 5000, 4000, 3, 0x11, 0x11, 0x11), "too-much-memory"));
        corpus.add(new Sample("PNG 16-bit RGBA 8,192", "image/png", flatPng(8192, 8192, 16, 6), "too-much-work"));
        corpus.add(new Sample("PNG 16-bit RGB 8,192", "image/png", flatPng(8192, 8192, 16, 2), null));
        corpus.add(new Sample("PNG 16-bit grey 8,192", "image/png", flatPng(8192, 8192, 16, 0), null));
        corpus.add(new Sample("PNG 2,000 text chunks", "image/png", withChunks(flatPng(64, 64, 8, 2),
                chunk("tEXt", "k\0v".getBytes(StandardCharsets.US_ASCII)), 2_000), "too-many-segments"));
        corpus.add(new Sample("JPEG cut in half", "image/jpeg", truncated(large, large.length / 2), "invalid-image"));
        corpus.add(new Sample("JPEG bits flipped", "image/jpeg", bitFlipped(large, firstScanData(large), 6, 7),
                null));
        corpus.add(new Sample("12 MP progressive bits flipped", "image/jpeg",
                bitFlipped(twelveMegapixels, firstScanData(twelveMegapixels), 4, 3), null));
        return corpus;
    }

    /** One marker segment or scan of a JPEG: its bytes {@code start} to {@code end} (exclusive). */
    public record Part(int marker, int start, int end) {
        int length() {
            return end - start;
        }
    }

    /**
     * The scan flood: a progressive 4,096 × 4,096 colour JPEG (a smooth gradient, as the JDK's writer makes
     * it: 10 scans, 4:2:0) whose smallest scan of the full-size (luma) component is repeated until the file has
     * {@code scans} scans. With 20,000 it is about 800 KB; libjpeg-turbo's {@code djpeg} spends about 3 ms of CPU on
     * each copy (it warns of an inconsistent progression and goes on), about a minute in all.
     */
    public static byte[] scanFlood(int scans) {
        return repeatSmallestScan(progressive4096(), scans);
    }

    /**
     * {@code jpeg} (progressive) with its smallest scan of its first component alone (its SOS segment and
     * entropy-coded data) repeated right after itself until the file has {@code scans} scans. The tables in force
     * stay those the scan was written with, so every copy decodes.
     */
    public static byte[] repeatSmallestScan(byte[] jpeg, int scans) {
        List<Part> parts = parts(jpeg);
        List<Part> sos = parts.stream().filter(p -> p.marker() == 0xDA).toList();
        if (sos.size() > scans) {
            throw new IllegalArgumentException("the file already has " + sos.size() + " scans");
        }
        // one component (Ns = 1), the frame's first (its selector equal to the first of the frame's components)
        Part sof = parts.stream().filter(p -> isFrame(p.marker())).findFirst().orElseThrow();
        int first = jpeg[sof.start() + 10] & 0xFF;
        List<Part> luma = sos.stream()
                .filter(p -> (jpeg[p.start() + 4] & 0xFF) == 1 && (jpeg[p.start() + 5] & 0xFF) == first).toList();
        return repeat(jpeg, sos.size(), luma.isEmpty() ? sos : luma, scans);
    }

    private static byte[] repeat(byte[] jpeg, int present, List<Part> sos, int scans) {
        Part smallest = sos.stream().min((a, b) -> Integer.compare(a.length(), b.length())).orElseThrow();
        ByteArrayOutputStream out = new ByteArrayOutputStream(jpeg.length + smallest.length() * scans);
        out.write(jpeg, 0, smallest.end());
        for (int k = present; k < scans; k++) {
            out.write(jpeg, smallest.start(), smallest.length());
        }
        out.write(jpeg, smallest.end(), jpeg.length - smallest.end());
        return out.toByteArray();
    }

    /** A progressive 4,096 × 4,096 colour JPEG of a smooth gradient (about 20 KB, 10 scans), made once. */
    public static byte[] progressive4096() {
        byte[] made = progressive4096;
        if (made == null) {
            made = TestImageFiles.progressiveJpeg(gradient(4096, 4096), 0.75f);
            progressive4096 = made;
        }
        return made;
    }

    /**
     * A progressive grey JPEG of {@code side} × {@code side} (a gradient; the JDK writer's 6 scans): at 6,000 a side
     * the heaviest kind of upload the default limits admit, its whole coefficient array 72 MB of native memory
     * (its cost estimate about 90 MiB of the 96 MiB an upload may need), decoded by the native decoder.
     */
    public static byte[] greyProgressive(int side) {
        BufferedImage grey = new BufferedImage(side, side, BufferedImage.TYPE_BYTE_GRAY);
        grey.getGraphics().drawImage(gradient(side, side), 0, 0, null);
        return TestImageFiles.progressiveJpeg(grey, 0.75f);
    }

    /** A smooth colour gradient, {@code width} × {@code height}: compresses to almost nothing. */
    public static BufferedImage gradient(int width, int height) {
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        int[] row = new int[width];
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                int r = x * 255 / Math.max(1, width - 1);
                int g = y * 255 / Math.max(1, height - 1);
                row[x] = (r << 16) | (g << 8) | 0x60;
            }
            image.setRGB(0, y, width, 1, row, 0, width);
        }
        return image;
    }

    /** {@code jpeg} with {@code count} copies of {@code segment} inserted after its first segment (APP0). */
    public static byte[] withSegments(byte[] jpeg, byte[] segment, int count) {
        byte[][] copies = new byte[count][];
        Arrays.fill(copies, segment);
        return JpegSegments.afterApp0(jpeg, copies);
    }

    /** The segment flood: {@code count} empty APP1 segments (4 bytes each) in a small baseline JPEG. */
    public static byte[] app1Flood(int count) {
        return withSegments(CardArtGenerator.smallJpeg(1), JpegSegments.segment(0xE1, new byte[0]), count);
    }

    /** {@code count} comment segments of 16 bytes in a small baseline JPEG. */
    public static byte[] commentFlood(int count) {
        return withSegments(CardArtGenerator.smallJpeg(2),
                JpegSegments.segment(0xFE, "0123456789ab".getBytes(StandardCharsets.US_ASCII)), count);
    }

    /**
     * A small baseline JPEG whose quantisation and Huffman tables are each sent {@code count} times over (every
     * copy redefines the same table, so the file stays valid: libjpeg rebuilds the tables each time).
     */
    public static byte[] tableFlood(int count) {
        byte[] jpeg = CardArtGenerator.smallJpeg(3);
        List<Part> parts = parts(jpeg);
        ByteArrayOutputStream tables = new ByteArrayOutputStream();
        for (Part p : parts) {
            if (p.marker() == 0xDB || p.marker() == 0xC4) {
                tables.write(jpeg, p.start(), p.length());
            }
        }
        byte[] one = tables.toByteArray();
        Part sof = parts.stream().filter(p -> p.marker() == 0xC0).findFirst().orElseThrow();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(jpeg, 0, sof.start());
        for (int k = 0; k < count; k++) {
            out.writeBytes(one);
        }
        out.write(jpeg, sof.start(), jpeg.length - sof.start());
        return out.toByteArray();
    }

    /**
     * {@code jpeg} with its frame marker changed to {@code sofMarker} (0xC3 lossless, 0xC9 or 0xCA arithmetic,
     * 0xC5-0xC7 hierarchical), its data left as written: what the frame header declares is what a marker pass sees.
     */
    public static byte[] withFrameMarker(byte[] jpeg, int sofMarker) {
        byte[] out = jpeg.clone();
        Part sof = parts(jpeg).stream().filter(p -> isFrame(p.marker())).findFirst().orElseThrow();
        out[sof.start() + 1] = (byte) sofMarker;
        return out;
    }

    /** {@code jpeg} with a DAC segment (arithmetic conditioning, T.81 B.2.4.3) before its frame. */
    public static byte[] withArithmeticConditioning(byte[] jpeg) {
        Part sof = parts(jpeg).stream().filter(p -> isFrame(p.marker())).findFirst().orElseThrow();
        byte[] dac = JpegSegments.segment(0xCC, new byte[] {0x00, 0x10});
        return JpegSegments.concat(Arrays.copyOfRange(jpeg, 0, sof.start()), dac,
                Arrays.copyOfRange(jpeg, sof.start(), jpeg.length));
    }

    /** {@code jpeg} whose frame header declares {@code width} × {@code height}, its data left as written. */
    public static byte[] withDeclaredSize(byte[] jpeg, int width, int height) {
        byte[] out = jpeg.clone();
        Part sof = parts(jpeg).stream().filter(p -> isFrame(p.marker())).findFirst().orElseThrow();
        out[sof.start() + 5] = (byte) (height >> 8);
        out[sof.start() + 6] = (byte) height;
        out[sof.start() + 7] = (byte) (width >> 8);
        out[sof.start() + 8] = (byte) width;
        return out;
    }

    /**
     * A JPEG of headers only, as a marker walk sees it: SOI, a frame {@code sofMarker} of {@code width} ×
     * {@code height} with one component for each of {@code factors}, sampled as it says (0x11: 1 × 1; 4:2:0 colour
     * is 0x22, 0x11, 0x11), {@code scans} scans of one byte of entropy-coded data, EOI. What it declares is all it
     * costs before it is decoded; a decoder would find its data short.
     */
    public static byte[] declaredFrame(int sofMarker, int width, int height, int scans, int... factors) {
        int components = factors.length;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(new byte[] {(byte) 0xFF, (byte) 0xD8});
        byte[] sof = new byte[6 + 3 * components];
        sof[0] = 8;
        sof[1] = (byte) (height >> 8);
        sof[2] = (byte) height;
        sof[3] = (byte) (width >> 8);
        sof[4] = (byte) width;
        sof[5] = (byte) components;
        for (int c = 0; c < components; c++) {
            sof[6 + 3 * c] = (byte) (c + 1);
            sof[7 + 3 * c] = (byte) factors[c];
        }
        out.writeBytes(JpegSegments.segment(sofMarker, sof));
        for (int k = 0; k < scans; k++) {
            out.writeBytes(JpegSegments.segment(0xDA, new byte[] {1, 1, 0, 0, 63, 0}));
            out.write(0);
        }
        out.writeBytes(new byte[] {(byte) 0xFF, (byte) 0xD9});
        return out.toByteArray();
    }

    /** The first {@code length} bytes of {@code file}. */
    public static byte[] truncated(byte[] file, int length) {
        return Arrays.copyOf(file, length);
    }

    /**
     * {@code file} with {@code flips} bits flipped at positions drawn from {@code seed}, from byte {@code from} on
     * (past the headers, to damage the data, or 2 to damage anything).
     */
    public static byte[] bitFlipped(byte[] file, int from, int flips, long seed) {
        byte[] out = file.clone();
        SplittableRandom random = new SplittableRandom(seed);
        for (int k = 0; k < flips; k++) {
            int at = from + random.nextInt(out.length - from);
            out[at] ^= (byte) (1 << random.nextInt(8));
        }
        return out;
    }

    /** Where the entropy-coded data of {@code jpeg}'s first scan starts. */
    public static int firstScanData(byte[] jpeg) {
        Part sos = parts(jpeg).stream().filter(p -> p.marker() == 0xDA).findFirst().orElseThrow();
        return sos.start() + 2 + (((jpeg[sos.start() + 2] & 0xFF) << 8) | (jpeg[sos.start() + 3] & 0xFF));
    }

    /**
     * The marker segments of {@code jpeg} in order, SOI and EOI excluded; a scan's part runs from its SOS marker
     * to the end of its entropy-coded data.
     */
    public static List<Part> parts(byte[] jpeg) {
        List<Part> parts = new ArrayList<>();
        int pos = 2;
        while (pos + 4 <= jpeg.length) {
            int marker = jpeg[pos + 1] & 0xFF;
            if (marker == 0xD9) {
                break;
            }
            int length = ((jpeg[pos + 2] & 0xFF) << 8) | (jpeg[pos + 3] & 0xFF);
            int end = pos + 2 + length;
            if (marker == 0xDA) {
                while (end + 1 < jpeg.length) {
                    if ((jpeg[end] & 0xFF) == 0xFF) {
                        int next = jpeg[end + 1] & 0xFF;
                        if (next != 0x00 && (next < 0xD0 || next > 0xD7)) {
                            break;
                        }
                    }
                    end++;
                }
            }
            parts.add(new Part(marker, pos, end));
            pos = end;
        }
        return parts;
    }

    private static boolean isFrame(int marker) {
        return marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
    }

    /**
     * A PNG written by hand: {@code width} × {@code height}, {@code bitDepth} bits a sample, PNG colour type
     * {@code colourType} (0 grey, 2 RGB, 4 grey + alpha, 6 RGBA), every row filter 0 and all samples 0, deflated
     * as it is made (a 16-bit RGBA image at the side cap, 8,192 × 8,192, is 512 MiB of samples in about 0.5 MB).
     * Made once per JVM for each size and kind (the caller must not change the array).
     */
    public static byte[] flatPng(int width, int height, int bitDepth, int colourType) {
        return FLAT_PNGS.computeIfAbsent(List.of(width, height, bitDepth, colourType),
                key -> makeFlatPng(width, height, bitDepth, colourType));
    }

    private static byte[] makeFlatPng(int width, int height, int bitDepth, int colourType) {
        int channels = switch (colourType) {
            case 0 -> 1;
            case 2 -> 3;
            case 4 -> 2;
            case 6 -> 4;
            default -> throw new IllegalArgumentException("colour type " + colourType);
        };
        long rowBytes = 1 + ((long) width * channels * bitDepth + 7) / 8;
        byte[] idat = zlibOfZeros(rowBytes * height);
        byte[] ihdr = new byte[13];
        putInt(ihdr, 0, width);
        putInt(ihdr, 4, height);
        ihdr[8] = (byte) bitDepth;
        ihdr[9] = (byte) colourType;
        return png(List.of(chunk("IHDR", ihdr), chunk("IDAT", idat), chunk("IEND", new byte[0])));
    }

    /**
     * A zlib stream (RFC 1950) of {@code length} zero bytes, made quickly: after its first mebibytes a deflater's
     * output for another mebibyte of zeros no longer changes (its window holds only zeros), so that output is
     * repeated rather than computed again; the Adler-32 of {@code n} zeros is {@code (n mod 65521) << 16 | 1}.
     */
    static byte[] zlibOfZeros(long length) {
        int chunk = 1 << 20;
        Deflater deflater = new Deflater(Deflater.BEST_COMPRESSION, true);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(0x78);
        out.write(0xDA);
        byte[] zeros = new byte[chunk];
        long left = length;
        byte[] previous = null;
        byte[] steady = null;
        while (left > 0) {
            int n = (int) Math.min(chunk, left);
            left -= n;
            if (steady != null && n == chunk && left > 0) {
                out.writeBytes(steady);
                continue;
            }
            deflater.setInput(zeros, 0, n);
            byte[] piece = drain(deflater, left == 0 ? Deflater.FULL_FLUSH : Deflater.SYNC_FLUSH, left == 0);
            out.writeBytes(piece);
            if (steady == null && previous != null && Arrays.equals(previous, piece)) {
                steady = piece;
            }
            previous = piece;
        }
        deflater.end();
        long adler = ((length % 65521) << 16) | 1;
        out.write((int) (adler >>> 24));
        out.write((int) (adler >>> 16));
        out.write((int) (adler >>> 8));
        out.write((int) adler);
        return out.toByteArray();
    }

    private static byte[] drain(Deflater deflater, int flush, boolean finish) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[1 << 16];
        if (finish) {
            deflater.finish();
            while (!deflater.finished()) {
                out.write(buffer, 0, deflater.deflate(buffer));
            }
            return out.toByteArray();
        }
        int n;
        do {
            n = deflater.deflate(buffer, 0, buffer.length, flush);
            out.write(buffer, 0, n);
        } while (n == buffer.length || !deflater.needsInput());
        return out.toByteArray();
    }

    /** {@code png} with {@code count} copies of {@code chunk} inserted after its IHDR chunk. */
    public static byte[] withChunks(byte[] png, byte[] chunk, int count) {
        int afterIhdr = 8 + 4 + 4 + 13 + 4;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(png, 0, afterIhdr);
        for (int k = 0; k < count; k++) {
            out.writeBytes(chunk);
        }
        out.write(png, afterIhdr, png.length - afterIhdr);
        return out.toByteArray();
    }

    /** {@code png} whose IHDR declares {@code width} × {@code height} (its CRC made right again). */
    public static byte[] pngWithDeclaredSize(byte[] png, int width, int height) {
        byte[] out = png.clone();
        putInt(out, 16, width);
        putInt(out, 20, height);
        CRC32 crc = new CRC32();
        crc.update(out, 12, 4 + 13);
        putInt(out, 29, (int) crc.getValue());
        return out;
    }

    /** A PNG chunk: length, type, data, CRC over type and data. */
    public static byte[] chunk(String type, byte[] data) {
        byte[] out = new byte[12 + data.length];
        putInt(out, 0, data.length);
        byte[] name = type.getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(name, 0, out, 4, 4);
        System.arraycopy(data, 0, out, 8, data.length);
        CRC32 crc = new CRC32();
        crc.update(out, 4, 4 + data.length);
        putInt(out, 8 + data.length, (int) crc.getValue());
        return out;
    }

    private static byte[] png(List<byte[]> chunks) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(new byte[] {(byte) 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A});
        chunks.forEach(out::writeBytes);
        return out.toByteArray();
    }

    private static void putInt(byte[] b, int at, int value) {
        b[at] = (byte) (value >>> 24);
        b[at + 1] = (byte) (value >>> 16);
        b[at + 2] = (byte) (value >>> 8);
        b[at + 3] = (byte) value;
    }
}
