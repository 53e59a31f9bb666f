package dev.cardcatalog.art;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An art index file's name, formed and parsed here only (SERVICE.md §5.8, FINGERPRINT.md §9):
 * {@code art-index-<catalog version>-<content digest>-<settings digest>-<count>.bin.gz}, e.g.
 * {@code art-index-default-cards-20261008210545-3f2a9c0d41be7e58-aa574ad30218cd69-808.bin.gz}.
 *
 * <p>The content digest is the first 16 lowercase hex characters of the SHA-256 of the file's bytes (the gzip as
 * served), so different bytes never share a name and a name, served as the {@code ETag}, is never stale. The name
 * still matches the browser scanner's {@code ^art-index-[a-z0-9-]+-[0-9a-f]{16}-\d+\.bin\.gz$}: the content digest
 * sits in its {@code [a-z0-9-]+} part.
 *
 * @param catalogVersion the catalog version the index was built from, {@code [a-z0-9-]+}
 * @param contentDigest  16 lowercase hex characters: the start of the SHA-256 of the file's bytes
 * @param settingsDigest the fingerprint settings digest, 16 lowercase hex characters
 * @param count          artworks in the file, 0 or more
 */
public record ArtIndexName(String catalogVersion, String contentDigest, String settingsDigest, int count) {

    private static final Pattern NAME =
            Pattern.compile("^art-index-([a-z0-9-]+)-([0-9a-f]{16})-([0-9a-f]{16})-(\\d{1,9})\\.bin\\.gz$");
    private static final Pattern CATALOG_VERSION = Pattern.compile("[a-z0-9-]+");
    private static final Pattern HEX16 = Pattern.compile("[0-9a-f]{16}");

    /** @throws IllegalArgumentException if a part is not of the form above */
    public ArtIndexName {
        if (catalogVersion == null || !CATALOG_VERSION.matcher(catalogVersion).matches()) {
            throw new IllegalArgumentException("a catalog version is lowercase letters, digits and '-'");
        }
        if (contentDigest == null || !HEX16.matcher(contentDigest).matches()) {
            throw new IllegalArgumentException("a content digest is 16 lowercase hex characters");
        }
        if (settingsDigest == null || !HEX16.matcher(settingsDigest).matches()) {
            throw new IllegalArgumentException("a settings digest is 16 lowercase hex characters");
        }
        if (count < 0) {
            throw new IllegalArgumentException("count must not be negative");
        }
    }

    /**
     * The name of the index file whose bytes are {@code gzipped}.
     *
     * @param gzipped the file as served (gzip of the index body)
     */
    public static ArtIndexName of(String catalogVersion, String settingsDigest, int count, byte[] gzipped) {
        return new ArtIndexName(catalogVersion, sha256(gzipped).substring(0, 16), settingsDigest, count);
    }

    /** The name's parts; empty when {@code name} is not an index file name (null included). */
    public static Optional<ArtIndexName> parse(String name) {
        if (name == null) {
            return Optional.empty();
        }
        Matcher m = NAME.matcher(name);
        if (!m.matches()) {
            return Optional.empty();
        }
        return Optional.of(new ArtIndexName(m.group(1), m.group(2), m.group(3), Integer.parseInt(m.group(4))));
    }

    /** Whether {@code name} is an index file name. */
    public static boolean isValid(String name) {
        return parse(name).isPresent();
    }

    /** Whether {@code bytes} are the bytes this name was formed from (their SHA-256 starts with the content digest). */
    public boolean names(byte[] bytes) {
        return sha256(bytes).startsWith(contentDigest);
    }

    /** The SHA-256 of {@code bytes}, 64 lowercase hex characters. */
    public static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    /** The file name. */
    @Override
    public String toString() {
        return "art-index-" + catalogVersion + "-" + contentDigest + "-" + settingsDigest + "-" + count + ".bin.gz";
    }
}
