package dev.cardcatalog.catalog;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.function.LongConsumer;
import java.util.zip.GZIPInputStream;

/**
 * Streams the records of a bulk file, one card object at a time, never holding the file in memory (the all-cards
 * file is about 400 MB compressed). Two shapes: gzip JSON Lines (one object per line; a line that is not valid is
 * handed on as it is, for the mapper to count as malformed) and the legacy JSON array (each element re-serialised
 * compactly; an array that breaks off or is not JSON fails the whole read with {@link BulkFileFormatException}).
 * Gzip is recognised by its magic bytes, so a plain file reads too.
 */
final class BulkFileReader {

    /** Receives each record's bytes. The array is the caller's to keep. */
    @FunctionalInterface
    interface RecordHandler {
        void record(byte[] json) throws IOException, java.sql.SQLException;
    }

    private static final JsonFactory FACTORY = new JsonFactory();
    private static final int MAX_LINE = 64 * 1024 * 1024;

    private BulkFileReader() {
    }

    /**
     * Reads every record of {@code file}.
     *
     * @param jsonLines true for JSON Lines, false for a JSON array
     * @param bytesRead told how many bytes of the file (as stored, compressed) have been read so far
     */
    static void read(Path file, boolean jsonLines, RecordHandler handler, LongConsumer bytesRead)
            throws IOException, java.sql.SQLException {
        read(Files.newInputStream(file), jsonLines, handler, bytesRead);
    }

    /**
     * Reads every record of {@code stream}, as {@link #read(Path, boolean, RecordHandler, LongConsumer)} reads a
     * file's, and closes it.
     *
     * @param bytesRead told how many bytes of the stream (as stored, compressed) have been read so far
     */
    static void read(InputStream stream, boolean jsonLines, RecordHandler handler, LongConsumer bytesRead)
            throws IOException, java.sql.SQLException {
        try (CountingInputStream counting = new CountingInputStream(stream, bytesRead);
                InputStream in = decoded(new BufferedInputStream(counting, 1 << 16))) {
            if (jsonLines) {
                readLines(in, handler);
            } else {
                readArray(in, handler);
            }
        }
    }

    private static InputStream decoded(BufferedInputStream in) throws IOException {
        in.mark(2);
        int first = in.read();
        int second = in.read();
        in.reset();
        if (first == 0x1f && second == 0x8b) {
            return new BufferedInputStream(new GZIPInputStream(in, 1 << 16), 1 << 16);
        }
        return in;
    }

    private static void readLines(InputStream in, RecordHandler handler) throws IOException, java.sql.SQLException {
        byte[] buffer = new byte[1 << 16];
        byte[] line = new byte[1 << 14];
        int lineLength = 0;
        int read;
        while ((read = in.read(buffer)) > 0) {
            int start = 0;
            for (int i = 0; i < read; i++) {
                if (buffer[i] == '\n') {
                    int chunk = i - start;
                    line = ensure(line, lineLength + chunk);
                    System.arraycopy(buffer, start, line, lineLength, chunk);
                    lineLength += chunk;
                    emit(line, lineLength, handler);
                    lineLength = 0;
                    start = i + 1;
                }
            }
            int rest = read - start;
            line = ensure(line, lineLength + rest);
            System.arraycopy(buffer, start, line, lineLength, rest);
            lineLength += rest;
        }
        emit(line, lineLength, handler);
    }

    private static void emit(byte[] line, int length, RecordHandler handler)
            throws IOException, java.sql.SQLException {
        int end = length;
        if (end > 0 && line[end - 1] == '\r') {
            end--;
        }
        int start = 0;
        while (start < end && (line[start] == ' ' || line[start] == '\t')) {
            start++;
        }
        if (start == end) {
            return;
        }
        handler.record(Arrays.copyOfRange(line, start, end));
    }

    private static byte[] ensure(byte[] line, int length) throws IOException {
        if (length > MAX_LINE) {
            throw new BulkFileFormatException("a line of the bulk file is longer than " + MAX_LINE + " bytes");
        }
        return length <= line.length ? line : Arrays.copyOf(line, Math.max(length, line.length * 2));
    }

    private static void readArray(InputStream in, RecordHandler handler) throws IOException, java.sql.SQLException {
        ByteArrayOutputStream element = new ByteArrayOutputStream(1 << 14);
        try (JsonParser parser = FACTORY.createParser(in)) {
            if (parser.nextToken() != JsonToken.START_ARRAY) {
                throw new BulkFileFormatException("the bulk file is not a JSON array");
            }
            JsonToken token;
            while ((token = parser.nextToken()) != JsonToken.END_ARRAY) {
                if (token == null) {
                    throw new BulkFileFormatException("the bulk file's JSON array breaks off");
                }
                element.reset();
                try (JsonGenerator generator = FACTORY.createGenerator(element)) {
                    generator.copyCurrentStructure(parser);
                }
                handler.record(element.toByteArray());
            }
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new BulkFileFormatException("the bulk file is not valid JSON: " + e.getOriginalMessage());
        }
    }

    /** Counts the bytes read from the file as stored, for progress. */
    private static final class CountingInputStream extends FilterInputStream {
        private final LongConsumer listener;
        private long count;

        CountingInputStream(InputStream in, LongConsumer listener) {
            super(in);
            this.listener = listener;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                listener.accept(++count);
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) {
                count += n;
                listener.accept(count);
            }
            return n;
        }
    }
}
