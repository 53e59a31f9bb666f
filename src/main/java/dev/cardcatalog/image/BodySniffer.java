package dev.cardcatalog.image;

import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Names what an image body holds from its first bytes (its "magic bytes"), so that a refused body is described by
 * what was received rather than by a guess: "HTML", "a WebP image", "an AVIF image". The signatures are those of
 * the WHATWG MIME Sniffing standard (§6.1 images, §7.1 HTML) and of the ISO base media file format's {@code ftyp}
 * box (ISO/IEC 14496-12 §4.3) for AVIF and HEIF.
 *
 * <p>Only the first 1,024 bytes are read. The answer is one of a fixed set of phrases: nothing of the body itself
 * is echoed.
 */
public final class BodySniffer {

    private static final int LOOK = 1024;

    private BodySniffer() {
    }

    /**
     * What {@code body} is and its size, for a failure reason: for example {@code "HTML, 1532 bytes"} or
     * {@code "an empty body (0 bytes)"}.
     */
    public static String describe(byte[] body) {
        if (body == null || body.length == 0) {
            return "an empty body (0 bytes)";
        }
        return type(body) + ", " + body.length + (body.length == 1 ? " byte" : " bytes");
    }

    /** What {@code body} is, as a phrase; "unrecognised binary data" when no signature matches. */
    static String type(byte[] b) {
        if (starts(b, 0, 0xFF, 0xD8, 0xFF)) {
            return "a JPEG image";
        }
        if (starts(b, 0, 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A)) {
            return "a PNG image";
        }
        if (starts(b, 0, 'R', 'I', 'F', 'F') && starts(b, 8, 'W', 'E', 'B', 'P')) {
            return "a WebP image";
        }
        if (starts(b, 4, 'f', 't', 'y', 'p')) {
            return isoMedia(b);
        }
        if (starts(b, 0, 'G', 'I', 'F', '8', '7', 'a') || starts(b, 0, 'G', 'I', 'F', '8', '9', 'a')) {
            return "a GIF image";
        }
        if (starts(b, 0, 'B', 'M')) {
            return "a BMP image";
        }
        if (starts(b, 0, 'I', 'I', 42, 0) || starts(b, 0, 'M', 'M', 0, 42)) {
            return "a TIFF image";
        }
        if (starts(b, 0, 0xFF, 0x0A) || starts(b, 0, 0, 0, 0, 0x0C, 'J', 'X', 'L', ' ')) {
            return "a JPEG XL image";
        }
        if (starts(b, 0, 0, 0, 0, 0x0C, 'j', 'P', ' ', ' ') || starts(b, 0, 0xFF, 0x4F, 0xFF, 0x51)) {
            return "a JPEG 2000 image";
        }
        if (starts(b, 0, 0, 0, 1, 0)) {
            return "an ICO image";
        }
        if (starts(b, 0, '%', 'P', 'D', 'F', '-')) {
            return "a PDF document";
        }
        if (starts(b, 0, 0x1F, 0x8B)) {
            return "gzip data";
        }
        if (starts(b, 0, 'P', 'K', 3, 4)) {
            return "a ZIP archive";
        }
        return text(b);
    }

    /** An ISO base media file by its major and compatible brands: AVIF, HEIF, or another (MP4, QuickTime). */
    private static String isoMedia(byte[] b) {
        int boxSize = (int) Math.min(Math.min(b.length, LOOK), ((b[0] & 0xFFL) << 24) | ((b[1] & 0xFFL) << 16)
                | ((b[2] & 0xFFL) << 8) | (b[3] & 0xFFL));
        boolean heif = false;
        // major brand at 8, minor version at 12, compatible brands from 16
        for (int at = 8; at + 4 <= Math.min(b.length, Math.max(boxSize, 12)); at += at == 8 ? 8 : 4) {
            String brand = new String(b, at, 4, StandardCharsets.ISO_8859_1);
            if (brand.equals("avif") || brand.equals("avis")) {
                return "an AVIF image";
            }
            heif |= brand.equals("heic") || brand.equals("heix") || brand.equals("heim") || brand.equals("heis")
                    || brand.equals("hevc") || brand.equals("hevx") || brand.equals("mif1") || brand.equals("msf1");
        }
        return heif ? "a HEIF image" : "an ISO media file (MP4 or QuickTime)";
    }

    /** Markup, JSON or other text by its first non-blank characters; else binary data. */
    private static String text(byte[] b) {
        int end = Math.min(b.length, LOOK);
        int at = starts(b, 0, 0xEF, 0xBB, 0xBF) ? 3 : 0;
        while (at < end && (b[at] == ' ' || b[at] == '\t' || b[at] == '\r' || b[at] == '\n' || b[at] == '\f')) {
            at++;
        }
        for (int k = at; k < end; k++) {
            int c = b[k] & 0xFF;
            if (c < 0x20 && c != '\t' && c != '\r' && c != '\n' && c != '\f') {
                return "unrecognised binary data";
            }
        }
        if (at == end) {
            return "blank text";
        }
        String head = new String(b, at, end - at, StandardCharsets.ISO_8859_1).toLowerCase(Locale.ROOT);
        if (head.startsWith("<!doctype html") || head.startsWith("<html") || head.startsWith("<head")
                || head.startsWith("<body") || head.startsWith("<!--") && head.contains("<html")) {
            return "HTML";
        }
        if (head.startsWith("<svg") || head.startsWith("<?xml") && head.contains("<svg")) {
            return "an SVG image";
        }
        if (head.startsWith("<?xml")) {
            return "XML";
        }
        if (head.startsWith("<")) {
            return head.contains("<html") || head.contains("<body") || head.contains("<div")
                    || head.contains("<p>") ? "HTML" : "markup (HTML or XML)";
        }
        if (head.startsWith("{") || head.startsWith("[")) {
            return "JSON";
        }
        return "text";
    }

    private static boolean starts(byte[] b, int at, int... signature) {
        if (b.length < at + signature.length) {
            return false;
        }
        for (int k = 0; k < signature.length; k++) {
            if ((b[at + k] & 0xFF) != signature[k]) {
                return false;
            }
        }
        return true;
    }
}
