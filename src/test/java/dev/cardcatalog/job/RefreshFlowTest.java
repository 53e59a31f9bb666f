package dev.cardcatalog.job;

import static dev.cardcatalog.testing.TestUsers.asOperator;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;

import dev.cardcatalog.testing.CardCatalogTestResource;
import dev.cardcatalog.testing.Jobs;
import dev.cardcatalog.testing.ScryfallStandIn;
import dev.cardcatalog.testing.TestData;
import dev.cardcatalog.testing.TestDatabase;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** POST /api/refreshes → Kafka → worker → PostgreSQL, against the stand-in's real Scryfall data. */
@QuarkusTest
@WithTestResource(CardCatalogTestResource.class)
class RefreshFlowTest {

    @BeforeEach
    void reset() {
        TestData.reset();
    }

    @Test
    void manualRefreshAppliesEveryEnglishPaperCardAndTheSets() {
        String location = asOperator().contentType("application/json").body("{\"trigger\":\"manual\"}")
                .post("/api/refreshes")
                .then().statusCode(202)
                .header("Location", matchesPattern(".*/api/jobs/[0-9a-f-]{36}"))
                .body("kind", equalTo("refresh"))
                .body("trigger", equalTo("manual"))
                .extract().header("Location");
        String jobId = location.substring(location.lastIndexOf('/') + 1);

        JsonPath job = Jobs.awaitFinished(jobId);

        assertThat(job.getString("state")).isEqualTo("succeeded");
        assertThat(job.getString("runs[0].status")).isEqualTo("applied");
        assertThat(job.getString("runs[0].version")).isEqualTo(ScryfallStandIn.SAMPLE_VERSION);
        assertThat(job.getLong("runs[0].counts.seen")).isEqualTo(ScryfallStandIn.SAMPLE_ENGLISH_PAPER_CARDS);
        assertThat(job.getLong("runs[0].counts.inserted")).isEqualTo(ScryfallStandIn.SAMPLE_ENGLISH_PAPER_CARDS);
        assertThat(job.getLong("runs[0].counts.sets")).isEqualTo(ScryfallStandIn.SAMPLE_SETS);
        assertThat(TestDatabase.count("SELECT count(*) FROM card WHERE retired_at IS NULL"))
                .isEqualTo(ScryfallStandIn.SAMPLE_ENGLISH_PAPER_CARDS);
        assertThat(TestDatabase.count("SELECT count(*) FROM card_set")).isEqualTo(ScryfallStandIn.SAMPLE_SETS);
        // every request carried the service's User-Agent and an Accept header
        assertThat(ScryfallStandIn.shared().requests()).isNotEmpty().allSatisfy(request -> {
            assertThat(request.header("User-Agent")).startsWith("card-catalog/");
            assertThat(request.header("Accept")).isNotBlank();
        });
    }

    @Test
    void scheduledRefreshOfAnAppliedVersionIsSkippedAndAManualOneWritesNothing() {
        assertThat(Jobs.awaitFinished(Jobs.postRefresh("manual")).getString("state")).isEqualTo("succeeded");

        JsonPath scheduled = Jobs.awaitFinished(Jobs.postRefresh("scheduled"));
        assertThat(scheduled.getString("state")).isEqualTo("skipped");
        assertThat(scheduled.getString("runs[0].status")).isEqualTo("skipped");
        assertThat(scheduled.getString("runs[0].message"))
                .isEqualTo(ScryfallStandIn.SAMPLE_VERSION + " already applied");

        JsonPath manual = Jobs.awaitFinished(Jobs.postRefresh("manual"));
        assertThat(manual.getString("state")).isEqualTo("succeeded");
        assertThat(manual.getLong("runs[0].counts.seen")).isEqualTo(ScryfallStandIn.SAMPLE_ENGLISH_PAPER_CARDS);
        assertThat(manual.getLong("runs[0].counts.inserted")).isZero();
        assertThat(manual.getLong("runs[0].counts.updated")).isZero();
        assertThat(manual.getLong("runs[0].counts.retired")).isZero();
    }
}
