package dev.cardcatalog.scan;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The arrows between features point one way (SERVICE.md §2, STYLE.md): the photo side ({@code scan}) uses the index
 * side ({@code art}) and the catalog, and no other feature names {@code scan}.
 */
class PackageArrowsTest {

    private static final Path MAIN = Path.of("src/main/java/dev/cardcatalog");

    @Test
    void noFeatureButScanNamesTheScanPackage() throws IOException {
        List<String> offenders;
        try (Stream<Path> files = Files.walk(MAIN)) {
            offenders = files.filter(f -> f.toString().endsWith(".java"))
                    .filter(f -> !MAIN.relativize(f).startsWith("scan"))
                    .filter(PackageArrowsTest::namesScan)
                    .map(f -> MAIN.relativize(f).toString())
                    .toList();
        }
        assertThat(offenders).as("files outside scan/ that name dev.cardcatalog.scan").isEmpty();
        assertThat(Files.list(MAIN.resolve("scan")).count()).as("the scan package has its files").isGreaterThan(5);
    }

    private static boolean namesScan(Path file) {
        try {
            // comments may point a reader to the photo side; code may not use it
            String code = Files.readString(file).replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("//[^\n]*", "");
            return code.contains("dev.cardcatalog.scan");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
