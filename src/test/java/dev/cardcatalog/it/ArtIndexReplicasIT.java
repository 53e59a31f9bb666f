package dev.cardcatalog.it;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cardcatalog.testing.CaptureSimulator;
import dev.cardcatalog.testing.ExifImages;
import dev.cardcatalog.testing.ScryfallStandIn;
import dev.cardcatalog.testing.ServiceProcess;
import dev.cardcatalog.testing.TestDatabase;
import io.restassured.config.DecoderConfig;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * One art index for every replica (SERVICE.md §5.8): an index built on one instance is served byte for byte, with
 * the same {@code ETag}, and matched alike by another, and by an instance started afterwards with an empty data
 * directory.
 */
class ArtIndexReplicasIT {

    private static final Map<String, String> CONFIG = Map.of(
            "card-catalog.art.image-hosts", "cards.scryfall.io,c1.scryfall.com",
            "card-catalog.scryfall.image-spacing", "2ms",
            "card-catalog.art.index-poll-interval", "1s",
            "card-catalog.art.match-warm-up-passes", "3",
            "card-catalog.art.match-warm-up-over-http", "2s",
            // which instance holds which partition of the commands, for a failure's message
            "quarkus.log.category.\"org.apache.kafka.clients.consumer.internals.ConsumerRebalanceListenerInvoker\""
                    + ".level", "INFO");

