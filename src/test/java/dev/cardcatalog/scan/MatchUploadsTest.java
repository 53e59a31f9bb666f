package dev.cardcatalog.scan;

import dev.cardcatalog.art.ArtFingerprint;
import dev.cardcatalog.art.ArtIndexFile;
import dev.cardcatalog.art.ArtIndexName;
import dev.cardcatalog.art.ArtIndexStore;
import dev.cardcatalog.art.FingerprintSettings;
import dev.cardcatalog.image.ImageDecodeException;
import dev.cardcatalog.image.ImageDecoder;
import static dev.cardcatalog.testing.TestUsers.anonymous;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cardcatalog.platform.Problem;
import dev.cardcatalog.testing.CardArtGenerator;
import dev.cardcatalog.testing.CardCatalogTestResource;
import dev.cardcatalog.testing.MatchLimitProfile;
import dev.cardcatalog.testing.PrometheusText;
import dev.cardcatalog.testing.TestData;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Uploads hold no decoding turn while they are sent (SERVICE.md §5.9), with one match at a time, one waiting and at
 * most {@value MatchLimitProfile#UPLOADS} uploads received at once ({@link MatchLimitProfile}; its upload deadline
 * is a minute, so that held uploads stay held: {@link UploadTimeoutTest} has the deadline). Stalled uploads are raw
 * sockets that send the headers of a 200,000-byte JPEG and its first 1,024 bytes, then nothing.
 */
@QuarkusTest
@TestProfile(MatchLimitProfile.class)
@WithTestResource(CardCatalogTestResource.class)
class MatchUploadsTest {

    private static final int ARTWORKS = 15;
    private static final int DECLARED_LENGTH = 200_000;

    @TestHTTPResource
    URL http;

    @TestHTTPResource(management = true)
    URL management;

    @Inject
    ArtIndexStore store;

    private final List<Socket> stalled = new ArrayList<>();

    @BeforeEach
    void publishAnIndexOfGeneratedArtworks() {
        TestData.reset();
        List<ArtIndexFile.Entry> entries = new ArrayList<>();
        for (int seed = 0; seed < ARTWORKS; seed++) {
            byte[] fingerprint;
            try {
                fingerprint = ArtFingerprint.compute(new ImageDecoder().decode(CardArtGenerator.smallJpeg(seed)),
                        FingerprintSettings.FROZEN.zeroOffset());
            } catch (ImageDecodeException e) {
                throw new AssertionError(e);
            }
            entries.add(new ArtIndexFile.Entry(artworkId(seed), fingerprint));
        }
        String digest = FingerprintSettings.FROZEN.digest();
        byte[] bytes = ArtIndexFile.gzip(digest, entries);
        store.publish(ArtIndexName.of("default-cards-20261201000000", digest, entries.size(), bytes), bytes, entries);
    }

    @AfterEach
    void closeTheStalledUploads() throws IOException {
        for (Socket socket : stalled) {
            socket.close();
        }
        stalled.clear();
        awaitGauge("art_uploads_receiving", 0);
    }

    @Test
    void twelveStalledUploadsLeaveNormalMatchesAnswering() throws Exception {
        for (int k = 0; k < 12; k++) {
            stalled.add(stall(http));
        }
        awaitGauge("art_uploads_receiving", 12);

        // the only decoding turn is free: matches one after the other are all answered while all 12 still stall
        for (int k = 0; k < 12; k++) {
            assertThat(metric("art_uploads_receiving")).isEqualTo(12);
            int seed = k % ARTWORKS;
            JsonPath matches = match(CardArtGenerator.smallJpeg(seed)).then().statusCode(200).extract().jsonPath();
            assertThat(matches.getString("matches[0].illustration_id")).isEqualTo(artworkId(seed).toString());
            assertThat(matches.getBoolean("matches[0].confident")).isTrue();
        }
        assertThat(metric("art_matches_running")).isZero();
        for (Socket socket : stalled) {
            assertThat(socket.getInputStream().available()).as("nothing answered to a stalled upload").isZero();
        }
    }

