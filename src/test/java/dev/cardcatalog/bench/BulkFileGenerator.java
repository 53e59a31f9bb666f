package dev.cardcatalog.bench;

import dev.cardcatalog.testing.ScryfallStandIn;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPOutputStream;

/**
 * Writes a realistic bulk file for benchmarks: the bundled sample's 875 real card objects repeated, in the sample's
 * mix of layouts, languages and games, each copy with fresh ids (the card's, its illustration's and its oracle id,
 * everywhere they appear, image URLs included) and a varied name. Deterministic for a given seed.
 *
 * <p>With languages given (the all_cards benchmark), record {@code i} is in language {@code i mod n} of them (its
 * {@code lang} replaced), so the file has the shape of Scryfall's all_cards: every printing in many languages.
 *
 * <p>{@code java ... BulkFileGenerator <cards> <output.jsonl.gz> [seed] [languages, e.g. en,es,fr]}
 */
public final class BulkFileGenerator {

    private static final Pattern UUID_TEXT = Pattern.compile(
            "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
    private static final Pattern LANG = Pattern.compile("\"lang\":\"[a-z_-]+\"");
    private static final String[] WORDS = {"Ancient", "Burning", "Crystal", "Dread", "Emerald", "Feral", "Gilded",
        "Hollow", "Iron", "Jade", "Keen", "Lunar", "Molten", "Noble", "Obsidian", "Pale", "Quiet", "Radiant",
        "Silent", "Thorned", "Umbral", "Vast", "Woven", "Zealous"};

    private BulkFileGenerator() {
    }

    public static void main(String[] args) throws IOException {
        int cards = Integer.parseInt(args[0]);
        Path output = Path.of(args[1]);
        long seed = args.length > 2 ? Long.parseLong(args[2]) : 20261129L;
        List<String> languages = args.length > 3 ? List.of(args[3].split(",")) : List.of();
        long bytes = write(cards, output, seed, languages);
        System.out.printf("wrote %d cards to %s (%d bytes)%n", cards, output, bytes);
    }

    /** Writes {@code cards} card objects as gzip JSON Lines; returns the file's size. */
    public static long write(int cards, Path output, long seed) throws IOException {
        return write(cards, output, seed, List.of());
    }

    /**
     * Writes {@code cards} card objects as gzip JSON Lines, record {@code i} in {@code languages[i mod n]} when
     * languages are given (else in the sample's own); returns the file's size.
     */
    public static long write(int cards, Path output, long seed, List<String> languages) throws IOException {
        List<String> sample = ScryfallStandIn.sampleCardLines();
        Random random = new Random(seed);
        Files.createDirectories(output.toAbsolutePath().getParent());
        try (OutputStream out = new BufferedOutputStream(new GZIPOutputStream(Files.newOutputStream(output),
                1 << 16), 1 << 16)) {
            for (int i = 0; i < cards; i++) {
                String line = sample.get(i % sample.size());
                int copy = i / sample.size();
                if (!languages.isEmpty()) {
                    line = LANG.matcher(line).replaceFirst("\"lang\":\"" + languages.get(i % languages.size()) + "\"");
                }
                out.write(copy == 0 ? line.getBytes(StandardCharsets.UTF_8) : vary(line, copy, random));
                out.write('\n');
            }
        }
        return Files.size(output);
    }

    private static byte[] vary(String line, int copy, Random random) {
        // every UUID in the object gets a fresh one, the same everywhere it appears in this copy
        java.util.Map<String, String> fresh = new java.util.HashMap<>();
        Matcher matcher = UUID_TEXT.matcher(line);
        StringBuilder out = new StringBuilder(line.length() + 64);
        while (matcher.find()) {
            String replacement = fresh.computeIfAbsent(matcher.group(),
                    old -> new UUID(random.nextLong(), random.nextLong()).toString());
            matcher.appendReplacement(out, replacement);
        }
        matcher.appendTail(out);
        String suffix = WORDS[random.nextInt(WORDS.length)] + " " + copy;
        String varied = out.toString().replaceFirst("(\"name\":\"[^\"]*)\"", "$1, " + suffix + "\"");
        return varied.getBytes(StandardCharsets.UTF_8);
    }
}
