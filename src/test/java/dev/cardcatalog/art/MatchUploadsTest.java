package dev.cardcatalog.art;

import static dev.cardcatalog.testing.TestUsers.anonymous;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cardcatalog.platform.Problem;
import dev.cardcatalog.testing.CardCatalogTestResource;
import dev.cardcatalog.testing.MatchLimitProfile;
import dev.cardcatalog.testing.TestData;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The public match endpoint under concurrent uploads (SERVICE.md §7), with one match at a time and one waiting
 * ({@link MatchLimitProfile}): an upload held half-sent keeps the only turn, the next waits, the one after is
 * answered 503 with {@code Retry-After}; the service stays ready, and the held turn, once given back, serves again.
 */
@QuarkusTest
@TestProfile(MatchLimitProfile.class)
@WithTestResource(CardCatalogTestResource.class)
class MatchUploadsTest {

    private static final byte[] NOT_A_PHOTO = "not a photo of a card".getBytes(StandardCharsets.UTF_8);

    @TestHTTPResource
    URL http;

    @TestHTTPResource(management = true)
    URL management;

    @Test
    void uploadsBeyondTheTurnsAndTheQueueAre503WithRetryAfterAndTheServiceStaysReady() throws Exception {
        TestData.reset(); // no art index: a match that gets its turn is answered 404 once its upload is read

        try (Socket held = new Socket(http.getHost(), http.getPort())) {
            // more than the REST layer buffers before it hands the request, still streaming, to the method
            int length = 200_000;
            OutputStream out = held.getOutputStream();
            out.write(("POST /api/art-index/matches HTTP/1.1\r\nHost: localhost\r\nContent-Type: image/jpeg\r\n"
                    + "Content-Length: " + length + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(new byte[length / 2]);
            out.flush();
            awaitGauge("art_matches_running", 1);

            CompletableFuture<Response> waiting = CompletableFuture.supplyAsync(this::match);
            awaitGauge("art_matches_waiting", 1);

            Response refused = match();
            assertThat(refused.statusCode()).isEqualTo(503);
            assertThat(refused.header("Retry-After")).isEqualTo("3");
            assertThat(refused.contentType()).startsWith("application/problem+json");
            assertThat(refused.jsonPath().getString("type")).isEqualTo(Problem.TYPE_BASE + "service-busy");
            assertThat(refused.jsonPath().getInt("retry_after")).isEqualTo(3);
            given().get(management + "health/ready").then().statusCode(200);
            assertThat(waiting).isNotDone();

            out.write(new byte[length - length / 2]);
            out.flush();
            assertThat(statusLine(held)).startsWith("HTTP/1.1 404");
            assertThat(waiting.get(30, TimeUnit.SECONDS).statusCode()).isEqualTo(404);
        }
        assertThat(match().statusCode()).isEqualTo(404);
        assertThat(metric("art_matches_refused_total")).isGreaterThanOrEqualTo(1);
        awaitGauge("art_matches_running", 0);
    }

    private Response match() {
        return anonymous().contentType("image/jpeg").body(NOT_A_PHOTO).post("/api/art-index/matches");
    }

    private void awaitGauge(String name, double value) {
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                .until(() -> metric(name) == value);
    }

    private double metric(String name) {
        String metrics = given().get(management + "metrics").then().statusCode(200).extract().asString();
        Matcher line = Pattern.compile("(?m)^" + name + "(\\{[^}]*})? (\\S+)$").matcher(metrics);
        return line.find() ? Double.parseDouble(line.group(2)) : Double.NaN;
    }

    private static String statusLine(Socket socket) throws java.io.IOException {
        socket.setSoTimeout(30_000);
        return new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII))
                .readLine();
    }
}
