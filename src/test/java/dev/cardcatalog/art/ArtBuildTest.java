package dev.cardcatalog.art;

import static dev.cardcatalog.testing.TestUsers.asOperator;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cardcatalog.image.ImageDecoder;
import dev.cardcatalog.job.ArtIndexUpgrade;
import dev.cardcatalog.testing.ArtProfile;
import dev.cardcatalog.testing.CaptureSimulator;
import dev.cardcatalog.testing.CardArtGenerator;
import dev.cardcatalog.testing.CardCatalogTestResource;
import dev.cardcatalog.testing.Jobs;
import dev.cardcatalog.testing.JpegSegments;
import dev.cardcatalog.testing.SampleArtworks;
import dev.cardcatalog.testing.ScryfallStandIn.Fault;
import dev.cardcatalog.testing.ScryfallStandIn.RecordedRequest;
import dev.cardcatalog.testing.ScryfallStandIn;
import dev.cardcatalog.testing.TestData;
import dev.cardcatalog.testing.TestDatabase;
import dev.cardcatalog.testing.TestKafka;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The art build, the index file and matching (SERVICE.md §5), against the stand-in's generated card images. */
@QuarkusTest
@TestProfile(ArtProfile.class)
@WithTestResource(CardCatalogTestResource.class)
class ArtBuildTest {

    private final ScryfallStandIn standIn = ScryfallStandIn.shared();

    @Inject
    ArtIndexUpgrade upgrade;

    @BeforeEach
    void reset() {
        TestData.reset();
    }