    @Test
    void anUploadBeyondThoseBeingReceivedIs503WithRetryAfterAtOnceAndTheServiceStaysReady() throws Exception {
        for (int k = 0; k < MatchLimitProfile.UPLOADS; k++) {
            stalled.add(stall(http));
        }
        awaitGauge("art_uploads_receiving", MatchLimitProfile.UPLOADS);

        // several, as a client would send them: small and large bodies, with a length or chunked
        for (byte[] body : List.of(CardArtGenerator.smallJpeg(1), new byte[DECLARED_LENGTH])) {
            Response refused = match(body);
            assertThat(refused.statusCode()).isEqualTo(503);
            assertThat(refused.header("Retry-After")).isEqualTo("3");
            assertThat(refused.contentType()).startsWith("application/problem+json");
            assertThat(refused.jsonPath().getString("type")).isEqualTo(Problem.TYPE_BASE + "service-busy");
            assertThat(refused.jsonPath().getInt("retry_after")).isEqualTo(3);
        }
        try (Socket chunked = new Socket(http.getHost(), http.getPort())) {
            OutputStream out = chunked.getOutputStream();
            out.write(("POST /api/art-index/matches HTTP/1.1\r\nHost: localhost\r\nContent-Type: image/jpeg\r\n"
                    + "Transfer-Encoding: chunked\r\n\r\n400\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(Arrays.copyOf(CardArtGenerator.smallJpeg(2), 1024));
            out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            // answered before the body ends
            assertThat(statusAndHeaders(chunked)).startsWith("HTTP/1.1 503 ").containsIgnoringCase("retry-after: 3");
        }
        assertThat(metric("art_uploads_refused_total")).isGreaterThanOrEqualTo(3);
        given().get(management + "health/ready").then().statusCode(200);

        for (Socket socket : stalled) {
            socket.close();
        }
        awaitGauge("art_uploads_receiving", 0);
        match(CardArtGenerator.smallJpeg(4)).then().statusCode(200);
    }

    /**
     * A photo sent chunked is received whole, whatever its chunks: in pieces of 7 bytes, of 1,000, of exactly the
     * first array {@link MatchUploads} gives a body without a length (64 KiB), and in one, the same answer as the
     * photo sent with its length. The photo is a PNG several times that first array, so the body outgrows it more
     * than once and is cut to its length at the end.
     */
    @Test
    void aPhotoSentChunkedInPiecesOfAnySizeIsMatchedAsWithItsLength() throws Exception {
        int seed = 5;
        byte[] photo = dev.cardcatalog.testing.TestImageFiles.png(CardArtGenerator.card(seed).render(438, 612, 1));
        assertThat(photo.length).isGreaterThan(3 * 64 * 1024);
        String withLength = match(photo).then().statusCode(200).extract().asString();
        JsonPath answer = new JsonPath(withLength);
        assertThat(answer.getString("matches[0].illustration_id")).isEqualTo(artworkId(seed).toString());
        assertThat(answer.getBoolean("matches[0].confident")).isTrue();

        for (int piece : new int[] {7, 1000, 64 * 1024, photo.length}) {
            java.net.HttpURLConnection chunked = chunkedPost(photo, piece, "image/png");
            assertThat(chunked.getResponseCode()).as("pieces of %d bytes", piece).isEqualTo(200);
            try (InputStream in = chunked.getInputStream()) {
                assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).as("pieces of %d bytes", piece)
                        .isEqualTo(withLength);
            }
        }
    }

    /**
     * A body sent chunked reaches the decoder as exactly its bytes, however it grew: bodies that are not images,
     * of 0 bytes, of one byte past the first array (64 KiB) and of an odd length several times it, each in pieces
     * of 7 bytes, of 1,000 and of 64 KiB, are refused naming their own length.
     */
    @Test
    void aBodySentChunkedIsReceivedAsExactlyItsBytes() throws Exception {
        for (int length : new int[] {0, 64 * 1024 + 1, 200_003}) {
            byte[] text = new byte[length];
            Arrays.fill(text, (byte) 'x');
            for (int piece : new int[] {7, 1000, 64 * 1024}) {
                java.net.HttpURLConnection chunked = chunkedPost(text, piece, "image/jpeg");
                assertThat(chunked.getResponseCode()).as("%d bytes in pieces of %d", length, piece).isEqualTo(400);
                try (InputStream in = chunked.getErrorStream()) {
                    String detail = new JsonPath(new String(in.readAllBytes(), StandardCharsets.UTF_8))
                            .getString("detail");
                    assertThat(detail).as("%d bytes in pieces of %d", length, piece)
                            .contains(length == 0 ? "The body is empty (0 bytes)" : ", " + length + " bytes");
                }
            }
        }
    }

    /**
     * A client that asks for HTTP/2 over cleartext (the JDK's client does by default: an {@code Upgrade: h2c} on its
     * first request) is answered in HTTP/1.1 and its photo matched. The service does not speak h2c (RFC 9113 §3.1
     * deprecates that upgrade; {@code quarkus.http.http2=false}): with it on, every match on an upgraded connection
     * was a 500, since the upload is received whole before the resource runs and Vert.x's HTTP/2 request refuses to
     * be paused once it has ended.
     */
    @Test
    void aClientAskingForHttp2IsAnsweredInHttp11AndItsPhotoMatched() throws Exception {
        java.net.http.HttpClient client = java.net.http.HttpClient.newBuilder()
                .version(java.net.http.HttpClient.Version.HTTP_2).build();
        java.net.URI base = http.toURI();
        java.net.http.HttpResponse<String> index = client.send(java.net.http.HttpRequest.newBuilder(
                base.resolve("/api/art-index")).GET().build(), java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(index.statusCode()).isEqualTo(200);
        for (int seed : new int[] {3, 7}) {
            java.net.http.HttpResponse<String> answer = client.send(java.net.http.HttpRequest.newBuilder(
                    base.resolve("/api/art-index/matches")).header("Content-Type", "image/jpeg")
                    .POST(java.net.http.HttpRequest.BodyPublishers.ofByteArray(CardArtGenerator.smallJpeg(seed)))
                    .build(), java.net.http.HttpResponse.BodyHandlers.ofString());
            assertThat(answer.version()).isEqualTo(java.net.http.HttpClient.Version.HTTP_1_1);
            assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
            assertThat(answer.body()).contains(artworkId(seed).toString());
        }
    }

    @Test
    void aPhotoSentInSlowPiecesWithinTheDeadlineIsMatched() throws Exception {
        byte[] photo = CardArtGenerator.smallJpeg(5);
        try (Socket slow = new Socket(http.getHost(), http.getPort())) {
            OutputStream out = slow.getOutputStream();
            out.write(("POST /api/art-index/matches HTTP/1.1\r\nHost: localhost\r\nContent-Type: image/jpeg\r\n"
                    + "Content-Length: " + photo.length + "\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            int piece = (photo.length + 3) / 4;
            for (int from = 0; from < photo.length; from += piece) {
                out.write(photo, from, Math.min(piece, photo.length - from));
                out.flush();
                Thread.sleep(200);
                if (from + piece < photo.length) {
                    assertThat(metric("art_uploads_receiving")).isEqualTo(1);
                    assertThat(metric("art_matches_running")).isZero();
                }
            }
            String answer = readToEnd(slow);
            assertThat(answer).startsWith("HTTP/1.1 200 ").contains(artworkId(5).toString());
        }
    }

    @Test
    void aClientThatWaitsFor100ContinueGetsItAndItsPhotoIsMatched() throws Exception {
        byte[] photo = CardArtGenerator.smallJpeg(6);
        try (Socket client = new Socket(http.getHost(), http.getPort())) {
            OutputStream out = client.getOutputStream();
            out.write(("POST /api/art-index/matches HTTP/1.1\r\nHost: localhost\r\nContent-Type: image/jpeg\r\n"
                    + "Content-Length: " + photo.length + "\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            assertThat(statusAndHeaders(client)).startsWith("HTTP/1.1 100 Continue");
            out.write(photo);
            out.flush();
            assertThat(readToEnd(client)).startsWith("HTTP/1.1 200 ").contains(artworkId(6).toString());
        }
    }

    /** Sends the headers of a {@value #DECLARED_LENGTH}-byte upload and a JPEG's first 1,024 bytes, then stalls. */
    static Socket stall(URL http) throws IOException {
        Socket socket = new Socket(http.getHost(), http.getPort());
        socket.setSoTimeout(30_000);
        OutputStream out = socket.getOutputStream();
        out.write(("POST /api/art-index/matches HTTP/1.1\r\nHost: localhost\r\nContent-Type: image/jpeg\r\n"
                + "Content-Length: " + DECLARED_LENGTH + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(Arrays.copyOf(CardArtGenerator.smallJpeg(0), 1024));
        out.flush();
        return socket;
    }

    /** The status line and headers of the answer on {@code socket} (waited for up to 30 s). */
    static String statusAndHeaders(Socket socket) throws IOException {
        socket.setSoTimeout(30_000);
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        InputStream in = socket.getInputStream();
        while (!received.toString(StandardCharsets.ISO_8859_1).contains("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                break;
            }
            received.write(b);
        }
        return received.toString(StandardCharsets.ISO_8859_1);
    }

    /** Everything the service sends until it closes the connection (which the test waits for, up to 30 s). */
    static String readToEnd(Socket socket) throws IOException {
        socket.setSoTimeout(30_000);
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        InputStream in = socket.getInputStream();
        byte[] buffer = new byte[8192];
        for (int n; (n = in.read(buffer)) != -1; ) {
            received.write(buffer, 0, n);
        }
        return received.toString(StandardCharsets.UTF_8);
    }

    /** {@code body} posted to the match endpoint chunked, in pieces of {@code piece} bytes; the answer not read. */
    private java.net.HttpURLConnection chunkedPost(byte[] body, int piece, String type) throws IOException {
        java.net.HttpURLConnection post = (java.net.HttpURLConnection) new URL(http, "/api/art-index/matches")
                .openConnection();
        post.setRequestMethod("POST");
        post.setRequestProperty("Content-Type", type);
        post.setDoOutput(true);
        post.setChunkedStreamingMode(piece);
        try (OutputStream out = post.getOutputStream()) {
            out.write(body);
        }
        return post;
    }

    static Response match(byte[] photo) {
        return anonymous().contentType("image/jpeg").body(photo).post("/api/art-index/matches");
    }

    private static UUID artworkId(int seed) {
        return UUID.nameUUIDFromBytes(("upload-artwork-" + seed).getBytes(StandardCharsets.UTF_8));
    }

    private void awaitGauge(String name, double value) {
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                .until(() -> metric(name) == value);
    }

    private double metric(String name) {
        String metrics = given().get(management + "metrics").then().statusCode(200).extract().asString();
        Matcher line = PrometheusText.series(name).matcher(metrics);
        return line.find() ? Double.parseDouble(line.group(2)) : Double.NaN;
    }
}
