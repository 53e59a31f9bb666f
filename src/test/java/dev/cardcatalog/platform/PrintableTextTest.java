package dev.cardcatalog.platform;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Untrusted text made printable and bounded, one member of each kind of hostile input. */
class PrintableTextTest {

    @Test
    void nulAndOtherC0ControlsBecomeHexEscapes() {
        assertThat(PrintableText.of("a\u0000b\u0001c\td\ne\rf")).isEqualTo("a\\x00b\\x01c\\x09d\\x0ae\\x0df");
    }

    @Test
    void escapeSequencesLoseTheirEscape() {
        assertThat(PrintableText.of("\u001b[2J\u001b]0;title\u0007")).isEqualTo("\\x1b[2J\\x1b]0;title\\x07");
    }

    @Test
    void delAndC1ControlsBecomeHexEscapes() {
        assertThat(PrintableText.of("x\u007fy\u0085z\u009b1m")).isEqualTo("x\\x7fy\\x85z\\x9b1m");
    }

    @Test
    void invisibleAndReorderingCodePointsAreShownByNumber() {
        assertThat(PrintableText.of("ab\u202Edc\u200B\u2028\uD800"))
                .isEqualTo("ab\\u{202E}dc\\u{200B}\\u{2028}\\u{D800}");
    }

    @Test
    void bytesThatAreNotUtf8BecomeOneEscapeEach() {
        byte[] bytes = {'1', (byte) 0xFF, (byte) 0xFE, '2', (byte) 0xC3, (byte) 0xA9, (byte) 0xC3};
        assertThat(PrintableText.of(bytes)).isEqualTo("1\\xff\\xfe2é\\xc3");
        assertThat(PrintableText.of(new byte[] {0, (byte) 0xC2, (byte) 0x85})).isEqualTo("\\x00\\x85");
    }

    @Test
    void longValuesAreCutAtTheBoundWithAnEllipsis() {
        String shown = PrintableText.of("7".repeat(10_000));
        assertThat(shown).hasSize(PrintableText.MAX + 1).endsWith("…");
        assertThat(PrintableText.of("7".repeat(10_000).getBytes(StandardCharsets.UTF_8), 40))
                .isEqualTo("7".repeat(40) + "…");
        assertThat(PrintableText.of("\u0000".repeat(100), 3)).isEqualTo("\\x00\\x00\\x00…");
    }

    @Test
    void printableTextOfAnyScriptIsKeptAndEscapingIsIdempotent() {
        String text = "Æther Vial — 15★ 「真紅」 \\x00";
        assertThat(PrintableText.of(text)).isEqualTo(text);
        String hostile = "a\u0000\u001b[0m\u202E";
        assertThat(PrintableText.of(PrintableText.of(hostile))).isEqualTo(PrintableText.of(hostile));
        assertThat(PrintableText.of((String) null)).isEqualTo("null");
    }
}