    @Test
    void anAppliedRefreshStartsABuildThatFingerprintsEveryArtworkAndWritesTheIndex() throws Exception {
        Map<String, SampleArtworks.Expected> expected = SampleArtworks.expectedArtworks();

        JsonPath build = refreshThenBuild();

        assertThat(build.getString("state")).isEqualTo("succeeded");
        assertThat(build.getString("runs[0].status")).isEqualTo("applied");
        assertThat(build.getLong("runs[0].counts.artworks")).isEqualTo(expected.size());
        long otherFaces = expected.values().stream().filter(e -> e.face() > 0).count();
        assertThat(otherFaces).as("the sample's transform, modal_dfc and reversible cards' other faces").isNotZero();
        assertThat(build.getLong("runs[0].counts.other_faces")).isEqualTo(otherFaces);
        assertThat(build.getLong("runs[0].counts.front_faces")).isEqualTo(expected.size() - otherFaces);
        assertThat(build.getLong("runs[0].counts.fingerprinted")).isEqualTo(expected.size());
        assertThat(build.getLong("runs[0].counts.failed")).isZero();
        SampleArtworks.keepFingerprints(build);

        JsonPath index = given().get("/api/art-index").then().statusCode(200).extract().jsonPath();
        assertThat(index.getLong("count")).isEqualTo(expected.size());
        assertThat(index.getString("digest")).isEqualTo("aa574ad30218cd69");
        assertThat(index.getString("catalog_version")).isEqualTo(ScryfallStandIn.SAMPLE_VERSION);
        String name = index.getString("file_name");
        assertThat(name).matches("art-index-" + ScryfallStandIn.SAMPLE_VERSION + "-[0-9a-f]{16}-aa574ad30218cd69-"
                + expected.size() + "\\.bin\\.gz");

        Response file = rawFile(name);
        assertThat(file.statusCode()).isEqualTo(200);
        // the name carries the content digest of the bytes served
        assertThat(ArtIndexName.parse(name).orElseThrow().names(file.asByteArray())).isTrue();
        assertThat(index.getString("content_digest")).isEqualTo(ArtIndexName.sha256(file.asByteArray()));
        assertThat(file.header("ETag")).isEqualTo("\"" + name + "\"");
        assertThat(file.header("Content-Encoding")).isEqualTo("gzip");
        assertThat(file.header("Cache-Control")).isEqualTo("max-age=31536000, public, immutable");
        byte[] body = gunzip(file.asByteArray());
        assertThat(body).hasSize(28 + 145 * expected.size());
        ArtIndexFile.Contents contents = ArtIndexFile.read(new ByteArrayInputStream(file.asByteArray()),
                "aa574ad30218cd69", 1_000_000);
        assertThat(contents.entries()).extracting(e -> e.artworkId().toString())
                .containsExactlyInAnyOrderElementsOf(expected.keySet());
        // each fingerprint is the one of the image the stand-in served for the representative printing
        for (ArtIndexFile.Entry entry : contents.entries().subList(0, 25)) {
            SampleArtworks.Expected artwork = expected.get(entry.artworkId().toString());
            assertThat(entry.face()).isEqualTo(artwork.face());
            byte[] image = CardArtGenerator.smallJpeg(artwork.seed());
            assertThat(entry.fingerprint()).isEqualTo(ArtFingerprint.compute(new ImageDecoder().decode(image),
                    FingerprintSettings.FROZEN.zeroOffset()));
            // and beside it, never in the file, the second look's picture of the same image (FINGERPRINT.md §13)
            Map<String, Object> row = TestDatabase.rows("SELECT picture, picture_digest FROM art_fingerprint"
                    + " WHERE illustration_id = ?::uuid", entry.artworkId().toString()).get(0);
            assertThat(row.get("picture_digest")).isEqualTo(ArtPicture.DIGEST);
            assertThat((byte[]) row.get("picture")).isEqualTo(ArtPicture.of(new ImageDecoder().decode(image),
                    FingerprintSettings.FROZEN.zeroOffset()));
        }
        assertThat(TestDatabase.count("SELECT count(*) FROM art_fingerprint WHERE picture_digest = '"
                + ArtPicture.DIGEST + "' AND length(picture) = " + ArtPicture.BYTES)).isEqualTo(expected.size());

        given().header("If-None-Match", "\"" + name + "\"").get("/api/art-index/files/" + name)
                .then().statusCode(304);
        given().get("/api/art-index/files/art-index-x-0123456789abcdef-aa574ad30218cd69-1.bin.gz").then()
                .statusCode(404)
                .contentType("application/problem+json");
        given().get("/api/art-index/files/..%2Fbulk").then().statusCode(404);

        JsonPath event = TestKafka.readAll("card-catalog.events", Duration.ofSeconds(3)).stream()
                .filter(r -> "art-index-ready".equals(r.key()))
                .map(r -> new JsonPath(new String(r.value(), StandardCharsets.UTF_8)))
                .filter(e -> build.getString("id").equals(e.getString("jobId")))
                .findFirst().orElseThrow();
        assertThat(event.getString("fileName")).isEqualTo(name);
        assertThat(event.getLong("count")).isEqualTo(expected.size());
        assertThat(event.getString("digest")).isEqualTo("aa574ad30218cd69");

        // a second build has nothing to fetch and writes the same index
        String again = asOperator().contentType("application/json").body("{}").post("/api/art-builds")
                .then().statusCode(202).extract().jsonPath().getString("id");
        int images = imageRequests().size();
        JsonPath second = Jobs.awaitFinished(again);
        assertThat(second.getLong("runs[0].counts.already")).isEqualTo(expected.size());
        assertThat(imageRequests()).hasSize(images);
        // pictures made with other settings are made again, from the image cache; the index file stays the same
        TestDatabase.execute("UPDATE art_fingerprint SET picture_digest = 'other-settings' WHERE illustration_id IN"
                + " (SELECT illustration_id FROM art_fingerprint ORDER BY illustration_id LIMIT 3)");
        String third = asOperator().contentType("application/json").body("{}").post("/api/art-builds")
                .then().statusCode(202).extract().jsonPath().getString("id");
        JsonPath remade = Jobs.awaitFinished(third);
        assertThat(remade.getLong("runs[0].counts.already")).isEqualTo(expected.size() - 3);
        assertThat(remade.getLong("runs[0].counts.fingerprinted")).isEqualTo(3);
        assertThat(remade.getLong("runs[0].counts.cached")).isEqualTo(3);
        assertThat(imageRequests()).hasSize(images);
        assertThat(TestDatabase.count("SELECT count(*) FROM art_fingerprint WHERE picture_digest = '"
                + ArtPicture.DIGEST + "'")).isEqualTo(expected.size());
        given().get("/api/art-index").then().statusCode(200).body("file_name", equalTo(name));
        // the same bytes, the same name; the data directory is only a cache
        TestData.deleteTree(TestData.DATA_DIR.resolve("art/index"));
        given().get("/api/art-index").then().statusCode(200).body("file_name", equalTo(name));
        assertThat(rawFile(name).asByteArray()).isEqualTo(file.asByteArray());
    }

