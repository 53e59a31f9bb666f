package dev.cardcatalog.it;

import static dev.cardcatalog.testing.TestUsers.asOperator;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cardcatalog.testing.ScryfallStandIn;
import dev.cardcatalog.testing.ScryfallStandIn.Fault;
import dev.cardcatalog.testing.ServiceProcess;
import dev.cardcatalog.testing.TestData;
import dev.cardcatalog.testing.TestDatabase;
import io.restassured.config.DecoderConfig;
import io.restassured.path.json.JsonPath;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;

/**
 * An art build whose process is killed mid-way: the restarted service (same data directory) takes the job over,
 * fetches no image it had already fetched, and writes an index byte-identical to an uninterrupted build's.
 */
class ArtBuildKillIT {

    private static final Map<String, String> CONFIG = Map.of(
            "card-catalog.art.enabled", "false",
            "card-catalog.art.image-hosts", "cards.scryfall.io,c1.scryfall.com",
            "card-catalog.scryfall.image-spacing", "2ms",
            "card-catalog.jobs.art-build-stale-after", "4s",
            "card-catalog.jobs.sweep-interval", "1s",
            "card-catalog.jobs.progress-interval", "500ms");

    @Test
    void aKilledBuildIsTakenOverAndWritesTheSameIndexWithoutFetchingAnImageTwice() throws Exception {
        ScryfallStandIn standIn = ScryfallStandIn.shared();
        try (Instances instances = new Instances()) {
            ServiceProcess first = instances.start("art", CONFIG);
            succeed(first, post(first, "/api/refreshes"));
            succeed(first, post(first, "/api/art-builds"));
            byte[] uninterrupted = index(first);

            // forget the fingerprints and the images, keep the catalog, and build again
            TestDatabase.execute("TRUNCATE art_fingerprint");
            TestData.deleteTree(instances.dataDirectory("art").resolve("art"));
            standIn.reset();
            // 130 images, then one served slowly (about 10 s, 1 KiB a second): the build is under way when killed
            Fault[] faults = new Fault[131];
            java.util.Arrays.fill(faults, Fault.pass());
            faults[130] = Fault.slowBody(1024, Duration.ofSeconds(1));
            standIn.enqueue("/", faults);
            String jobId = post(first, "/api/art-builds");
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                Object done = job(first, jobId).get("runs[0].counts.fingerprinted");
                return done != null && ((Number) done).longValue() >= 120;
            });
            first.kill();

            ServiceProcess restarted = instances.start("art", CONFIG);
            JsonPath done = succeed(restarted, jobId);

            assertThat(done.getList("runs")).hasSize(2);
            assertThat(done.getString("runs[1].status")).isEqualTo("interrupted");
            assertThat(index(restarted)).isEqualTo(uninterrupted);
            Map<String, Integer> fetches = new HashMap<>();
            standIn.requests().stream().filter(r -> ScryfallStandIn.isImage(r.path()))
                    .forEach(r -> fetches.merge(r.path(), 1, Integer::sum));
            // only an image whose answer was on its way when the process died may be fetched again
            assertThat(fetches.values().stream().filter(n -> n > 1).count()).isLessThanOrEqualTo(1);
            assertThat(done.getLong("runs[0].counts.cached") + done.getLong("runs[0].counts.already"))
                    .isGreaterThanOrEqualTo(120);
        }
    }

    private static String post(ServiceProcess service, String path) {
        return asOperator().baseUri(service.baseUrl()).contentType("application/json").body("{}").post(path)
                .then().statusCode(202).extract().jsonPath().getString("id");
    }

    private static JsonPath job(ServiceProcess service, String jobId) {
        return TakeoverIT.job(service, jobId);
    }

    private static JsonPath succeed(ServiceProcess service, String jobId) {
        JsonPath job = TakeoverIT.awaitFinished(service, jobId, Duration.ofSeconds(120));
        assertThat(job.getString("state")).as(job.prettify()).isEqualTo("succeeded");
        return job;
    }

    private static byte[] index(ServiceProcess service) throws IOException {
        String name = given().baseUri(service.baseUrl()).get("/api/art-index").jsonPath().getString("file_name");
        byte[] gz = given().baseUri(service.baseUrl())
                .config(io.restassured.RestAssured.config().decoderConfig(DecoderConfig.decoderConfig()
                        .noContentDecoders()))
                .get("/api/art-index/files/" + name).asByteArray();
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gz))) {
            return in.readAllBytes();
        }
    }
}
