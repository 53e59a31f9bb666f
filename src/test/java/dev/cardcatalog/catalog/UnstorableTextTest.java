package dev.cardcatalog.catalog;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cardcatalog.testing.CardCatalogTestResource;
import dev.cardcatalog.testing.Jobs;
import dev.cardcatalog.testing.ScryfallStandIn;
import dev.cardcatalog.testing.TestData;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 12, fault 3: a card whose strings hold a code point PostgreSQL text cannot hold (U+0000, which jsonb refused
 * as the JSON escape {@code \\u0000}, and the surrogates U+D800 to U+DFFF, which UTF-8 cannot encode and which the
 * JSON reader accepts as unpaired {@code \\uXXXX} escapes) is stored: its object exactly as the file had it, its
 * mapped columns with U+FFFD in place of the code point. A re-run of the same file writes nothing.
 */
@QuarkusTest
@WithTestResource(CardCatalogTestResource.class)
class UnstorableTextTest {

    private static final String FARID = "003367c7-6cb8-4451-8349-76ce5d21e367";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final ScryfallStandIn standIn = ScryfallStandIn.shared();

    @BeforeEach
    void reset() {
        TestData.reset();
    }

    @Test
    void aFileOfOneCardWithANulOrALoneSurrogateIsStoredAndARerunWritesNothing() throws Exception {
        int version = 0;
        for (String escape : List.of("\\u0000", "\\ud800", "\\udfff", "\\udbff\\u0000")) {
            String id = UUID.randomUUID().toString();
            String line = card(id, "Farid" + escape + "Salvager", "before" + escape + "after");
            standIn.serveDefaultCards("default-cards-2026120100000" + version++, List.of(line));

            JsonPath first = applied(Jobs.postRefresh("manual"));
            assertThat(first.getLong("runs[0].counts.seen")).as(escape).isEqualTo(1);
            assertThat(first.getLong("runs[0].counts.malformed")).as(escape).isZero();
            assertThat(first.getLong("runs[0].counts.inserted")).as(escape).isEqualTo(1);

            String body = given().get("/api/cards/" + id).then().statusCode(200).extract().asString();
            JsonNode answer = JSON.readTree(body);
            // the object is the file's, equal in meaning: the same strings, code points included
            assertThat(answer.get("scryfall")).as(escape).isEqualTo(JSON.readTree(line));
            assertThat(answer.get("scryfall").get("flavor_text").asText()).as(escape)
                    .isEqualTo(JSON.readTree("\"before" + escape + "after\"").asText());
            // the mapped name holds U+FFFD where text cannot hold the code point
            assertThat(answer.get("name").asText()).as(escape).startsWith("Farid\uFFFD").endsWith("Salvager")
                    .doesNotContain("\u0000");

            JsonPath again = applied(Jobs.postRefresh("manual"));
            assertThat(again.getLong("runs[0].counts.inserted")).as(escape).isZero();
            assertThat(again.getLong("runs[0].counts.updated")).as(escape).isZero();
            assertThat(again.getLong("runs[0].counts.malformed")).as(escape).isZero();
        }
    }

    @Test
    void everyCodePointTextCannotHoldIsStoredInNameAndObject() throws Exception {
        List<String> lines = new ArrayList<>();
        List<String> ids = new ArrayList<>();
        List<Integer> codePoints = new ArrayList<>();
        codePoints.add(0);
        for (int c = 0xD800; c <= 0xDFFF; c++) {
            codePoints.add(c);
        }
        for (int c : codePoints) {
            String escape = String.format(Locale.ROOT, "\\u%04x", c);
            String id = UUID.randomUUID().toString();
            ids.add(id);
            lines.add(card(id, "Farid " + escape, "flavour " + escape));
        }
        standIn.serveDefaultCards("default-cards-20261202000000", lines);

        JsonPath first = applied(Jobs.postRefresh("manual"));
        assertThat(first.getLong("runs[0].counts.seen")).isEqualTo(codePoints.size());
        assertThat(first.getLong("runs[0].counts.inserted")).isEqualTo(codePoints.size());
        assertThat(first.getLong("runs[0].counts.malformed")).isZero();
        for (int i : new int[] {0, 1, 1024, codePoints.size() - 1}) {
            String body = given().get("/api/cards/" + ids.get(i)).then().statusCode(200).extract().asString();
            assertThat(JSON.readTree(body).get("scryfall")).isEqualTo(JSON.readTree(lines.get(i)));
        }

        JsonPath again = applied(Jobs.postRefresh("manual"));
        assertThat(again.getLong("runs[0].counts.inserted")).isZero();
        assertThat(again.getLong("runs[0].counts.updated")).isZero();
        assertThat(again.getLong("runs[0].counts.seen")).isEqualTo(codePoints.size());
    }

    private static String faridLine;

    /** Farid from the sample under a new id, with this name and flavor text (JSON string contents, escapes raw). */
    private static String card(String id, String name, String flavorText) {
        if (faridLine == null) { // read once: the test makes 2,049 cards of it
            faridLine = ScryfallStandIn.sampleCardLines().stream()
                    .filter(l -> l.contains("\"id\":\"" + FARID + "\"")).findFirst().orElseThrow();
        }
        String farid = faridLine;
        return farid.replace("\"id\":\"" + FARID + "\"", "\"id\":\"" + id + "\"")
                .replaceFirst("\"name\":\"[^\"]*\"", java.util.regex.Matcher.quoteReplacement(
                        "\"name\":\"" + name + "\",\"flavor_text\":\"" + flavorText + "\""));
    }

    private static JsonPath applied(String jobId) {
        JsonPath job = Jobs.awaitFinished(jobId);
        assertThat(job.getString("state")).as(job.prettify()).isEqualTo("succeeded");
        return job;
    }
}
