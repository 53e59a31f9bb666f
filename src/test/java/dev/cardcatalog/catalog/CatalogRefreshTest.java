package dev.cardcatalog.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cardcatalog.testing.CardCatalogTestResource;
import dev.cardcatalog.testing.Jobs;
import dev.cardcatalog.testing.ScryfallStandIn;
import dev.cardcatalog.testing.ScryfallStandIn.BulkShape;
import dev.cardcatalog.testing.TestData;
import dev.cardcatalog.testing.TestDatabase;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The refresh's rules (SERVICE.md §4) through the service, against the stand-in. */
@QuarkusTest
@WithTestResource(CardCatalogTestResource.class)
class CatalogRefreshTest {

    // English paper cards of the sample
    private static final String DUSK_DAWN = "e9d5aee0-5963-41db-a22b-cfea40a967a3";
    private static final String RECKLESS_WAIF = "028aeebc-4073-4595-94da-02f9f96ea148";
    private static final String FARID = "003367c7-6cb8-4451-8349-76ce5d21e367";
    private static final String GRISHNAKH = "6385e769-f805-499d-9f47-494533362152";
    private static final String LIFE_DEATH = "2424f2c4-366b-42cf-bf4b-a8a5bfdd2c4b";

    private final ScryfallStandIn standIn = ScryfallStandIn.shared();

    @BeforeEach
    void reset() {
        TestData.reset();
    }

    @Test
    void malformedLineUnknownLayoutNewFieldRepeatedCardAndMissingCardRefreshCorrectly() {
        assertThat(applied(Jobs.postRefresh("manual")).getLong("runs[0].counts.seen")).isEqualTo(827);

        List<String> lines = new ArrayList<>();
        for (String line : ScryfallStandIn.sampleCardLines()) {
            if (line.contains("\"id\":\"" + RECKLESS_WAIF + "\"")) {
                continue; // missing since the last pass
            }
            if (line.contains("\"id\":\"" + DUSK_DAWN + "\"")) {
                lines.add("{\"object\":\"card\",\"id\":\"" + DUSK_DAWN + "\",\"name\":\"Dusk // Dawn\",\"lang\":"); // cut
                continue;
            }
            if (line.contains("\"id\":\"" + FARID + "\"")) {
                lines.add(line.replaceFirst("\\{", "{\"a_field_scryfall_added\":{\"nested\":[1,2]},"));
                continue;
            }
            lines.add(line);
            if (line.contains("\"id\":\"" + GRISHNAKH + "\"")) {
                lines.add(line); // repeated
            }
        }
        String unknownLayout = ScryfallStandIn.sampleCardLines().stream()
                .filter(l -> l.contains("\"id\":\"" + LIFE_DEATH + "\"")).findFirst().orElseThrow()
                .replace(LIFE_DEATH, "11111111-2222-4333-8444-555555555555")
                .replace("\"layout\":\"split\"", "\"layout\":\"front_card\"");
        lines.add(unknownLayout);
        standIn.serveDefaultCards("default-cards-20261015090000", lines);

        JsonPath second = applied(Jobs.postRefresh("manual"));

        assertThat(second.getLong("runs[0].counts.malformed")).isEqualTo(1);
        assertThat(second.getLong("runs[0].counts.duplicates")).isEqualTo(1);
        assertThat(second.getLong("runs[0].counts.retired")).isEqualTo(1);
        assertThat(second.getLong("runs[0].counts.inserted")).isEqualTo(1);
        assertThat(second.getLong("runs[0].counts.updated")).isEqualTo(1);
        assertThat(second.getLong("runs[0].counts.seen")).isEqualTo(827 - 1 - 1 + 1);
        assertThat(TestDatabase.value("SELECT retired_at IS NOT NULL FROM card WHERE id = ?::uuid", RECKLESS_WAIF))
                .isEqualTo(true);
        // the malformed record named its card: it is kept, not retired
        assertThat(TestDatabase.value("SELECT retired_at IS NULL FROM card WHERE id = ?::uuid", DUSK_DAWN))
                .isEqualTo(true);
        assertThat(TestDatabase.value("SELECT layout FROM card WHERE id = '11111111-2222-4333-8444-555555555555'"))
                .isEqualTo("front_card");
        // the card object is stored as the file had it (migration V8: bytes PostgreSQL does not parse)
        assertThat(io.restassured.RestAssured.get("/api/cards/" + FARID).then().statusCode(200).extract().jsonPath()
                .getList("scryfall.a_field_scryfall_added.nested", Integer.class)).containsExactly(1, 2);

        standIn.reset(); // the sample again: the missing card comes back
        JsonPath third = applied(Jobs.postRefresh("manual"));
        assertThat(third.getLong("runs[0].counts.restored")).isEqualTo(1);
        assertThat(third.getLong("runs[0].counts.retired")).isEqualTo(1); // the unknown-layout card left again
        assertThat(TestDatabase.value("SELECT retired_at IS NULL FROM card WHERE id = ?::uuid", RECKLESS_WAIF))
                .isEqualTo(true);
    }

