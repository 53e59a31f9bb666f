package dev.cardcatalog.scan;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cardcatalog.art.ArtFingerprint;
import dev.cardcatalog.art.ArtIndexFile;
import dev.cardcatalog.art.ArtIndexName;
import dev.cardcatalog.art.ArtIndexStore;
import dev.cardcatalog.art.FingerprintSettings;
import dev.cardcatalog.image.ImageDecoder;
import dev.cardcatalog.platform.Problem;
import dev.cardcatalog.testing.CaptureSimulator;
import dev.cardcatalog.testing.CardArtGenerator;
import dev.cardcatalog.testing.CardCatalogTestResource;
import dev.cardcatalog.testing.HostileImages;
import dev.cardcatalog.testing.PrometheusText;
import dev.cardcatalog.testing.TestData;
import dev.cardcatalog.testing.TestImageFiles;
import dev.cardcatalog.testing.UploadTimeoutProfile;
import io.quarkus.logging.Log;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The hostile corpus at the match endpoint (issue 23 item 5), against an index of generated artworks: each file is
 * answered 4xx problem+json with its stable type, none takes a turn it cannot give back, and the memory reserved and
 * the turns are free once all are answered. Here an upload's deadline is 100 ms ({@link UploadTimeoutProfile}), so
 * one made to take longer is answered 422 whatever the machine's speed. The answers' times are logged, not asserted
 * (docs/benchmarks.md has the figures); each refusal's only lower bound, the refusal pause, is.
 */
@QuarkusTest
@TestProfile(UploadTimeoutProfile.class)
@WithTestResource(CardCatalogTestResource.class)
class HostileUploadsTest {

    @TestHTTPResource(management = true)
    URL management;

    @Inject
    ArtIndexStore store;

    @BeforeEach
    void publishAnIndexOfGeneratedArtworks() throws Exception {
        TestData.reset();
        List<ArtIndexFile.Entry> entries = new ArrayList<>();
        for (int seed = 0; seed < 5; seed++) {
            entries.add(new ArtIndexFile.Entry(UUID.nameUUIDFromBytes(("hostile-" + seed).getBytes(
                    StandardCharsets.UTF_8)), ArtFingerprint.compute(new ImageDecoder().decode(
                            CardArtGenerator.smallJpeg(seed)), FingerprintSettings.FROZEN.zeroOffset())));
        }
        String digest = FingerprintSettings.FROZEN.digest();
        byte[] bytes = ArtIndexFile.gzip(digest, entries);
        store.publish(ArtIndexName.of("default-cards-20261201000000", digest, entries.size(), bytes), bytes, entries);
    }

    @AfterEach
    void removeTheIndex() {
        // the other tests of this profile expect no index: the poll drops it once the table is empty
        TestData.reset();
        await().atMost(Duration.ofSeconds(10)).until(() -> store.matcher().isEmpty());
    }

    @Test
    void theIssuesScanFloodIsRefusedFromItsMarkersBeforeItTakesATurn() {
        byte[] flood = HostileImages.scanFlood(20_000);
        double before = metric("art_matches_too_costly_total", "type=\"too-many-scans\"");
        long start = System.nanoTime();
        Response answer = match("image/jpeg", flood);
        long millis = (System.nanoTime() - start) / 1_000_000;
        Log.infof("the %d-byte scan flood (20,000 scans) was answered %d in %d ms", flood.length,
                answer.statusCode(), millis);
        assertProblem(answer, 400, "too-many-scans");
        assertThat(answer.jsonPath().getInt("limit")).isEqualTo(100);
        assertThat(answer.jsonPath().getString("detail")).contains("more than 100 scans");
        assertThat(metric("art_matches_too_costly_total", "type=\"too-many-scans\"")).isEqualTo(before + 1);
    }