    @Test
    void aBuildWorseThanTheCurrentIndexFailsAndTheCurrentIndexStays() throws IOException {
        Map<String, SampleArtworks.Expected> expected = SampleArtworks.expectedArtworks();
        assertThat(SampleArtworks.refreshThenBuildReusingFingerprints().getString("state")).isEqualTo("succeeded");
        String current = given().get("/api/art-index").jsonPath().getString("file_name");
        byte[] currentBytes = rawFile(current).asByteArray();

        // 100 artworks fewer (their cards retired): more than 2 % fewer than the current index
        TestDatabase.execute("""
                UPDATE card SET retired_at = now() WHERE illustration_id IN (
                    SELECT DISTINCT illustration_id FROM card WHERE illustration_id IS NOT NULL
                    ORDER BY 1 LIMIT 100)""");
        JsonPath fewer = Jobs.awaitFinished(postArtBuild());
        assertThat(fewer.getString("state")).isEqualTo("failed");
        assertThat(fewer.getString("message")).startsWith("the index was not published: it would hold ")
                .contains("fewer than the " + expected.size() + " of the current index")
                .contains("the current index " + current + " stays");

        // no artwork at all (every card retired): never current
        TestDatabase.execute("UPDATE card SET retired_at = now()");
        JsonPath none = Jobs.awaitFinished(postArtBuild());
        assertThat(none.getString("state")).isEqualTo("failed");
        assertThat(none.getString("message")).contains("it would hold 0 artworks");

        // every image failing, fingerprints and cache forgotten
        TestDatabase.execute("UPDATE card SET retired_at = NULL");
        TestDatabase.execute("TRUNCATE art_fingerprint");
        TestData.deleteTree(TestData.DATA_DIR.resolve("art"));
        standIn.reset();
        standIn.always("/small/", Fault.status(404));
        standIn.always("/file/scryfall-cards/small/", Fault.status(404));
        JsonPath failing = Jobs.awaitState(postArtBuild(), Duration.ofSeconds(120), Jobs.FINISHED);
        assertThat(failing.getString("state")).isEqualTo("failed");
        assertThat(failing.getLong("runs[0].counts.failed")).isEqualTo(expected.size());
        List<String> sorted = new ArrayList<>(expected.keySet());
        assertThat(failing.getString("message")).startsWith("the index was not published: " + expected.size()
                + " of " + expected.size() + " images tried failed, more than the 2 % allowed")
                .contains("first failed images: ").containsPattern("[0-9a-f-]{36}, …")
                .contains("the current index " + current + " stays");
        assertThat(failing.getString("runs[0].message")).isEqualTo(failing.getString("message"));
        assertThat(sorted).anyMatch(id -> failing.getString("message").contains(id));

        // the previous index still current and served, though the data directory was emptied
        given().get("/api/art-index").then().statusCode(200).body("file_name", equalTo(current))
                .body("count", equalTo(expected.size()));
        assertThat(rawFile(current).asByteArray()).isEqualTo(currentBytes);
        assertThat(TestDatabase.count("SELECT count(*) FROM art_index")).isEqualTo(1);
    }

