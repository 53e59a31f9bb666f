package dev.cardcatalog.bench;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;

/**
 * The floor any importer pays for a bulk file: gunzip it and parse every JSON token of every record, keeping
 * nothing. Run under {@code /usr/bin/time -v} for its wall time and peak RSS.
 *
 * <p>{@code java ... ReadFloor <file.jsonl.gz>}
 */
public final class ReadFloor {

    private ReadFloor() {
    }

    public static void main(String[] args) throws IOException {
        long start = System.nanoTime();
        JsonFactory factory = new JsonFactory();
        long records = 0;
        long tokens = 0;
        try (InputStream in = new BufferedInputStream(new GZIPInputStream(
                new BufferedInputStream(Files.newInputStream(Path.of(args[0])), 1 << 16), 1 << 16), 1 << 16);
                JsonParser parser = factory.createParser(in)) {
            // JSON Lines is a sequence of root-level values, which the parser reads one after another
            int depth = 0;
            while (parser.nextToken() != null) {
                tokens++;
                switch (parser.currentToken()) {
                    case START_OBJECT, START_ARRAY -> depth++;
                    case END_OBJECT, END_ARRAY -> {
                        if (--depth == 0) {
                            records++;
                        }
                    }
                    default -> {
                    }
                }
            }
        }
        System.out.printf("read %d records, %d tokens in %.2f s%n", records, tokens,
                (System.nanoTime() - start) / 1e9);
    }
}
