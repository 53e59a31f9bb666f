package dev.cardcatalog.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HexFormat;
import java.util.zip.CRC32;

/**
 * {@link CardArtGenerator#smallJpeg(long)}'s pictures kept on disk, so that the JVMs of one build (the unit-test
 * forks, the integration-test forks, a local run) draw each picture once between them instead of once each: the
 * stand-in serves the 852 pictures of the bundled sample, and drawing them costs a JVM about 5 s of CPU.
 *
 * <p>The files are under {@code target/small-jpegs/<version>/<seed>.jpg}, where the version is a CRC-32 of the class
 * files that draw and encode a picture and of the JVM's version: a changed generator, or another JDK's JPEG writer,
 * starts a new directory and never reads an old picture. A picture is written to a temporary file and moved into
 * place, so a JVM reads a whole file or none, and JVMs that draw the same picture at once write the same bytes.
 * {@code SmallJpegFilesTest} holds a kept picture to a freshly drawn one.
 */
public final class SmallJpegFiles {

    /** Where the pictures of this generator and JVM are kept. */
    static final Path DIRECTORY = Path.of("target", "small-jpegs", version());

    private SmallJpegFiles() {
    }

    /**
     * The picture of {@code seed}: {@link CardArtGenerator#smallJpeg(long)}'s bytes, read from its file when a JVM
     * has drawn it before, drawn and kept otherwise. When the file cannot be written (a read-only checkout), the
     * picture is drawn and returned all the same.
     */
    public static byte[] smallJpeg(long seed) {
        Path file = DIRECTORY.resolve(seed + ".jpg");
        try {
            return Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            // drawn below
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        byte[] jpeg = CardArtGenerator.smallJpeg(seed);
        Path partial = null;
        try {
            Files.createDirectories(DIRECTORY);
            partial = Files.createTempFile(DIRECTORY, seed + "-", ".part");
            Files.write(partial, jpeg);
            Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            // kept for the next JVM only when it can be; this one has its picture
            try {
                if (partial != null) {
                    Files.deleteIfExists(partial);
                }
            } catch (IOException ignored) {
                // a leftover .part file is never read
            }
        }
        return jpeg;
    }

    /** A CRC-32 of the drawing and encoding classes' bytes and the JVM's version, as 8 hex digits. */
    private static String version() {
        CRC32 crc = new CRC32();
        for (String name : new String[] {"CardArtGenerator", "CardArtGenerator$Card", "CardArtGenerator$Shape",
                "TestImageFiles"}) {
            try (InputStream in = SmallJpegFiles.class.getResourceAsStream(name + ".class")) {
                if (in == null) {
                    throw new IllegalStateException("no class file " + name + ".class beside SmallJpegFiles");
                }
                crc.update(in.readAllBytes());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        crc.update(System.getProperty("java.vm.version", "").getBytes(StandardCharsets.UTF_8));
        return HexFormat.of().toHexDigits((int) crc.getValue());
    }
}
