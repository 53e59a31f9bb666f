package dev.cardcatalog.catalog;

import java.nio.charset.StandardCharsets;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4FastDecompressor;

/**
 * The stored form of a card's Scryfall object ({@code card.scryfall}, a {@code bytea}; migration V8): the object's
 * UTF-8 JSON text exactly as the bulk file had it, either as it is (the first byte is <code>{</code>) or
 * compressed: the byte {@code 0x01}, the text's length in bytes as a 4-byte big-endian integer, then one LZ4 block.
 * PostgreSQL never parses it, so it never refuses it (a <code>&#92;u0000</code> escape, a lone surrogate) and spends
 * no time on it. Thread-safe.
 */
final class CardObjects {

    static final byte LZ4 = 0x01;
    private static final int HEADER = 5;
    private static final LZ4Factory FACTORY = LZ4Factory.fastestInstance();
    private static final LZ4Compressor COMPRESSOR = FACTORY.fastCompressor();
    private static final LZ4FastDecompressor DECOMPRESSOR = FACTORY.fastDecompressor();

    private CardObjects() {
    }

    /** The stored form of a JSON text: LZ4 when that is smaller, else the text itself. */
    static byte[] encode(byte[] json) {
        byte[] out = new byte[HEADER + COMPRESSOR.maxCompressedLength(json.length)];
        int length = COMPRESSOR.compress(json, 0, json.length, out, HEADER, out.length - HEADER);
        if (HEADER + length >= json.length) {
            return json;
        }
        out[0] = LZ4;
        out[1] = (byte) (json.length >>> 24);
        out[2] = (byte) (json.length >>> 16);
        out[3] = (byte) (json.length >>> 8);
        out[4] = (byte) json.length;
        return java.util.Arrays.copyOf(out, HEADER + length);
    }

    /** The JSON text's bytes of a stored object. */
    static byte[] decode(byte[] stored) {
        if (stored.length == 0 || stored[0] != LZ4) {
            return stored;
        }
        int length = (stored[1] & 0xff) << 24 | (stored[2] & 0xff) << 16 | (stored[3] & 0xff) << 8
                | (stored[4] & 0xff);
        byte[] json = new byte[length];
        DECOMPRESSOR.decompress(stored, HEADER, json, 0, length);
        return json;
    }

    /**
     * The JSON text of a stored object, as a string. Bytes that are not UTF-8 (the reader let them through in a
     * field the catalog does not map) become U+FFFD, so the text is always valid to embed in an answer.
     */
    static String text(byte[] stored) {
        return new String(decode(stored), StandardCharsets.UTF_8);
    }
}
