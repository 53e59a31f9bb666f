package dev.cardcatalog.bench;

import dev.cardcatalog.testing.CaptureSimulator;
import dev.cardcatalog.testing.CardArtGenerator;
import dev.cardcatalog.testing.PhotoSimulator;
import dev.cardcatalog.testing.SampleArtworks;
import dev.cardcatalog.testing.ScryfallStandIn;
import dev.cardcatalog.testing.TestImageFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Writes the photos of the HTTP match benchmark ({@code bench/match-http-bench.sh}) for cards of the bundled sample:
 * <ul>
 *   <li>{@code small.jpg}: the Scryfall stand-in's own 146×204 {@code small} JPEG of the card;</li>
 *   <li>{@code 1024.jpg}: the same art drawn at 1,024×1,433 (quality 0.85), a guide crop;</li>
 *   <li>{@code 12mp.jpg}: the same art drawn at 3,024×4,032 (quality 0.80), a guide crop the size of a
 *       12-megapixel phone photo;</li>
 *   <li>{@code 12mp-card.jpg}: a 4,032 × 3,024 whole photo of the card lying on a patterned surface, tilted 25° in
 *       perspective, its outline a fifth of the frame ({@link PhotoSimulator}, realistic);</li>
 *   <li>{@code 12mp-binder.jpg}: a 3,024 × 4,032 photo of a binder page of nine of the sample's artworks (every
 *       ninety-fifth, sorted by id), whose ids go to {@code binder-artworks.txt} in reading order of the page.</li>
 * </ul>
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
        Files.write(dir.resolve("12mp-card.jpg"), PhotoSimulator.wholePhoto(seed, 1, CaptureSimulator.Severity
                .REALISTIC, PhotoSimulator.Surface.PATTERNED, 4032, 3024, 25, 0.2).jpeg());
        Map<String, SampleArtworks.Expected> artworks = SampleArtworks.expectedArtworks();
        List<String> ids = new ArrayList<>(artworks.keySet());
        ids.sort(null);
        long[] seeds = new long[9];
        List<String> page = new ArrayList<>();
        for (int k = 0; k < 9; k++) {
            page.add(ids.get(95 * k));
            seeds[k] = artworks.get(page.get(k)).seed();
        }
        Files.write(dir.resolve("12mp-binder.jpg"), PhotoSimulator.binderPage(seeds, 3, CaptureSimulator.Severity
                .REALISTIC, 3024, 4032).jpeg());
        Files.write(dir.resolve("binder-artworks.txt"), page);
    }
}
