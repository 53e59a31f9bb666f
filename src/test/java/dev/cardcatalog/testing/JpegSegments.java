package dev.cardcatalog.testing;

import java.awt.color.ICC_Profile;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/** JPEG marker segments for test files made in Java (ITU T.81 Annex B, ICC.1 Annex B.4): built and inserted. */
public final class JpegSegments {

    private static final byte[] ICC_ID = "ICC_PROFILE\0".getBytes(StandardCharsets.US_ASCII);

    private JpegSegments() {
    }

    /** An APP2 ICC_PROFILE segment: the identifier, chunk {@code sequence} of {@code count}, then the data. */
    public static byte[] icc(int sequence, int count, byte[] data) {
        return segment(0xE2, concat(ICC_ID, new byte[] {(byte) sequence, (byte) count}, data));
    }

    /** A marker segment: FF, {@code marker}, the big-endian length (2 + payload), the payload. */
    public static byte[] segment(int marker, byte[] payload) {
        int length = 2 + payload.length;
        return concat(new byte[] {(byte) 0xFF, (byte) marker, (byte) (length >> 8), (byte) length}, payload);
    }

    /** {@code jpeg} with {@code segments} inserted after its JFIF APP0 segment. */
    public static byte[] afterApp0(byte[] jpeg, byte[][] segments) {
        int app0End = 4 + (((jpeg[4] & 0xFF) << 8) | (jpeg[5] & 0xFF));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(jpeg, 0, app0End);
        for (byte[] s : segments) {
            out.writeBytes(s);
        }
        out.write(jpeg, app0End, jpeg.length - app0End);
        return out.toByteArray();
    }

    /** Inserts an APP2 ICC_PROFILE segment after the JFIF APP0 segment. */
    public static byte[] withIccProfile(byte[] jpeg, ICC_Profile profile) {
        byte[] data = profile.getData();
        byte[] id = "ICC_PROFILE\0".getBytes(StandardCharsets.US_ASCII);
        int length = 2 + id.length + 2 + data.length;
        byte[] segment = new byte[2 + length];
        segment[0] = (byte) 0xFF;
        segment[1] = (byte) 0xE2;
        segment[2] = (byte) (length >> 8);
        segment[3] = (byte) length;
        System.arraycopy(id, 0, segment, 4, id.length);
        segment[4 + id.length] = 1;
        segment[5 + id.length] = 1;
        System.arraycopy(data, 0, segment, 6 + id.length, data.length);
        int app0End = 4 + (((jpeg[4] & 0xFF) << 8) | (jpeg[5] & 0xFF));
        byte[] out = new byte[jpeg.length + segment.length];
        System.arraycopy(jpeg, 0, out, 0, app0End);
        System.arraycopy(segment, 0, out, app0End, segment.length);
        System.arraycopy(jpeg, app0End, out, app0End + segment.length, jpeg.length - app0End);
        return out;
    }

    /** The parts one after another. */
    public static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }
}