    @Test
    void aRefreshAppliedDuringAnArtBuildQueuesExactlyOneMoreBuildAfterIt() {
        // the build after the first refresh is held in flight by two slow images (one per image host)
        Fault slow = Fault.slowBody(1024, Duration.ofMillis(700));
        standIn.enqueue("/small/", slow);
        standIn.enqueue("/file/scryfall-cards/small/", slow);
        String first = SampleArtworks.refreshThenBuildId();

        // a scheduled refresh of the version already applied is skipped: it leaves no mark
        String skipped = Jobs.postRefresh("scheduled");
        assertThat(Jobs.awaitFinished(skipped).getString("state")).isEqualTo("skipped");
        assertThat(TestDatabase.count("SELECT count(*) FROM art_build_follow_up")).isZero();

        // two refreshes apply while it runs: one mark, however many
        String second = Jobs.postRefresh("manual");
        assertThat(Jobs.awaitFinished(second).getString("state")).isEqualTo("succeeded");
        String third = Jobs.postRefresh("manual");
        assertThat(Jobs.awaitFinished(third).getString("state")).isEqualTo("succeeded");
        assertThat(Jobs.get(first).getString("state")).as("the first build is still in flight")
                .isIn("queued", "running", "waiting");
        assertThat(TestDatabase.count("SELECT count(*) FROM job WHERE kind = 'art-build'")).isEqualTo(1);
        assertThat(TestDatabase.count("SELECT count(*) FROM art_build_follow_up")).isEqualTo(1);

        assertThat(Jobs.awaitState(first, Duration.ofSeconds(120), Jobs.FINISHED).getString("state"))
                .isEqualTo("succeeded");
        String[] next = new String[1];
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            var rows = TestDatabase.rows("SELECT id::text AS id FROM job WHERE kind = 'art-build' AND source LIKE ?",
                    "after art-build " + first + "%");
            next[0] = rows.isEmpty() ? null : (String) rows.get(0).get("id");
            return next[0] != null;
        });
        assertThat(Jobs.awaitFinished(next[0]).getString("state")).isEqualTo("succeeded");
        // the follow-up build ended without queuing another
        assertThat(TestDatabase.count("SELECT count(*) FROM job WHERE kind = 'art-build'")).isEqualTo(2);
        assertThat(TestDatabase.count("SELECT count(*) FROM art_build_follow_up")).isZero();
    }

    @Test
    void aMissingImageAndOneFailingToTheLastAttemptAreTwoFailedImagesAndTheBuildFinishes() throws IOException {
        Map<String, SampleArtworks.Expected> expected = SampleArtworks.expectedArtworks();
        List<String> artworks = new ArrayList<>(expected.keySet());
        artworks.sort(Comparator.naturalOrder());
        String missing = artworks.get(3);
        String broken = artworks.get(7);
        standIn.always(expected.get(missing).imagePath(), Fault.status(404));
        standIn.always(expected.get(broken).imagePath(), Fault.status(500));

        JsonPath build = refreshThenBuild();

        assertThat(build.getString("state")).isEqualTo("succeeded");
        assertThat(build.getLong("runs[0].counts.failed")).isEqualTo(2);
        assertThat(build.getLong("runs[0].counts.fingerprinted")).isEqualTo(expected.size() - 2);
        assertThat(build.getString("runs[0].message")).contains("2 failed images").contains(missing).contains(broken);
        assertThat(standIn.requests(expected.get(missing).imagePath())).hasSize(1);
        assertThat(standIn.requests(expected.get(broken).imagePath())).hasSize(3);
        given().get("/api/art-index").then().statusCode(200).body("count", equalTo(expected.size() - 2));
    }

    @Test
    void aRateLimitStopsTheBuildWhichComesBackNoSoonerAndEndsWithTheUninterruptedIndex() throws IOException {
        Map<String, SampleArtworks.Expected> expected = SampleArtworks.expectedArtworks();
        JsonPath uninterrupted = refreshThenBuild();
        byte[] uninterruptedIndex = gunzip(rawFile(given().get("/api/art-index").jsonPath()
                .getString("file_name")).asByteArray());
        assertThat(uninterrupted.getString("state")).isEqualTo("succeeded");

        // the same catalog, fingerprints and images forgotten: the next build starts from nothing
        TestDatabase.execute("TRUNCATE art_fingerprint");
        TestData.deleteTree(TestData.DATA_DIR.resolve("art"));
        standIn.reset();
        Fault[] faults = new Fault[101];
        java.util.Arrays.fill(faults, Fault.pass());
        // longer than MAX_BACK_OFF (4 s in ArtProfile, 30 s by default): the call ends and the job waits 6 s
        faults[100] = Fault.status(429).header("Retry-After", "6");
        // an art build requests images only, on two hosts' paths: queue on "/" to count them all
        standIn.enqueue("/", faults);

        String jobId = asOperator().contentType("application/json").body("{}").post("/api/art-builds")
                .then().statusCode(202).extract().jsonPath().getString("id");
        JsonPath waiting = Jobs.awaitState(jobId, Duration.ofSeconds(60), Set.of("waiting"));

        assertThat(waiting.getString("runs[0].status")).isEqualTo("failed");
        assertThat(waiting.getString("runs[0].message")).contains("429").contains("asking for 6 s");
        assertThat(waiting.getLong("runs[0].counts.fingerprinted")).isEqualTo(100);
        List<RecordedRequest> beforeRetry = imageRequests();
        assertThat(beforeRetry).hasSize(101); // no image requested after the 429
        Instant rateLimitedAt = beforeRetry.get(100).receivedAt();
        Instant retryAt = Instant.parse(waiting.getString("retry_at"));
        assertThat(Duration.between(rateLimitedAt, retryAt)).isBetween(Duration.ofSeconds(5),
                Duration.ofSeconds(7));

        JsonPath done = Jobs.awaitState(jobId, Duration.ofSeconds(120), Jobs.FINISHED);
        assertThat(done.getString("state")).isEqualTo("succeeded");
        assertThat(done.getList("runs")).hasSize(2);
        List<RecordedRequest> all = imageRequests();
        assertThat(all.get(101).receivedAt()).isAfterOrEqualTo(retryAt);
        assertThat(all).hasSize(expected.size() + 1); // every image once, the rate-limited one twice
        Set<String> paths = new HashSet<>();
        all.forEach(request -> paths.add(request.path()));
        assertThat(paths).hasSize(expected.size());
        byte[] resumedIndex = gunzip(rawFile(given().get("/api/art-index").jsonPath()
                .getString("file_name")).asByteArray());
        assertThat(resumedIndex).isEqualTo(uninterruptedIndex);
    }

    @Test
    void aSimulatedPhotoOfACardFindsItsArtworkFirst() throws IOException {
        Map<String, SampleArtworks.Expected> expected = SampleArtworks.expectedArtworks();
        SampleArtworks.refreshThenBuildReusingFingerprints();
        List<String> artworks = new ArrayList<>(expected.keySet());
        artworks.sort(Comparator.naturalOrder());

        for (int i = 0; i < 20; i++) {
            String artwork = artworks.get(i * 31 % artworks.size());
            String cardId = expected.get(artwork).cardId();
            byte[] photo = CaptureSimulator.captureJpeg(expected.get(artwork).seed(), 1000 + i);

            JsonPath matches = given().contentType("image/jpeg").body(photo).post("/api/art-index/matches")
                    .then().statusCode(200).extract().jsonPath();

            assertThat(matches.getList("matches")).hasSize(10);
            assertThat(matches.getString("matches[0].illustration_id")).isEqualTo(artwork);
            assertThat(matches.getBoolean("matches[0].confident")).isTrue();
            assertThat(matches.getList("matches[0].printings.id")).contains(cardId);
        }
        // every face with its own art is found like a front: a photo of a back face (the stand-in draws another
        // picture at Scryfall's /small/back/ path) finds that face's artwork, and the printing says which face
        List<String> otherFaces = artworks.stream().filter(a -> expected.get(a).face() > 0).toList();
        assertThat(otherFaces).hasSizeGreaterThanOrEqualTo(10);
        for (int i = 0; i < otherFaces.size(); i += 4) {
            String artwork = otherFaces.get(i);
            SampleArtworks.Expected face = expected.get(artwork);
            assertThat(face.imagePath()).contains("/small/back/");
            byte[] photo = CaptureSimulator.captureJpeg(face.seed(), 2000 + i);

            JsonPath matches = given().contentType("image/jpeg").body(photo).post("/api/art-index/matches")
                    .then().statusCode(200).extract().jsonPath();

            assertThat(matches.getString("matches[0].illustration_id")).isEqualTo(artwork);
            assertThat(matches.getBoolean("matches[0].confident")).isTrue();
            List<Map<String, Object>> printings = matches.getList("matches[0].printings");
            Map<String, Object> printing = printings.stream().filter(p -> face.cardId().equals(p.get("id")))
                    .findFirst().orElseThrow();
            assertThat(printing.get("face")).isEqualTo(Map.of("index", face.face(), "name", faceName(face)));
            assertThat((String) printing.get("image_small_uri")).contains("/small/back/");
            // the front face of the same card is its own artwork, on face 0
            String frontArtwork = expected.entrySet().stream()
                    .filter(e -> e.getValue().cardId().equals(face.cardId()) && e.getValue().face() == 0)
                    .map(Map.Entry::getKey).findFirst().orElse(null);
            if (frontArtwork != null) {
                given().contentType("image/jpeg").body(CaptureSimulator.captureJpeg(
                        expected.get(frontArtwork).seed(), 3000 + i)).post("/api/art-index/matches")
                        .then().statusCode(200).body("matches[0].illustration_id", equalTo(frontArtwork))
                        .body("matches[0].printings.find { it.id == '" + face.cardId() + "' }.face.index",
                                equalTo(0));
            }
        }
        // a card whose image is its own (no faces with their own images) names no face
        String single = artworks.stream().filter(a -> expected.get(a).face() == 0
                && !ScryfallStandIn.sampleCardLines().stream().filter(l -> l.contains(expected.get(a).cardId()))
                        .findFirst().orElseThrow().contains("\"card_faces\"")).findFirst().orElseThrow();
        given().contentType("image/jpeg").body(CaptureSimulator.captureJpeg(expected.get(single).seed(), 4000))
                .post("/api/art-index/matches").then().statusCode(200)
                .body("matches[0].illustration_id", equalTo(single))
                .body("matches[0].printings[0]", org.hamcrest.Matchers.hasKey("face"))
                .body("matches[0].printings[0].face", org.hamcrest.Matchers.nullValue());

        given().contentType("image/png").body("not a picture".getBytes(StandardCharsets.UTF_8))
                .post("/api/art-index/matches").then().statusCode(400)
                .contentType("application/problem+json").body("field", equalTo("body"));

        // The README's photo: Dusk Legion Zealot, as the README says.
        given().contentType("image/jpeg").body(java.nio.file.Files.readAllBytes(
                java.nio.file.Path.of("docs/examples/photo-of-a-card.jpg"))).post("/api/art-index/matches")
                .then().statusCode(200).body("matches[0].confident", equalTo(true))
                .body("matches[0].printings.id", org.hamcrest.Matchers.hasItem("98a9ef61-1c6d-49d1-b185-2b022482b442"));

        // A photo whose ICC profile chunks disagree (issue 12, fault 4) matches as the clean photo does.
        String artwork = artworks.get(0);
        byte[] clean = CaptureSimulator.captureJpeg(expected.get(artwork).seed(), 999);
        byte[] brokenIcc = JpegSegments.afterApp0(clean, new byte[][] {
                JpegSegments.icc(1, 2, new byte[100]), JpegSegments.icc(2, 3, new byte[100])});
        List<Object> cleanMatches = given().contentType("image/jpeg").body(clean).post("/api/art-index/matches")
                .then().statusCode(200).extract().jsonPath().getList("matches");
        given().contentType("image/jpeg").body(brokenIcc).post("/api/art-index/matches").then().statusCode(200)
                .body("matches", equalTo(cleanMatches)).body("matches[0].illustration_id", equalTo(artwork));

        // A body that is not a JPEG or PNG is named by what it is and its size (issue 12, fault 6).
        byte[] html = "<!DOCTYPE html><html><body>502 Bad Gateway</body></html>".getBytes(StandardCharsets.UTF_8);
        byte[] webp = new byte[64];
        System.arraycopy("RIFF\0\0\0\0WEBPVP8 ".getBytes(StandardCharsets.ISO_8859_1), 0, webp, 0, 16);
        byte[] avif = new byte[64];
        System.arraycopy("\0\0\0\u0014ftypavif\0\0\0\0mif1".getBytes(StandardCharsets.ISO_8859_1), 0, avif, 0, 20);
        Map<String, byte[]> bodies = Map.of("HTML, " + html.length + " bytes", html, "a WebP image, 64 bytes", webp,
                "an AVIF image, 64 bytes", avif, "empty (0 bytes)", new byte[0]);
        bodies.forEach((named, body) -> given().contentType("image/jpeg").body(body)
                .post("/api/art-index/matches").then().statusCode(400).contentType("application/problem+json")
                .body("field", equalTo("body")).body("detail", containsString(named)));
    }

    /** The index file as sent: gzip, not decoded by the client. */
    private static Response rawFile(String name) {
        return given().config(io.restassured.RestAssured.config().decoderConfig(
                io.restassured.config.DecoderConfig.decoderConfig().noContentDecoders()))
                .get("/api/art-index/files/" + name);
    }

    private List<RecordedRequest> imageRequests() {
        return standIn.requests().stream().filter(r -> ScryfallStandIn.isImage(r.path())).toList();
    }

    @Test
    void anIndexOfAnOlderFormatIsIgnoredUntilTheBuildTheUpgradeStartsReplacesIt() throws IOException {
        Map<String, SampleArtworks.Expected> expected = SampleArtworks.expectedArtworks();
        long otherFaces = expected.values().stream().filter(e -> e.face() > 0).count();
        SampleArtworks.refreshThenBuildReusingFingerprints();
        assertThat(upgrade.startBuildIfOlderFormat()).as("the index is of the current format").isEmpty();
        // What the upgrade finds: the index written by the previous version (format 1), and cards stored before
        // their faces were kept (migration V13 marks them unread).
        TestDatabase.execute("UPDATE art_index SET format_version = 1");
        TestDatabase.execute("DELETE FROM card_face_image");
        TestDatabase.execute("UPDATE card SET faces_unread = true");

        // every replica ignores it: no index to serve, nor, from its next poll of the current index, to match against
        given().get("/api/art-index").then().statusCode(404);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> given().contentType("image/jpeg")
                .body(CardArtGenerator.smallJpeg(1)).post("/api/art-index/matches").then().statusCode(404));

        String build = upgrade.startBuildIfOlderFormat().orElseThrow().toString();
        assertThat(upgrade.startBuildIfOlderFormat()).as("one build, in flight").isEmpty();
        JsonPath done = Jobs.awaitState(build, Duration.ofSeconds(120), Jobs.FINISHED);

        assertThat(done.getString("state")).isEqualTo("succeeded");
        assertThat(done.getString("source")).isEqualTo(ArtIndexUpgrade.SOURCE);
        assertThat(done.getLong("runs[0].counts.artworks")).isEqualTo(expected.size());
        assertThat(done.getLong("runs[0].counts.other_faces")).isEqualTo(otherFaces);
        assertThat(TestDatabase.count("SELECT count(*) FROM card WHERE faces_unread")).isZero();
        given().get("/api/art-index").then().statusCode(200).body("count", equalTo(expected.size()));
        assertThat(upgrade.startBuildIfOlderFormat()).isEmpty();
    }

    @Test
    void aBuildBeforeAnyRefreshFailsAndSaysWhy() {
        String jobId = asOperator().contentType("application/json").body("{}").post("/api/art-builds")
                .then().statusCode(202).extract().jsonPath().getString("id");

        JsonPath failed = Jobs.awaitFinished(jobId);

        assertThat(failed.getString("state")).isEqualTo("failed");
        assertThat(failed.getString("message")).startsWith("the catalog has not been refreshed yet");
        given().get("/api/art-index").then().statusCode(404).contentType("application/problem+json");
    }

    private static String postArtBuild() {
        return given().auth().preemptive().basic("operator", "operator-test-password")
                .contentType("application/json").body("{}").post("/api/art-builds")
                .then().statusCode(202).extract().jsonPath().getString("id");
    }

    private static JsonPath refreshThenBuild() {
        return Jobs.awaitState(SampleArtworks.refreshThenBuildId(), Duration.ofSeconds(120), Jobs.FINISHED);
    }

    /** The name of the face {@code face} is on, from the sample's card object. */
    private static String faceName(SampleArtworks.Expected face) throws IOException {
        for (String line : ScryfallStandIn.sampleCardLines()) {
            if (line.contains("\"id\":\"" + face.cardId() + "\"")) {
                return new ObjectMapper().readTree(line).path("card_faces").path(face.face()).path("name").asText();
            }
        }
        throw new IllegalStateException("no card " + face.cardId());
    }

    private static byte[] gunzip(byte[] gz) throws IOException {
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gz))) {
            return in.readAllBytes();
        }
    }
}
