package dev.cardcatalog.image;

/**
 * A JPEG decoder an {@link ImageDecoder} tries before its ImageIO readers ({@link ImageDecoder#preferring}): it gets
 * only files that passed the decoder's checks (declared size within the limits, an end-of-image marker, a frame the
 * decoded side allows), and answers their pixels, or null to leave the file to ImageIO.
 *
 * <p>Implementations are thread-safe, as the decoder that calls them is.
 */
@FunctionalInterface
public interface PreferredJpegDecoder {

    /**
     * @param body the whole file
     * @param jpeg its marker walk, with the calling decoder's limits
     * @return the pixels, or null: ImageIO reads the file instead (and says why it is refused, if it is)
     * @throws ImageDecodeException when the file is refused here
     */
    RgbImage decode(byte[] body, JpegStructure jpeg) throws ImageDecodeException;
}
