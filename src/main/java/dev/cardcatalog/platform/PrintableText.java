package dev.cardcatalog.platform;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Untrusted text made printable and bounded, fit to echo (SERVICE.md §7): anything taken from input (a header, a
 * card field, a URL, a body) passes through here before it reaches a log line, a problem detail or a Kafka header.
 *
 * <p>The result is printable and bounded:
 * <ul>
 *   <li>C0 controls (NUL, ESC, line breaks, ...), DEL and C1 controls become {@code \xNN};</li>
 *   <li>other code points that print nothing or reorder text (format characters such as U+202E or U+200B, line and
 *       paragraph separators, unpaired surrogates, unassigned and private-use code points) become {@code \\u{XXXX}};</li>
 *   <li>bytes that are not UTF-8 become {@code \xNN}, one per byte;</li>
 *   <li>at most {@code max} code points of the input are shown, then {@code …} (a cut never splits an escape).</li>
 * </ul>
 * Letters of every script, digits, punctuation and spaces are kept as they are, backslashes included: so the
 * escaping is idempotent ({@code of(of(x)) == of(x)} up to the cut), and a reason escaped where it quotes input
 * can pass through a second, central escape (an exception's constructor) unchanged. A backslash in the input may
 * therefore read like one of the escapes; it is still printable and harmless.
 */
public final class PrintableText {

    /** The default bound: code points of input shown before the ellipsis. */
    public static final int MAX = 200;

    private static final String ELLIPSIS = "…";

    private PrintableText() {
    }

    /** {@code text} escaped and cut at {@link #MAX} code points; {@code "null"} for null. */
    public static String of(String text) {
        return of(text, MAX);
    }

    /** {@code text} escaped and cut at {@code max} code points of input; {@code "null"} for null. */
    public static String of(String text, int max) {
        if (text == null) {
            return "null";
        }
        StringBuilder shown = new StringBuilder(Math.min(text.length(), max) + 8);
        int count = 0;
        for (int i = 0; i < text.length(); ) {
            if (count == max) {
                return shown.append(ELLIPSIS).toString();
            }
            int c = text.codePointAt(i);
            append(shown, c);
            i += Character.charCount(c);
            count++;
        }
        return shown.toString();
    }

    /** Bytes read as UTF-8 (a byte that is not part of valid UTF-8 becomes {@code \xNN}), escaped, cut at {@link #MAX}. */
    public static String of(byte[] bytes) {
        return of(bytes, MAX);
    }

    /** Bytes read as UTF-8 (a byte that is not part of valid UTF-8 becomes {@code \xNN}), escaped, cut at {@code max}. */
    public static String of(byte[] bytes, int max) {
        if (bytes == null) {
            return "null";
        }
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes, 0, bytes.length);
        CharBuffer out = CharBuffer.allocate(bytes.length + 1);
        StringBuilder shown = new StringBuilder();
        int count = 0;
        while (in.hasRemaining()) {
            CoderResult result = decoder.decode(in, out, true);
            out.flip();
            String decoded = out.toString();
            out.clear();
            for (int i = 0; i < decoded.length(); ) {
                if (count == max) {
                    return shown.append(ELLIPSIS).toString();
                }
                int c = decoded.codePointAt(i);
                append(shown, c);
                i += Character.charCount(c);
                count++;
            }
            if (result.isError()) {
                for (int b = 0; b < result.length(); b++) {
                    if (count == max) {
                        return shown.append(ELLIPSIS).toString();
                    }
                    hex(shown, bytes[in.position()] & 0xFF);
                    in.position(in.position() + 1);
                    count++;
                }
            } else if (result.isUnderflow()) {
                break;
            }
        }
        return shown.toString();
    }

    private static void append(StringBuilder shown, int c) {
        if (c < 0x20 || (c >= 0x7F && c <= 0x9F)) {
            hex(shown, c);
        } else if (printable(c)) {
            shown.appendCodePoint(c);
        } else {
            shown.append("\\u{").append(Integer.toHexString(c).toUpperCase(java.util.Locale.ROOT)).append('}');
        }
    }

    private static boolean printable(int c) {
        return switch (Character.getType(c)) {
            case Character.FORMAT, Character.SURROGATE, Character.PRIVATE_USE, Character.UNASSIGNED,
                    Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR, Character.CONTROL -> false;
            default -> true;
        };
    }

    private static void hex(StringBuilder shown, int value) {
        shown.append("\\x").append(Character.forDigit(value >> 4, 16)).append(Character.forDigit(value & 0xF, 16));
    }
}