    @Test
    void anIndexBuiltOnOneInstanceIsServedAndMatchedAlikeByEveryInstance() {
        try (Instances instances = new Instances()) {
            ServiceProcess a = instances.start("a", CONFIG);
            ServiceProcess b = instances.start("b", CONFIG);
            instances.awaitConsumers();
            succeed(a, post(a, "/api/refreshes"), List.of(a, b));
            succeed(a, post(a, "/api/art-builds"), List.of(a, b));

            // the command went to whichever instance Kafka gave its partition to: the builder matches with the
            // new index at once, the other switches its matcher at its next poll (1 s here), within 5 s
            JsonPath indexOnA = index(a);
            String name = indexOnA.getString("file_name");
            assertThat(index(b).getString("file_name")).isEqualTo(name);
            Response fileOnA = file(a, name, null);
            assertThat(fileOnA.statusCode()).isEqualTo(200);
            assertServesTheSameFile(b, name, fileOnA);
            // a photo of one indexed artwork (of whichever face of its card it is on)
            Map<String, Object> artwork = TestDatabase.rows(
                    "SELECT illustration_id::text AS artwork, image_uri FROM art_fingerprint "
                            + "ORDER BY illustration_id LIMIT 1").get(0);
            byte[] photo = CaptureSimulator.captureJpeg(
                    ScryfallStandIn.imageSeedOf((String) artwork.get("image_uri")), 7);
            JsonPath matchOnA = awaitMatchWith(a, photo, name);
            assertThat(matchOnA.getString("matches[0].illustration_id")).isEqualTo(artwork.get("artwork"));
            assertThat(awaitMatchWith(b, photo, name).getList("matches")).isEqualTo(matchOnA.getList("matches"));
            // a photo of a back face (SERVICE.md §5.1) finds its artwork, confident, and its printing says the face
            Map<String, Object> back = TestDatabase.rows(
                    "SELECT illustration_id::text AS artwork, card_id::text AS card, image_uri FROM art_fingerprint "
                            + "WHERE image_uri LIKE '%/small/back/%' ORDER BY illustration_id LIMIT 1").get(0);
            JsonPath backOnB = match(b, CaptureSimulator.captureJpeg(
                    ScryfallStandIn.imageSeedOf((String) back.get("image_uri")), 8));
            assertThat(backOnB.getString("matches[0].illustration_id")).isEqualTo(back.get("artwork"));
            assertThat(backOnB.getBoolean("matches[0].confident")).isTrue();
            assertThat(backOnB.getInt("matches[0].printings.find { it.id == '" + back.get("card") + "' }.face.index"))
                    .isGreaterThanOrEqualTo(1);
            // the same photo as phones store it (SERVICE.md §5.9): with each EXIF orientation, 2-8, the mirrored ones
            // included, in either byte order; and lying turned without a tag, found at the turn that undoes it
            long seed = ScryfallStandIn.imageSeedOf((String) artwork.get("image_uri"));
            for (int value = 2; value <= 8; value++) {
                final int v = value;
                byte[] tagged = ExifImages.jpegWithExif(
                        CaptureSimulator.captureJpeg(seed, 20 + v, CaptureSimulator.Severity.REALISTIC,
                                image -> ExifImages.stored(image, v)),
                        ExifImages.orientationTiff(v, v % 2 == 0 ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN));
                JsonPath upright = match(v % 2 == 0 ? a : b, tagged);
                assertThat(upright.getString("matches[0].illustration_id")).as("EXIF orientation %d", v)
                        .isEqualTo(artwork.get("artwork"));
                assertThat(upright.getBoolean("matches[0].confident")).as("EXIF orientation %d", v).isTrue();
                assertThat(upright.getInt("matches[0].rotation")).as("EXIF orientation %d", v).isZero();
            }
            for (int rotation : List.of(90, 180, 270)) {
                // lying turned counter-clockwise by `rotation`: turning it that much clockwise puts it upright
                byte[] lying = CaptureSimulator.captureJpeg(seed, 30 + rotation / 90,
                        CaptureSimulator.Severity.REALISTIC,
                        image -> ExifImages.turnedClockwise(image, 360 - rotation));
                JsonPath turned = match(rotation == 180 ? a : b, lying);
                assertThat(turned.getString("matches[0].illustration_id")).as("turned %d", rotation)
                        .isEqualTo(artwork.get("artwork"));
                assertThat(turned.getBoolean("matches[0].confident")).as("turned %d", rotation).isTrue();
                assertThat(turned.getInt("matches[0].rotation")).as("turned %d", rotation).isEqualTo(rotation);
            }

            // C starts afterwards with an empty data directory and answers alike at once
            assertThat(instances.dataDirectory("c")).doesNotExist();
            ServiceProcess c = instances.start("c", CONFIG);
            // ready only once its match code has run over its own drawn photos: its first photo is not the one
            // that loads and compiles the card finder, against the 2 s upload deadline
            JsonPath ready = given().get(c.managementUrl() + "/health/ready").then().statusCode(200).extract()
                    .jsonPath();
            String outcome = ready.getString("checks.find { it.name == 'match warm-up' }.data.outcome");
            assertThat(outcome).startsWith("3 passes of 6 photos, 39 of 39 cards found, in ");
            assertWarmedUpOverHttp(c, outcome);
            assertThat(index(c).getString("file_name")).isEqualTo(name);
            JsonPath matchOnC = match(c, photo);
            assertThat(matchOnC.getString("index")).isEqualTo(name);
            assertThat(matchOnC.getList("matches")).isEqualTo(matchOnA.getList("matches"));
            assertServesTheSameFile(c, name, fileOnA);
            assertThat(Files.exists(instances.dataDirectory("c").resolve("art/index").resolve(name))).isTrue();
        }
    }