    @Test
    void refusalsSentAtOnceAreEachAnsweredNoSoonerThanThePauseAndHoldNoTurn() throws Exception {
        Duration pause = ConfigProvider.getConfig().getValue("card-catalog.art.refusal-pause", Duration.class);
        assertThat(pause).as("the default pause").isEqualTo(Duration.ofMillis(250));
        // 8 at once fit this profile's 3 MiB upload buffer, which holds each body until its answer is sent
        byte[] flood = HostileImages.scanFlood(2_000);
        ExecutorService clients = Executors.newFixedThreadPool(8);
        try {
            List<Future<long[]>> sent = new ArrayList<>();
            for (int k = 0; k < 8; k++) {
                sent.add(clients.submit(() -> {
                    long start = System.nanoTime();
                    Response answer = match("image/jpeg", flood);
                    return new long[] {answer.statusCode(), (System.nanoTime() - start) / 1_000_000};
                }));
            }
            for (Future<long[]> answer : sent) {
                long[] statusAndMillis = answer.get(60, TimeUnit.SECONDS);
                assertThat(statusAndMillis[0]).isEqualTo(400);
                // a lower bound, whatever the machine's speed: the answer waited the pause on its timer
                assertThat(statusAndMillis[1]).isGreaterThanOrEqualTo(pause.toMillis());
            }
        } finally {
            clients.shutdownNow();
        }
        assertTurnsAndMemoryFree();
    }

    @Test
    void everyFileOfTheHostileCorpusIsAnswered4xxWithItsType() {
        byte[] capture = CaptureSimulator.captureJpeg(1, 2, CaptureSimulator.Severity.REALISTIC, 1024);
        byte[] png = TestImageFiles.png(CardArtGenerator.smallImage(2));
        Map<String, Object[]> corpus = new LinkedHashMap<>();
        corpus.put("scan flood, 20,000 scans", new Object[] {HostileImages.scanFlood(20_000), 400, "too-many-scans"});
        corpus.put("100 scans of a 4,096 x 4,096 frame", new Object[] {HostileImages.scanFlood(100), 400,
                "too-much-work"});
        corpus.put("200,000 empty APP1 segments", new Object[] {HostileImages.app1Flood(200_000), 400,
                "too-many-segments"});
        corpus.put("5,000 comments", new Object[] {HostileImages.commentFlood(5_000), 400, "too-many-segments"});
        corpus.put("tables sent 200 times", new Object[] {HostileImages.tableFlood(200), 400, "too-many-segments"});
        corpus.put("2,000 PNG text chunks", new Object[] {HostileImages.withChunks(png,
                HostileImages.chunk("tEXt", "k\0v".getBytes(StandardCharsets.US_ASCII)), 2_000), 400,
                "too-many-segments"});
        corpus.put("arithmetic progressive 8,192 x 8,192", new Object[] {HostileImages.declaredFrame(0xCA, 8192, 8192,
                10, 0x11, 0x11, 0x11), 400, "arithmetic-coding"});
        corpus.put("arithmetic conditioning (DAC)", new Object[] {HostileImages.withArithmeticConditioning(capture),
                400, "arithmetic-coding"});
        corpus.put("lossless 1,024 x 1,433", new Object[] {HostileImages.withFrameMarker(capture, 0xC3), 400,
                "invalid-image"});
        corpus.put("declares 65,535 x 65,535", new Object[] {HostileImages.withDeclaredSize(capture, 65_535, 65_535),
                400, "invalid-image"});
        corpus.put("PNG declares 2^31 - 1 wide", new Object[] {HostileImages.pngWithDeclaredSize(png,
                Integer.MAX_VALUE, 204), 400, "invalid-image"});
        corpus.put("progressive 4:4:4 5,000 x 4,000", new Object[] {HostileImages.declaredFrame(0xC2, 5000, 4000, 3,
                0x11, 0x11, 0x11), 400, "too-much-memory"});
        corpus.put("16-bit RGBA PNG at the side cap", new Object[] {HostileImages.flatPng(8192, 8192, 16, 6), 400,
                "too-much-work"});
        corpus.put("16-bit RGB PNG at the side cap", new Object[] {HostileImages.flatPng(8192, 8192, 16, 2), 422,
                "upload-too-costly"});
        corpus.put("JPEG cut in half", new Object[] {HostileImages.truncated(capture, capture.length / 2), 400,
                "invalid-image"});
        corpus.put("PNG cut in half", new Object[] {HostileImages.truncated(png, png.length / 2), 400,
                "invalid-image"});
        corpus.put("HTML", new Object[] {"<html><body>hello</body></html>".getBytes(StandardCharsets.US_ASCII), 400,
                "invalid-image"});
        List<String> answers = new ArrayList<>();
        corpus.forEach((name, file) -> {
            String type = name.contains("PNG") ? "image/png" : "image/jpeg";
            long start = System.nanoTime();
            Response answer = match(type, (byte[]) file[0]);
            answers.add(String.format("%-40s %7d bytes: %d %s in %d ms", name, ((byte[]) file[0]).length,
                    answer.statusCode(), answer.jsonPath().getString("type"), (System.nanoTime() - start) / 1_000_000));
            assertProblem(answer, (Integer) file[1], (String) file[2]);
        });
        Log.infof("the hostile corpus was answered:%n%s", String.join("\n", answers));
        assertTurnsAndMemoryFree();
    }

