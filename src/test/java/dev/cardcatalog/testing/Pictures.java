package dev.cardcatalog.testing;

import dev.cardcatalog.image.RgbImage;
import java.awt.image.BufferedImage;

/** A decoded image ({@link RgbImage}) and a {@link BufferedImage}, one made from the other, pixel for pixel. */
public final class Pictures {

    private Pictures() {
    }

    /** {@code image}'s pixels as {@link BufferedImage#getRGB} gives them (the top byte, alpha, is ignored by readers). */
    public static RgbImage rgb(BufferedImage image) {
        int w = image.getWidth();
        int h = image.getHeight();
        return new RgbImage(w, h, image.getRGB(0, 0, w, h, null, 0, w));
    }

    /** {@code rgb} as an RGB {@link BufferedImage}. */
    public static BufferedImage picture(RgbImage rgb) {
        BufferedImage image = new BufferedImage(rgb.width(), rgb.height(), BufferedImage.TYPE_INT_RGB);
        image.setRGB(0, 0, rgb.width(), rgb.height(), rgb.pixels(), 0, rgb.width());
        return image;
    }
}
