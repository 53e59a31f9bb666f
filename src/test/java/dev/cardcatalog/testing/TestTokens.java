package dev.cardcatalog.testing;

import io.smallrye.jwt.build.Jwt;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.Set;

/**
 * Bearer tokens for the tests, signed (RS256) with an RSA key generated once under {@code target/} and never
 * committed. The key is kept in files because the test profile, which configures the public key, and the test,
 * which signs, may run in different class loaders.
 */
public final class TestTokens {

    public static final String ISSUER = "https://issuer.card-catalog.test";
    private static final Path DIR = Path.of("target/test-token-key");

    private TestTokens() {
    }

    /** The public key, Base64 of its X.509 encoding, as {@code quarkus.oidc.public-key} takes it. */
    public static String publicKey() {
        ensureKey();
        return read("public.b64");
    }

    /** A token for {@code subject} with these groups (roles), from {@link #ISSUER}, valid for 5 minutes. */
    public static String token(String subject, String... groups) {
        return Jwt.issuer(ISSUER).subject(subject).upn(subject).groups(Set.of(groups)).expiresIn(300)
                .sign(privateKey());
    }

    /** The same claims signed by another key, which the service must refuse. */
    public static String tokenFromAnotherKey(String subject, String... groups) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            return Jwt.issuer(ISSUER).subject(subject).upn(subject).groups(Set.of(groups)).expiresIn(300)
                    .sign(generator.generateKeyPair().getPrivate());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static PrivateKey privateKey() {
        ensureKey();
        try {
            return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(
                    Base64.getDecoder().decode(read("private.b64"))));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static synchronized void ensureKey() {
        if (Files.isRegularFile(DIR.resolve("private.b64")) && Files.isRegularFile(DIR.resolve("public.b64"))) {
            return;
        }
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            var keys = generator.generateKeyPair();
            Files.createDirectories(DIR);
            write("public.b64", Base64.getEncoder().encodeToString(keys.getPublic().getEncoded()));
            write("private.b64", Base64.getEncoder().encodeToString(keys.getPrivate().getEncoded()));
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("the test token key could not be made", e);
        }
    }

    private static void write(String name, String text) throws IOException {
        Path temporary = Files.createTempFile(DIR, name, ".tmp");
        Files.writeString(temporary, text);
        Files.move(temporary, DIR.resolve(name), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    private static String read(String name) {
        try {
            return Files.readString(DIR.resolve(name)).trim();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
