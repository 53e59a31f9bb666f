package dev.cardcatalog.bench;

import dev.cardcatalog.testing.CardArtGenerator;
import dev.cardcatalog.testing.ScryfallStandIn;
import dev.cardcatalog.testing.TestImageFiles;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes the three photos of the HTTP match benchmark ({@code bench/match-http-bench.sh}) for one card of the
 * bundled sample: the Scryfall stand-in's own 146×204 {@code small} JPEG of it ({@code small.jpg}), and the same art
 * drawn at 1,024×1,433 (quality 0.85, {@code 1024.jpg}) and at 3,024×4,032 (quality 0.80, {@code 12mp.jpg}), the
 * size of a 12-megapixel phone photo.
 *
 * <p>Arguments: the output directory and the card id (its front face's art).
 */
public final class MatchPhotos {

    private MatchPhotos() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Files.createDirectories(Path.of(args[0]));
        long seed = ScryfallStandIn.imageSeed(args[1]);
        CardArtGenerator.Card card = CardArtGenerator.card(seed);
        Files.write(dir.resolve("small.jpg"), CardArtGenerator.smallJpeg(seed));
        Files.write(dir.resolve("1024.jpg"), TestImageFiles.jpeg(card.render(1024, 1433, 1), 0.85f));
        Files.write(dir.resolve("12mp.jpg"), TestImageFiles.jpeg(card.render(3024, 4032, 1), 0.80f));
    }
}