    @Test
    void damagedPhotosAreAnsweredAsImagesOrRefusedNeverWithAServerError() {
        byte[] capture = CaptureSimulator.captureJpeg(3, 4);
        byte[] progressive = TestImageFiles.progressiveJpeg(CaptureSimulator.captureImage(3, 5), 0.85f);
        List<Integer> statuses = new ArrayList<>();
        for (byte[] photo : List.of(capture, progressive)) {
            int from = HostileImages.firstScanData(photo);
            for (long seed = 0; seed < 12; seed++) {
                // bits flipped in the entropy-coded data: a decoder reads on past most of them, as browsers do
                Response answer = match("image/jpeg", HostileImages.bitFlipped(photo, from, 1 + (int) seed, seed));
                statuses.add(answer.statusCode());
                if (answer.statusCode() != 200) {
                    assertThat(answer.statusCode()).isIn(400, 422);
                    assertThat(answer.contentType()).startsWith(Problem.MEDIA_TYPE);
                }
            }
        }
        Log.infof("bit-flipped photos were answered %s", statuses);
        assertThat(statuses).doesNotContain(500);
        assertTurnsAndMemoryFree();
    }

    @Test
    void anUploadPastItsDeadlineIsCountedAndFreesItsTurnAndItsMemory() {
        double before = metric("art_matches_too_costly_total", "type=\"upload-too-costly\"");
        Response answer = match("image/png", HostileImages.flatPng(8192, 8192, 16, 2));
        assertProblem(answer, 422, "upload-too-costly");
        assertThat(answer.jsonPath().getString("detail")).contains("100 ms").contains("while decoding the photo");
        assertThat(metric("art_matches_too_costly_total", "type=\"upload-too-costly\"")).isEqualTo(before + 1);
        assertTurnsAndMemoryFree();
    }

    @Test
    void theMetricsOfCostlyUploadsAreThereFromTheStartForEveryType() {
        String metrics = given().get(management + "metrics").then().statusCode(200).extract().asString();
        for (String type : UploadAdmission.COSTLY_TYPES) {
            assertThat(metrics).contains("art_matches_too_costly_total{type=\"" + type + "\"}");
        }
        for (String name : List.of("art_decode_memory_reserved_bytes", "art_decode_memory_refused_total",
                "art_matches_expensive_running", "art_matches_expensive_waiting")) {
            assertThat(PrometheusText.series(name).matcher(metrics).find()).as(name).isTrue();
        }
    }

    private void assertTurnsAndMemoryFree() {
        await().atMost(Duration.ofSeconds(10)).until(() -> metric("art_matches_running", null) == 0
                && metric("art_decode_memory_reserved_bytes", null) == 0);
    }

    private static void assertProblem(Response answer, int status, String type) {
        assertThat(answer.statusCode()).as(answer.asString()).isEqualTo(status);
        assertThat(answer.contentType()).startsWith(Problem.MEDIA_TYPE);
        assertThat(answer.jsonPath().getString("type")).isEqualTo(Problem.TYPE_BASE + type);
        assertThat(answer.jsonPath().getString("field")).isEqualTo("body");
        assertThat(answer.asString()).doesNotContain("Exception").doesNotContain("dev.cardcatalog");
    }

    private static Response match(String contentType, byte[] body) {
        return given().contentType(contentType).body(body).post("/api/art-index/matches");
    }

    /** The value of the series {@code name} whose labels contain {@code label}, or NaN. */
    private double metric(String name, String label) {
        String metrics = given().get(management + "metrics").then().statusCode(200).extract().asString();
        Matcher line = PrometheusText.series(name).matcher(metrics);
        while (line.find()) {
            if (label == null || (line.group(1) != null && line.group(1).contains(label))) {
                return Double.parseDouble(line.group(2));
            }
        }
        return Double.NaN;
    }
}
