package dev.cardcatalog.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cardcatalog.image.RgbImage;
import java.awt.image.BufferedImage;
import java.awt.image.Raster;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import javax.imageio.ImageIO;

/** Loads the known-answer vectors copied from shared/data/fingerprint-vectors (see the README there). */
public final class FingerprintVectors {

    public static final String DIR = "/fingerprint-vectors/";

    private FingerprintVectors() {
    }

    public static JsonNode json() {
        try (InputStream in = resource("vectors.json")) {
            return new ObjectMapper().readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static byte[] bytes(String file) {
        try (InputStream in = resource(file)) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The PNG's pixels read straight from its raster (8-bit RGB, no colour conversion). */
    public static RgbImage png(String file) {
        try (InputStream in = resource(file)) {
            BufferedImage img = ImageIO.read(in);
            Raster raster = img.getRaster();
            int w = img.getWidth();
            int h = img.getHeight();
            int[] px = new int[w * h];
            int[] s = new int[raster.getNumBands()];
            for (int y = 0; y < h; y++) {
                for (int x = 0; x < w; x++) {
                    raster.getPixel(x, y, s);
                    px[y * w + x] = (s[0] << 16) | (s[1] << 8) | s[2];
                }
            }
            return new RgbImage(w, h, px);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static InputStream resource(String file) {
        InputStream in = FingerprintVectors.class.getResourceAsStream(DIR + file);
        if (in == null) {
            throw new IllegalStateException("missing test resource " + DIR + file);
        }
        return in;
    }
}
