package dev.cardcatalog.testing;

import java.awt.image.BufferedImage;
import java.awt.image.Raster;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;
import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;
import javax.imageio.stream.ImageOutputStream;

/**
 * Writes test images as JPEG and PNG bytes with the JDK's own ImageIO writers, deterministically (no metadata that
 * depends on time or machine).
 */
public final class TestImageFiles {

    private TestImageFiles() {
    }

    /** A baseline JPEG (JFIF, 4:2:0 for colour images) at {@code quality} 0–1. */
    public static byte[] jpeg(BufferedImage image, float quality) {
        return writeJpeg(new IIOImage(image, null, null), quality, false);
    }

    /** A progressive JPEG at {@code quality} 0–1. */
    public static byte[] progressiveJpeg(BufferedImage image, float quality) {
        return writeJpeg(new IIOImage(image, null, null), quality, true);
    }

    /**
     * A four-component JPEG as Photoshop writes CMYK: an Adobe APP14 segment with {@code transform} 0 (CMYK, stored
     * inverted) or 2 (YCCK), followed by the JDK writer's frame of the raw 4-band {@code raster}. The caller fills
     * the raster with the stored values (see the tests for the Adobe conventions).
     */
    public static byte[] adobeFourComponentJpeg(Raster raster, int transform, float quality) {
        byte[] plain = writeJpeg(new IIOImage(raster, null, null), quality, false);
        byte[] app14 = {(byte) 0xFF, (byte) 0xEE, 0, 14, 'A', 'd', 'o', 'b', 'e', 0, 100, 0, 0, 0, 0,
                (byte) transform};
        byte[] out = new byte[plain.length + app14.length];
        System.arraycopy(plain, 0, out, 0, 2);
        System.arraycopy(app14, 0, out, 2, app14.length);
        System.arraycopy(plain, 2, out, 2 + app14.length, plain.length - 2);
        return out;
    }

    /** A PNG of {@code image} (with alpha if the image has it). */
    public static byte[] png(BufferedImage image) {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            if (!ImageIO.write(image, "png", out)) {
                throw new IllegalStateException("no PNG writer");
            }
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] writeJpeg(IIOImage image, float quality, boolean progressive) {
        ImageWriter writer = jdkJpegWriter();
        try {
            ImageWriteParam param = writer.getDefaultWriteParam();
            if (progressive) {
                param.setProgressiveMode(ImageWriteParam.MODE_DEFAULT);
            } else {
                param.setProgressiveMode(ImageWriteParam.MODE_DISABLED);
            }
            param.setCompressionMode(ImageWriteParam.MODE_EXPLICIT);
            param.setCompressionQuality(quality);
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (ImageOutputStream out = ImageIO.createImageOutputStream(bytes)) {
                writer.setOutput(out);
                writer.write(null, image, param);
            }
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            writer.dispose();
        }
    }

    private static ImageWriter jdkJpegWriter() {
        for (Iterator<ImageWriter> writers = ImageIO.getImageWritersByFormatName("jpeg"); writers.hasNext(); ) {
            ImageWriter writer = writers.next();
            if (writer.getClass().getName().startsWith("com.sun.imageio.")) {
                return writer;
            }
            writer.dispose();
        }
        throw new IllegalStateException("the JDK's JPEG writer is missing");
    }
}
