package dev.cardcatalog.catalog;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cardcatalog.platform.Paging;
import dev.cardcatalog.testing.CardCatalogTestResource;
import dev.cardcatalog.testing.Jobs;
import dev.cardcatalog.testing.TestData;
import dev.cardcatalog.testing.TestDatabase;
import io.quarkus.test.common.WithTestResource;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The name index finds what the SQL search finds, page for page, over the real sample catalog, and is used only while
 * it shows the table as it is: a change to {@code card} makes the next search run in SQL.
 */
@QuarkusTest
@WithTestResource(CardCatalogTestResource.class)
class NameIndexTest {

    @Inject
    NameIndex nameIndex;

    @Inject
    CardResource cards;

    @Inject
    javax.sql.DataSource dataSource;

    @Inject
    CatalogConfig catalogConfig;

    @BeforeEach
    void catalog() {
        TestData.reset();
        Jobs.awaitFinished(Jobs.postRefresh("manual"));
    }

    @Test
    void findsWhatTheSqlSearchFindsPageForPage() throws Exception {
        nameIndex.rebuild();
        NameIndex.Snapshot snapshot = nameIndex.at(changes()).orElseThrow();
        assertThat(snapshot.cards()).isEqualTo(
                TestDatabase.count("SELECT count(*) FROM card WHERE retired_at IS NULL")).isGreaterThan(800);

        List<String> queries = new ArrayList<>(List.of("the", "of", "a", "e", "ancient", "dragon", "æther",
                "Séance", "JACE", "nightmares", "goblin guide", "t o", "zq1x", "ö", "-", ",", "'", "!", "//"));
        Random random = new Random(5);
        List<Map<String, Object>> names = TestDatabase.rows(
                "SELECT name FROM card WHERE retired_at IS NULL ORDER BY id LIMIT 60");
        for (Map<String, Object> row : names) {
            String name = (String) row.get("name");
            int length = Math.min(name.length(), 1 + random.nextInt(8));
            int from = random.nextInt(name.length() - length + 1);
            queries.add(name.substring(from, from + length));
            queries.add(name);
        }
        List<String> languages = new ArrayList<>();
        languages.add(null);
        for (Map<String, Object> row : TestDatabase.rows("SELECT DISTINCT lang FROM card ORDER BY lang")) {
            languages.add((String) row.get("lang"));
        }
        languages.add("xx");

        int compared = 0;
        for (String query : queries) {
            if (query.isBlank()) {
                continue;
            }
            String key = CardMapper.searchKey(query.trim());
            for (String lang : languages) {
                for (String[] page : new String[][] {{"1", "20"}, {"2", "7"}, {"40", "5"}, {"1", "100"}}) {
                    Paging paging = Paging.of(page[0], page[1]);
                    CardViews.CardPage inSql = cards.inSql(key, null, null, lang, paging).await().indefinitely();
                    NameIndex.Matches fromIndex = NameIndex.find(snapshot, key, lang, paging.offset(),
                            paging.size(), CardResource.MAX_TOTAL + 1);
                    String what = query + " lang=" + lang + " page=" + page[0] + " size=" + page[1];
                    assertThat(fromIndex.ids()).as(what)
                            .isEqualTo(inSql.items().stream().map(CardViews.CardSummary::id).toList());
                    assertThat(Math.min(fromIndex.total(), CardResource.MAX_TOTAL)).as(what).isEqualTo(inSql.total());
                    assertThat(fromIndex.total() > CardResource.MAX_TOTAL).as(what).isEqualTo(inSql.totalCapped());
                    compared++;
                }
            }
        }
        assertThat(compared).isGreaterThan(1_000);

        // and over HTTP, where the index serves: the same page, the cards' fields read from the table
        for (String query : List.of("the", "dragon", "Séance")) {
            String key = CardMapper.searchKey(query);
            CardViews.CardPage inSql = cards.inSql(key, null, null, null, Paging.of("2", "10")).await().indefinitely();
            List<String> ids = given().queryParam("name", query).queryParam("page", 2).queryParam("size", 10)
                    .get("/api/cards").then().statusCode(200).extract().jsonPath().getList("items.id");
            assertThat(ids).as(query).isEqualTo(inSql.items().stream().map(c -> c.id().toString()).toList());
        }
        assertThat(nameIndex.at(changes())).as("searches change nothing").isPresent();
    }

    @Test
    void aChangeToTheTableIsSeenAtOnceAndTheIndexIsNotUsedUntilReadAgain() throws Exception {
        nameIndex.rebuild();
        long before = changes();
        assertThat(nameIndex.at(before)).isPresent();
        Map<String, Object> card = TestDatabase.rows("SELECT id, name FROM card WHERE retired_at IS NULL "
                + "AND name LIKE '% %' ORDER BY id LIMIT 1").get(0);
        UUID id = (UUID) card.get("id");
        String name = (String) card.get("name");
        assertThat(ids(name)).contains(id.toString());

        // an operator's hand-made change counts as much as a refresh's
        TestDatabase.execute("UPDATE card SET retired_at = now() WHERE id = ?", id);
        assertThat(changes()).isGreaterThan(before);
        assertThat(nameIndex.at(changes())).isEmpty();
        assertThat(ids(name)).doesNotContain(id.toString());

        TestDatabase.execute("UPDATE card SET retired_at = NULL WHERE id = ?", id);
        assertThat(ids(name)).contains(id.toString());
        nameIndex.rebuild();
        assertThat(nameIndex.at(changes())).isPresent();
        assertThat(ids(name)).contains(id.toString());

        TestDatabase.execute("TRUNCATE card, card_face_image");
        assertThat(nameIndex.at(changes())).isEmpty();
        assertThat(ids(name)).isEmpty();
    }

    @Test
    void aCatalogOverTheLimitIsNotIndexedAndItsSearchesRunInSql() throws Exception {
        NameIndex small = new NameIndex(dataSource, limitedTo(100), new SimpleMeterRegistry());
        small.poll();
        assertThat(small.at(changes())).isEmpty();
        small.poll();
        assertThat(small.at(changes())).isEmpty();
        NameIndex large = new NameIndex(dataSource, limitedTo(1_000_000), new SimpleMeterRegistry());
        large.poll();
        assertThat(large.at(changes())).isPresent();
    }

    private CatalogConfig limitedTo(int maxCards) {
        return new CatalogConfig() {
            @Override
            public List<String> languages() {
                return catalogConfig.languages();
            }

            @Override
            public int batchSize() {
                return catalogConfig.batchSize();
            }

            @Override
            public java.time.Duration nameIndexPollInterval() {
                return catalogConfig.nameIndexPollInterval();
            }

            @Override
            public int nameIndexMaxCards() {
                return maxCards;
            }

            @Override
            public int warmUpRecords() {
                return 0;
            }

            @Override
            public int keepBulkFiles() {
                return catalogConfig.keepBulkFiles();
            }
        };
    }

    private static List<String> ids(String name) {
        return given().queryParam("name", name).queryParam("size", 100).get("/api/cards").then().statusCode(200)
                .extract().jsonPath().getList("items.id");
    }

    private static long changes() {
        return TestDatabase.count("SELECT changes FROM card_change");
    }
}