    @Test
    void aFileWithoutAValidRecordFailsTheRunAndRetiresNothing() {
        applied(Jobs.postRefresh("manual"));
        standIn.serveDefaultCards("default-cards-20261016000000", List.of("not json", "{\"id\": 5}"));

        JsonPath job = Jobs.awaitFinished(Jobs.postRefresh("manual"));

        assertThat(job.getString("state")).isEqualTo("failed");
        assertThat(job.getString("runs[0].status")).isEqualTo("failed");
        assertThat(job.getString("runs[0].message")).isEqualTo("no valid records (2 malformed)");
        assertThat(TestDatabase.count("SELECT count(*) FROM card WHERE retired_at IS NOT NULL")).isZero();
    }

    @Test
    void theLegacyShapeIsReadAsAJsonArrayCheckedAgainstItsDecodedSize() {
        standIn.bulkShape(BulkShape.LEGACY);

        JsonPath job = applied(Jobs.postRefresh("manual"));

        assertThat(job.getLong("runs[0].counts.seen")).isEqualTo(ScryfallStandIn.SAMPLE_ENGLISH_PAPER_CARDS);
        assertThat(bulkFiles()).extracting(p -> p.getFileName().toString())
                .containsExactly(ScryfallStandIn.SAMPLE_VERSION + ".json.gz");
    }

    @Test
    void aDownloadWhoseSizeDiffersFromThePublishedOneIsDiscardedAndRetriedLater() {
        standIn.misreportSizesBy(7);

        JsonPath job = Jobs.awaitState(Jobs.postRefresh("manual"), Duration.ofSeconds(30), Set.of("waiting"));

        assertThat(job.getString("runs[0].status")).isEqualTo("failed");
        assertThat(job.getString("runs[0].stage")).isEqualTo("download");
        assertThat(job.getString("runs[0].message")).contains("compressed_size says").contains("discarded");
        assertThat(job.getString("last_error")).contains("compressed_size says");
        // an integrity error is transient: the first back-off is 30 s
        assertThat(Duration.between(Instant.parse(job.getString("runs[0].finished_at")),
                Instant.parse(job.getString("retry_at")))).isBetween(Duration.ofSeconds(29), Duration.ofSeconds(30));
        assertThat(bulkFiles()).isEmpty();
        assertThat(TestDatabase.count("SELECT count(*) FROM card")).isZero();
    }

    @Test
    void aCompleteFileIsReusedAndOnlyTheTwoNewestAreKept() {
        applied(Jobs.postRefresh("manual"));
        applied(Jobs.postRefresh("manual"));
        assertThat(standIn.requests("/file/")).hasSize(1);

        standIn.serveDefaultCards("default-cards-20261101000000", ScryfallStandIn.sampleCardLines());
        applied(Jobs.postRefresh("manual"));
        standIn.serveDefaultCards("default-cards-20261108000000", ScryfallStandIn.sampleCardLines());
        applied(Jobs.postRefresh("manual"));

        assertThat(bulkFiles()).extracting(p -> p.getFileName().toString()).containsExactlyInAnyOrder(
                "default-cards-20261101000000.jsonl.gz", "default-cards-20261108000000.jsonl.gz");
    }

    @Test
    void setsAreReadPageByPage() {
        standIn.setsPageSize(100);

        JsonPath job = applied(Jobs.postRefresh("manual"));

        assertThat(job.getLong("runs[0].counts.sets")).isEqualTo(ScryfallStandIn.SAMPLE_SETS);
        assertThat(standIn.requests("/sets")).hasSize(9);
        assertThat(TestDatabase.count("SELECT count(*) FROM card_set")).isEqualTo(ScryfallStandIn.SAMPLE_SETS);
    }

    @Test
    void doubleFacedCardsTakeTheirImageAndIllustrationFromTheFrontFace() {
        applied(Jobs.postRefresh("manual"));

        var row = TestDatabase.rows("SELECT illustration_id::text AS ill, image_small_uri AS img, search_names AS names "
                + "FROM card WHERE id = ?::uuid", RECKLESS_WAIF).get(0);

        assertThat(row.get("ill")).isEqualTo("dfe66e52-78c8-4e58-8c72-ae54caf101f9");
        assertThat((String) row.get("img")).contains("/small/front/");
        assertThat((String) row.get("names")).contains("merciless predator").contains("reckless waif");
    }

    private static JsonPath applied(String jobId) {
        JsonPath job = Jobs.awaitFinished(jobId);
        assertThat(job.getString("state")).as(job.prettify()).isEqualTo("succeeded");
        return job;
    }

    private static List<Path> bulkFiles() {
        Path dir = TestData.DATA_DIR.resolve("bulk");
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.toList();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