    /**
     * Then 2 s of its own requests over HTTP, each photo's cards found, confident: every request answered 200 and
     * every card drawn in them found. Their path answers 404 to anyone without the process's token, and their
     * requests are not in the match endpoint's metrics.
     */
    private static void assertWarmedUpOverHttp(ServiceProcess service, String outcome) {
        Matcher http = Pattern.compile("; (\\d+) requests over HTTP in \\d+ ms, (\\d+) answered 200, "
                + "(\\d+) of (\\d+) cards found$").matcher(outcome);
        assertThat(http.find()).as(outcome).isTrue();
        int sent = Integer.parseInt(http.group(1));
        assertThat(sent).as(outcome).isPositive();
        assertThat(Integer.parseInt(http.group(2))).as(outcome).isEqualTo(sent);
        assertThat(Integer.parseInt(http.group(4))).as(outcome).isPositive();
        assertThat(Integer.parseInt(http.group(3))).as(outcome).isEqualTo(Integer.parseInt(http.group(4)));
        byte[] photo = CaptureSimulator.captureJpeg(7, 11);
        for (String token : new String[] {null, "", "0123456789abcdef0123456789abcdef"}) {
            var request = given().baseUri(service.baseUrl()).contentType("image/jpeg").body(photo);
            if (token != null) {
                request = request.header("Card-Catalog-Warm-Up", token);
            }
            request.post("/api/art-index/matches/warm-up").then().statusCode(404)
                    .contentType("application/problem+json");
        }
        String metrics = given().get(service.managementUrl() + "/metrics").then().statusCode(200).extract()
                .asString();
        assertThat(metrics).contains("uri=\"/api/art-index/matches\"")
                .doesNotContain("/api/art-index/matches/warm-up");
    }

    private static void assertServesTheSameFile(ServiceProcess service, String name, Response expected) {
        Response file = file(service, name, null);
        assertThat(file.statusCode()).isEqualTo(200);
        assertThat(file.asByteArray()).isEqualTo(expected.asByteArray());
        assertThat(file.header("ETag")).isEqualTo(expected.header("ETag")).isEqualTo("\"" + name + "\"");
        assertThat(file.header("Content-Encoding")).isEqualTo("gzip");
        assertThat(file(service, name, "\"" + name + "\"").statusCode()).isEqualTo(304);
    }

    private static String post(ServiceProcess service, String path) {
        return given().baseUri(service.baseUrl()).auth().preemptive().basic("operator", "operator-test-password")
                .contentType("application/json").body("{}").post(path)
                .then().statusCode(202).extract().jsonPath().getString("id");
    }

    private static void succeed(ServiceProcess service, String jobId, List<ServiceProcess> witnesses) {
        JsonPath job = TakeoverIT.awaitFinished(service, jobId, Duration.ofSeconds(180), witnesses);
        assertThat(job.getString("state")).as(job.prettify()).isEqualTo("succeeded");
    }

    /**
     * The first match answer made with the index {@code name}; before its first load an instance answers 404, after
     * it 200. Within 60 s: the index reaches the instance within its 1 s poll, but the wait includes the match calls
     * themselves, and an instance's first match (the card finder's classes loaded, nothing compiled yet) took over
     * 5 s on the loaded 2-core machine with the other IT forks beside it.
     */
    private static JsonPath awaitMatchWith(ServiceProcess service, byte[] photo, String name) {
        JsonPath[] answer = new JsonPath[1];
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).ignoreExceptions().until(() -> {
            answer[0] = match(service, photo);
            return name.equals(answer[0].getString("index"));
        });
        return answer[0];
    }

    private static JsonPath index(ServiceProcess service) {
        return given().baseUri(service.baseUrl()).get("/api/art-index").then().statusCode(200).extract().jsonPath();
    }

    private static JsonPath match(ServiceProcess service, byte[] photo) {
        return given().baseUri(service.baseUrl()).contentType("image/jpeg").body(photo)
                .post("/api/art-index/matches").then().statusCode(200).extract().jsonPath();
    }

    /** The file as sent (gzip, not decoded), revalidated when {@code ifNoneMatch} is given. */
    private static Response file(ServiceProcess service, String name, String ifNoneMatch) {
        var request = given().baseUri(service.baseUrl()).config(io.restassured.RestAssured.config()
                .decoderConfig(DecoderConfig.decoderConfig().noContentDecoders()));
        if (ifNoneMatch != null) {
            request = request.header("If-None-Match", ifNoneMatch);
        }
        return request.get("/api/art-index/files/" + name);
    }
}
