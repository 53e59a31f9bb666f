package dev.cardcatalog.admin;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cardcatalog.job.JobKind;
import dev.cardcatalog.job.JobLedger;
import dev.cardcatalog.job.JobTrigger;
import dev.cardcatalog.testing.AdminPageProfile;
import dev.cardcatalog.testing.Browser;
import dev.cardcatalog.testing.CardCatalogTestResource;
import dev.cardcatalog.testing.Jobs;
import dev.cardcatalog.testing.ScryfallStandIn;
import dev.cardcatalog.testing.ScryfallStandIn.Fault;
import dev.cardcatalog.testing.TestData;
import dev.cardcatalog.testing.TestDatabase;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.net.URL;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The admin page (SERVICE.md §8) in a real headless Chromium, against the running service with the embedded
 * PostgreSQL and Kafka and the Scryfall stand-in. Each state is made through the service (a stand-in fault, a
 * button) except two that need something the service does not do on its own: a job queued whose command has not yet
 * been consumed (made with the ledger's own {@code createQueued}, as a POST does before it publishes), and a run
 * whose instance died (the rows a killed instance leaves behind, as TakeoverIT produces with a real kill). Every
 * state is looked at 375 × 812 and 1280 × 800 without sideways scrolling; screenshots go to
 * {@code target/admin-screenshots/}.
 */
@QuarkusTest
@TestProfile(AdminPageProfile.class)
@WithTestResource(CardCatalogTestResource.class)
class AdminPageBrowserTest {

    private static final String OPERATOR = "operator";
    private static final String OPERATOR_PASSWORD = "operator-test-password";
    private static final DateTimeFormatter UTC = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'")
            .withZone(ZoneOffset.UTC);
    private static Browser browser;

    private final ScryfallStandIn standIn = ScryfallStandIn.shared();

    @TestHTTPResource("/")
    URL root;

    @Inject
    JobLedger ledger;

    @BeforeAll
    static void startBrowser() {
        browser = Browser.start();
    }

    @AfterAll
    static void stopBrowser() {
        if (browser != null) {
            browser.close();
        }
    }

    @BeforeEach
    void reset() {
        TestData.reset();
    }

    private String page(String user, String password, String query) {
        return "http://" + user + ":" + password + "@" + root.getHost() + ":" + root.getPort() + "/admin" + query;
    }

    private void openAsOperator() {
        browser.open(page(OPERATOR, OPERATOR_PASSWORD, ""));
    }

    private String state(String kind) {
        return browser.attribute("#panel-" + kind, "data-state");
    }

    private void awaitState(String kind, String state, Duration atMost) {
        browser.await(atMost, kind + " panel to be " + state, b -> state.equals(state(kind)));
    }

    @Test
    void neverRunIsIdleAndAViewerSeesNoButtons() {
        openAsOperator();

        assertThat(state("refresh")).isEqualTo("never-run");
        assertThat(state("art-build")).isEqualTo("never-run");
        assertThat(browser.text("#panel-refresh .headline")).isEqualTo("Never run.");
        assertThat(browser.text("#panel-art-build .headline")).isEqualTo("Never run.");
        assertThat(browser.attribute("#admin", "data-poll")).isEqualTo("false");
        assertThat(browser.attribute("#start-refresh", "disabled")).isNull();
        assertThat(browser.text("#start-refresh")).isEqualTo("Refresh now");
        assertThat(browser.text("#start-art-build")).isEqualTo("Build art index");
        browser.look("never-run");

        String viewerPage = given().auth().preemptive().basic("viewer", "viewer-test-password").get("/admin")
                .then().statusCode(200).extract().asString();
        assertThat(viewerPage).contains("Never run.").doesNotContain("<button").doesNotContain("<form");
        given().auth().preemptive().basic("viewer", "viewer-test-password").contentType("application/x-www-form-urlencoded")
                .formParam("csrf-token", "x").post("/admin/refreshes").then().statusCode(403);
        given().get("/admin").then().statusCode(401);
        assertThat(TestDatabase.count("SELECT count(*) FROM job")).isZero();
    }

    @Test
    void aFormWithoutTheCsrfTokenOrWithAWrongOneIsRefused() {
        Response first = given().auth().preemptive().basic(OPERATOR, OPERATOR_PASSWORD).get("/admin");
        String cookie = first.getCookie("csrf-token");
        assertThat(cookie).isNotBlank();

        given().auth().preemptive().basic(OPERATOR, OPERATOR_PASSWORD).redirects().follow(false)
                .contentType("application/x-www-form-urlencoded").formParam("nothing", "")
                .post("/admin/refreshes").then().statusCode(400);
        given().auth().preemptive().basic(OPERATOR, OPERATOR_PASSWORD).redirects().follow(false)
                .cookie("csrf-token", cookie).contentType("application/x-www-form-urlencoded")
                .formParam("csrf-token", "not-the-token").post("/admin/refreshes").then().statusCode(400);
        assertThat(TestDatabase.count("SELECT count(*) FROM job")).isZero();

        // in the browser: the page's own form with its token tampered with
        openAsOperator();
        browser.script("document.querySelector('#panel-refresh form input[type=hidden]').value = 'tampered';");
        browser.click("#start-refresh");
        browser.await(Duration.ofSeconds(10), "the refused form", b -> !b.present("#admin"));
        assertThat(TestDatabase.count("SELECT count(*) FROM job")).isZero();

        // with the token as the page gives it, the same form works
        given().auth().preemptive().basic(OPERATOR, OPERATOR_PASSWORD).redirects().follow(false)
                .cookie("csrf-token", cookie).contentType("application/x-www-form-urlencoded")
                .formParam("csrf-token", cookie).post("/admin/refreshes").then().statusCode(303);
        assertThat(TestDatabase.count("SELECT count(*) FROM job")).isEqualTo(1);
    }
}
