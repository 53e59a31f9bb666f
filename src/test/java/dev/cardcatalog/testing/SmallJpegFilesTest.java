package dev.cardcatalog.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class SmallJpegFilesTest {

    /** Seeds no stand-in picture has (its seeds are hashes of card ids): this test's files are its own. */
    private static final long FIRST_SEED = Long.MIN_VALUE + 7_001;

    @Test
    void aPictureIsDrawnOnceKeptAndReadAsDrawn() throws IOException {
        Path file = SmallJpegFiles.DIRECTORY.resolve(FIRST_SEED + ".jpg");
        Files.deleteIfExists(file);
        byte[] drawn = CardArtGenerator.smallJpeg(FIRST_SEED);

        assertThat(SmallJpegFiles.smallJpeg(FIRST_SEED)).isEqualTo(drawn);
        assertThat(file).exists().hasBinaryContent(drawn);
        assertThat(SmallJpegFiles.smallJpeg(FIRST_SEED)).isEqualTo(drawn);
        Files.delete(file);
    }

    @Test
    void aKeptPictureIsReadNotDrawnAgain() throws IOException {
        long seed = FIRST_SEED + 1;
        Path file = SmallJpegFiles.DIRECTORY.resolve(seed + ".jpg");
        Files.createDirectories(SmallJpegFiles.DIRECTORY);
        byte[] kept = {(byte) 0xFF, (byte) 0xD8, 1, 2, 3, (byte) 0xFF, (byte) 0xD9};
        Files.write(file, kept);

        assertThat(SmallJpegFiles.smallJpeg(seed)).isEqualTo(kept);
        Files.delete(file);
    }

    @Test
    void theDirectoryIsNamedForTheGeneratorAndTheJvm() {
        assertThat(SmallJpegFiles.DIRECTORY.getParent()).isEqualTo(Path.of("target", "small-jpegs"));
        assertThat(SmallJpegFiles.DIRECTORY.getFileName().toString()).matches("[0-9a-f]{8}");
    }
}
