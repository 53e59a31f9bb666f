package dev.cardcatalog.scan;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cardcatalog.platform.Problem;
import dev.cardcatalog.testing.CardArtGenerator;
import dev.cardcatalog.testing.CardCatalogTestResource;
import dev.cardcatalog.testing.PrometheusText;
import dev.cardcatalog.testing.TestData;
import dev.cardcatalog.testing.UploadTimeoutProfile;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import org.junit.jupiter.api.Test;

/**
 * A photo upload that does not arrive whole within the upload deadline (2 s here, {@link UploadTimeoutProfile}) is
 * answered 408 problem+json and its connection closed (SERVICE.md §5.9), however it stalls: with a declared length
 * after part of the body, chunked after a chunk, or before any byte of the body.
 */
@QuarkusTest
@TestProfile(UploadTimeoutProfile.class)
@WithTestResource(CardCatalogTestResource.class)
class UploadTimeoutTest {

    @TestHTTPResource
    URL http;

    @TestHTTPResource(management = true)
    URL management;

    @Test
    void everyStalledUploadIsAnswered408AndItsConnectionClosed() throws Exception {
        TestData.reset();
        double before = timedOut();
        List<Socket> stalled = new ArrayList<>();
        List<Integer> arrived = new ArrayList<>();
        try {
            for (int k = 0; k < 12; k++) {
                stalled.add(MatchUploadsTest.stall(http));
                arrived.add(1024);
            }
            stalled.add(chunkedStall());
            arrived.add(1024);
            stalled.add(headersOnly());
            arrived.add(0);

            for (int k = 0; k < stalled.size(); k++) {
                // read to the end: the service closes the connection after the answer
                String answer = MatchUploadsTest.readToEnd(stalled.get(k));
                assertThat(answer).as("upload " + k).startsWith("HTTP/1.1 408 ")
                        .containsIgnoringCase("content-type: application/problem+json")
                        .containsIgnoringCase("connection: close")
                        .contains("\"type\":\"" + Problem.TYPE_BASE + "request-timeout\"")
                        .contains("\"status\":408").contains("\"field\":\"body\"").contains("within 2 s")
                        .contains("(" + arrived.get(k) + " bytes arrived)");
            }
        } finally {
            for (Socket socket : stalled) {
                socket.close();
            }
        }
        assertThat(timedOut() - before).isEqualTo(14);
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10))
                .until(() -> gauge("art_uploads_buffered_bytes") == 0);
        // a whole upload is still served (404: no index in this test)
        MatchUploadsTest.match(CardArtGenerator.smallJpeg(1)).then().statusCode(404);
    }

    @Test
    void anUploadThatDoesNotFitTheUploadBufferIs503AtOnce() throws Exception {
        TestData.reset();
        // 4,000,000 bytes: under the 20 MiB body limit, over the 3 MiB all uploads may hold together
        try (Socket socket = new Socket(http.getHost(), http.getPort())) {
            OutputStream out = socket.getOutputStream();
            out.write(("POST /api/art-index/matches HTTP/1.1\r\nHost: localhost\r\nContent-Type: image/jpeg\r\n"
                    + "Content-Length: 4000000\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(Arrays.copyOf(CardArtGenerator.smallJpeg(3), 1024));
            out.flush();
            // answered before the body is sent, well before the 2 s deadline would have answered 408
            String answer = MatchUploadsTest.statusAndHeaders(socket);
            assertThat(answer).startsWith("HTTP/1.1 503 ").containsIgnoringCase("retry-after: 2")
                    .containsIgnoringCase("content-type: application/problem+json");
        }
        // nothing stays reserved: a photo that fits is received and handled (404: no index in this test)
        MatchUploadsTest.match(CardArtGenerator.smallJpeg(1)).then().statusCode(404);
        assertThat(gauge("art_uploads_buffered_bytes")).isZero();
    }

    private Socket chunkedStall() throws IOException {
        Socket socket = new Socket(http.getHost(), http.getPort());
        OutputStream out = socket.getOutputStream();
        out.write(("POST /api/art-index/matches HTTP/1.1\r\nHost: localhost\r\nContent-Type: image/jpeg\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n400\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(Arrays.copyOf(CardArtGenerator.smallJpeg(2), 1024));
        out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
        return socket;
    }

    private Socket headersOnly() throws IOException {
        Socket socket = new Socket(http.getHost(), http.getPort());
        OutputStream out = socket.getOutputStream();
        out.write(("POST /api/art-index/matches HTTP/1.1\r\nHost: localhost\r\nContent-Type: image/png\r\n"
                + "Content-Length: 5000\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
        return socket;
    }

    private double gauge(String name) {
        String metrics = given().get(management + "metrics").then().statusCode(200).extract().asString();
        Matcher line = PrometheusText.series(name).matcher(metrics);
        return line.find() ? Double.parseDouble(line.group(2)) : Double.NaN;
    }

    private double timedOut() {
        String metrics = given().get(management + "metrics").then().statusCode(200).extract().asString();
        Matcher line = PrometheusText.series("art_uploads_timed_out_total").matcher(metrics);
        return line.find() ? Double.parseDouble(line.group(2)) : 0;
    }
}
