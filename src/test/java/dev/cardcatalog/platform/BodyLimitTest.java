package dev.cardcatalog.platform;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cardcatalog.testing.CardCatalogTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/**
 * The request body limit ({@code quarkus.http.limits.max-body-size}, 20 MiB): a larger body is a problem+json 413
 * naming the limit, whether the client declares its length or sends it chunked, as docs/api.md says. The bodies are generated while they are sent, so the test holds no 20 MB array.
 */
@QuarkusTest
@WithTestResource(CardCatalogTestResource.class)
class BodyLimitTest {

    private static final long LIMIT = 20 * 1024 * 1024;

    @TestHTTPResource("/api/art-index/matches")
    URI matches;

    @Test
    void aBodyOverTwentyMebibytesIsA413ProblemNamingTheLimit() throws Exception {
        HttpRequest.BodyPublisher declared = HttpRequest.BodyPublishers.fromPublisher(
                HttpRequest.BodyPublishers.ofInputStream(() -> jpegLike(LIMIT + 1)), LIMIT + 1);
        JsonNode problem = assertTooLarge(send(declared));
        assertThat(problem.get("detail").asText()).contains("20971521 bytes").contains("20971520 bytes");
        assertThat(problem.get("instance").asText()).isEqualTo("/api/art-index/matches");
    }

    @Test
    void aChunkedBodyOverTheLimitIsCutOffWithA413Problem() throws Exception {
        // Without a Content-Length the size is known only while reading: the match's upload is refused as soon as it
        // outgrows the limit (docs/api.md says so).
        HttpResponse<String> response = send(HttpRequest.BodyPublishers.ofInputStream(() -> jpegLike(LIMIT + 1)));
        JsonNode problem = assertTooLarge(response);
        assertThat(problem.get("detail").asText()).contains("20971520 bytes");
    }

    private HttpResponse<String> send(HttpRequest.BodyPublisher body) throws Exception {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        return client.send(HttpRequest.newBuilder(matches).header("Content-Type", "image/jpeg").POST(body).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode assertTooLarge(HttpResponse<String> response) throws Exception {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(413);
        assertThat(response.headers().firstValue("Content-Type")).hasValue(Problem.MEDIA_TYPE);
        JsonNode problem = new ObjectMapper().readTree(response.body());
        assertThat(problem.get("status").asInt()).isEqualTo(413);
        assertThat(problem.get("type").asText()).isEqualTo(Problem.TYPE_BASE + "body-too-large");
        assertThat(problem.get("field").asText()).isEqualTo("body");
        return problem;
    }

    /** {@code length} bytes starting with a JPEG signature, made as they are read. */
    private static InputStream jpegLike(long length) {
        return new InputStream() {
            private long position;

            @Override
            public int read() {
                if (position >= length) {
                    return -1;
                }
                long at = position++;
                return at == 0 || at == 2 ? 0xFF : at == 1 ? 0xD8 : 0;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                if (position >= length) {
                    return -1;
                }
                int n = (int) Math.min(len, length - position);
                for (int k = 0; k < n; k++) {
                    b[off + k] = (byte) read();
                }
                return n;
            }
        };
    }
}
