package dev.cardcatalog.admin;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
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
import dev.cardcatalog.testing.TestUsers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
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
    private static final String EXPIRED_LOCATION = "/admin?result=expired";
    private static final String EXPIRED_NOTICE = "This page had expired, so nothing was done. Press the button again.";
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

    /**
     * Lets a run a test left going (a refresh it started to show another state) finish here: a run still going
     * when the application stops is handed back through Kafka, and would come back in the next test class as an
     * unexpected job in flight. Runs with a stale heartbeat (the interrupted state, written by hand) are left alone
     * ({@link TestData#awaitRunsEnded}: as long as a run moves).
     */
    @AfterEach
    void letStartedRunsFinish() {
        TestData.awaitRunsEnded();
    }

    /** Every test ends here: nothing the page did, while it polled, was refused by its Content-Security-Policy. */
    @AfterEach
    void noContentSecurityPolicyViolations() {
        assertThat(browser.cspViolations()).as("Content-Security-Policy violations on the console").isEmpty();
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

    /** Waits for the panel's state as long as the job ledger moves: {@code stillFor} bounds a standstill. */
    private void awaitState(String kind, String state, Duration stillFor) {
        browser.awaitWhileMoving(stillFor, Jobs::ledgerProgress, kind + " panel to be " + state,
                b -> state.equals(state(kind)));
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
    void aFormWithoutTheCsrfTokenOrWithAWrongOneIsRefusedAndThePageSaysSo() {
        Response first = given().auth().preemptive().basic(OPERATOR, OPERATOR_PASSWORD).get("/admin");
        String cookie = first.getCookie("csrf-token");
        assertThat(cookie).isNotBlank();

        // the CSRF filter's bare 400 becomes the way back to the page, with a notice
        given().auth().preemptive().basic(OPERATOR, OPERATOR_PASSWORD).redirects().follow(false)
                .contentType("application/x-www-form-urlencoded").formParam("nothing", "")
                .post("/admin/refreshes").then().statusCode(303).header("Location", endsWith(EXPIRED_LOCATION));
        given().auth().preemptive().basic(OPERATOR, OPERATOR_PASSWORD).redirects().follow(false)
                .cookie("csrf-token", cookie).contentType("application/x-www-form-urlencoded")
                .formParam("csrf-token", "not-the-token").post("/admin/art-builds").then().statusCode(303)
                .header("Location", endsWith(EXPIRED_LOCATION));
        given().auth().preemptive().basic(OPERATOR, OPERATOR_PASSWORD).redirects().follow(false)
                .cookie("csrf-token", "not base64 at all").contentType("application/x-www-form-urlencoded")
                .formParam("csrf-token", "not base64 at all").post("/admin/jobs/" + UUID.randomUUID() + "/retry")
                .then().statusCode(303).header("Location", endsWith(EXPIRED_LOCATION));
        assertThat(TestDatabase.count("SELECT count(*) FROM job")).isZero();

        // in the browser: the page's own form with its token tampered with
        openAsOperator();
        browser.script("document.querySelector('#panel-refresh form input[type=hidden]').value = 'tampered';");
        browser.click("#start-refresh");
        assertThat(browser.text("#notice")).isEqualTo(EXPIRED_NOTICE);
        assertThat(TestDatabase.count("SELECT count(*) FROM job")).isZero();

        // with the token as the page gives it, the same form works
        given().auth().preemptive().basic(OPERATOR, OPERATOR_PASSWORD).redirects().follow(false)
                .cookie("csrf-token", cookie).contentType("application/x-www-form-urlencoded")
                .formParam("csrf-token", cookie).post("/admin/refreshes").then().statusCode(303)
                .header("Location", containsString("/admin?result=queued&job="));
        assertThat(TestDatabase.count("SELECT count(*) FROM job")).isEqualTo(1);
    }

    /**
     * The page left open past its CSRF cookie's life ({@code quarkus.rest-csrf.cookie-max-age}): the browser no
     * longer sends the cookie, as when it is deleted here. The button is refused, the page says so and nothing is
     * queued; pressed again, it works.
     */
    @Test
    void aButtonPressedAfterTheTokenExpiredDoesNothingAndSaysSoThenWorksWhenPressedAgain() {
        openAsOperator();
        browser.driver().manage().deleteCookieNamed("csrf-token");
        assertThat(browser.driver().manage().getCookieNamed("csrf-token")).isNull();

        browser.click("#start-refresh");

        assertThat(browser.driver().getCurrentUrl()).endsWith(EXPIRED_LOCATION);
        assertThat(browser.text("#notice")).isEqualTo(EXPIRED_NOTICE);
        assertThat(browser.attribute("#notice", "class")).contains("refused");
        assertThat(TestDatabase.count("SELECT count(*) FROM job")).isZero();
        assertThat(state("refresh")).isEqualTo("never-run");
        browser.look("form-expired");

        browser.click("#start-refresh");
        assertThat(browser.text("#notice")).matches("Refresh job [0-9a-f-]{36} queued\\.");
        assertThat(TestDatabase.count("SELECT count(*) FROM job")).isEqualTo(1);
    }

    /**
     * Every spelling of the page's path that the router sends to the page renders it (with its forms' token) or
     * redirects to {@code /admin} with the same query; none answers 5xx. Sent as written, by a client that does not
     * normalise paths.
     */
    @Test
    void everySpellingOfThePagesPathShowsThePageOrRedirectsToIt() throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        String base = "http://" + root.getHost() + ":" + root.getPort();
        Map<String, String> redirected = new LinkedHashMap<>();
        redirected.put("/admin/", "/admin");
        redirected.put("/admin/?state=waiting&page=1", "/admin?state=waiting&page=1");
        redirected.put("/admin/.", "/admin");
        redirected.put("/admin/./?state=failed", "/admin?state=failed");
        redirected.put("/api/../admin/", "/admin");
        redirected.put("/admin;v=1/", "/admin");
        redirected.put("/admin/;v=1?state=queued", "/admin?state=queued");
        redirected.put("/%61dmin/", "/admin");
        // a query that is no URI template and no form encoding: each parameter encoded again
        redirected.put("/admin/?state=%7Bx%7D%20y&state=2&a%26b=c", "/admin?state=%7Bx%7D+y&state=2&a%26b=c");
        List<String> rendered = List.of("/admin", "/admin?state=waiting", "/admin;v=1", "/admin;v=1?state=failed",
                "/api/../admin", "/%61dmin", "/admin?result=expired");
        SoftAssertions softly = new SoftAssertions();
        for (String path : rendered) {
            HttpResponse<String> answer = client.send(HttpRequest.newBuilder(URI.create(base + path))
                    .header("Authorization", TestUsers.OPERATOR_AUTHORIZATION).build(), BodyHandlers.ofString());
            softly.assertThat(answer.statusCode()).as(path).isEqualTo(200);
            softly.assertThat(answer.body()).as(path).contains("id=\"admin\"")
                    .containsPattern("name=\"csrf-token\" value=\"[A-Za-z0-9_-]{20,}\"");
        }
        for (Map.Entry<String, String> path : redirected.entrySet()) {
            HttpResponse<String> answer = client.send(HttpRequest.newBuilder(URI.create(base + path.getKey()))
                    .header("Authorization", TestUsers.OPERATOR_AUTHORIZATION).build(), BodyHandlers.ofString());
            softly.assertThat(answer.statusCode()).as(path.getKey()).isEqualTo(301);
            softly.assertThat(answer.headers().firstValue("Location")).as(path.getKey())
                    .hasValue(base + path.getValue());
        }
        softly.assertAll();

        // in the browser: the trailing slash, with a filter, lands on the page with the filter
        browser.open(page(OPERATOR, OPERATOR_PASSWORD, "/?state=failed"));
        assertThat(browser.driver().getCurrentUrl()).endsWith("/admin?state=failed");
        assertThat(browser.text("nav.filters a[aria-current]")).isEqualTo("Failed (0)");
        assertThat(browser.attribute("#start-refresh", "disabled")).isNull();
        browser.look("trailing-slash");
        browser.click("#start-refresh");
        assertThat(browser.text("#notice")).matches("Refresh job [0-9a-f-]{36} queued\\.");
    }

    /**
     * The check every test ends with ({@link #noContentSecurityPolicyViolations}) sees a violation: a script the
     * page's policy refuses is reported on the console and does not run, while the page's own style and script,
     * files of this origin, are applied.
     */
    @Test
    void anInlineScriptIsRefusedAndReportedWhileThePagesOwnFilesApply() {
        openAsOperator();
        assertThat(browser.script("return getComputedStyle(document.body).backgroundColor;"))
                .isEqualTo("rgb(246, 246, 244)");
        assertThat(browser.script("return document.querySelectorAll('script:not([src]), style').length;"))
                .isEqualTo(0L);

        browser.script("var s = document.createElement('script'); s.textContent = 'document.body.dataset.ran = 1';"
                + " document.body.appendChild(s);");

        List<String> violations = new ArrayList<>();
        browser.await(Duration.ofSeconds(5), "the console to report the refused script",
                b -> violations.addAll(b.cspViolations()) || !violations.isEmpty());
        assertThat(violations).anySatisfy(v -> assertThat(v).contains("inline script"));
        assertThat(browser.script("return document.body.dataset.ran === undefined;")).isEqualTo(true);
    }

    @Test
    void aRefreshShowsItsProgressThenNoProgressThenAppliesAndAScheduledOneIsSkipped() {
        // the bulk file in three pieces, 5 s apart: progress moves, then stands still longer than 2 s
        standIn.enqueue("/file/default-cards/", Fault.slowBody(180 * 1024, Duration.ofSeconds(5)));
        openAsOperator();
        browser.click("#start-refresh");

        assertThat(browser.text("#notice")).matches("Refresh job [0-9a-f-]{36} queued\\.");
        String jobId = browser.text("#job-refresh");
        assertThat(browser.text("#notice")).contains(jobId);
        browser.await(Duration.ofSeconds(30), "a progress bar while downloading",
                b -> b.present("#progress-refresh") && !"0".equals(b.attribute("#progress-refresh", "value")));
        assertThat(state("refresh")).isIn("running", "stalled");
        assertThat(browser.text("#panel-refresh .headline")).isEqualTo("Running: downloading the bulk file.");
        assertThat(browser.text("#panel-refresh label")).matches("Progress: \\d+ % \\(\\d+\\.\\d KB of 502\\.9 KB\\)");
        assertThat(browser.text("#panel-refresh .lines")).contains("Attempt 1 on ").contains("Last progress ")
                .contains(", heartbeat ");
        assertThat(browser.attribute("#admin", "data-poll")).isEqualTo("true");
        assertThat(browser.attribute("#start-refresh", "disabled")).isNotNull();
        assertThat(browser.text("#refusal-refresh")).matches("Refused while refresh job " + jobId.substring(0, 8)
                + " is running: one runs at a time\\.");
        browser.look("refresh-running");

        awaitState("refresh", "stalled", Duration.ofSeconds(30));
        assertThat(browser.text("#panel-refresh .warning")).matches("No progress for \\d+ s \\(since .* UTC\\)\\. "
                + "The instance is alive \\(heartbeat .*\\), but downloading the bulk file has not moved\\.");
        browser.look("refresh-no-progress");

        // the page follows by itself (no reload) until the refresh applies, then stops polling
        awaitState("refresh", "succeeded", Duration.ofSeconds(90));
        assertThat(browser.text("#panel-refresh .headline")).isEqualTo("Applied " + ScryfallStandIn.SAMPLE_VERSION + ".");
        assertThat(browser.text("#panel-refresh .lines")).contains("Catalog version " + ScryfallStandIn.SAMPLE_VERSION
                + ", languages en.");
        assertThat(browser.text("#panel-refresh .counts")).contains("seen 827");
        browser.await(Duration.ofSeconds(5), "polling to stop once idle",
                b -> "false".equals(b.attribute("#admin", "data-poll")));
        assertThat(browser.attribute("#start-refresh", "disabled")).isNull();
        assertThat(browser.text("#panel-refresh table.runs")).contains(jobId.substring(0, 8)).contains("applied");
        browser.look("refresh-applied");

        String skipped = given().auth().preemptive().basic(OPERATOR, OPERATOR_PASSWORD).contentType("application/json")
                .body("{\"trigger\":\"scheduled\"}").post("/api/refreshes").then().statusCode(202)
                .extract().jsonPath().getString("id");
        awaitFinished(skipped);
        openAsOperator();
        assertThat(state("refresh")).isEqualTo("skipped");
        assertThat(browser.text("#panel-refresh .headline"))
                .isEqualTo("Skipped: " + ScryfallStandIn.SAMPLE_VERSION + " already applied.");
        browser.look("refresh-skipped");
    }

    @Test
    void aRateLimitedRefreshWaitsToRetryAndRunNowIsRefusedInTheQuietWindowThenMovesItOn() {
        standIn.enqueue("/bulk-data", Fault.status(429).header("Retry-After", "40"));
        openAsOperator();
        browser.click("#start-refresh");
        String jobId = browser.text("#job-refresh");

        awaitState("refresh", "waiting", Duration.ofSeconds(30));
        JsonPath waiting = job(jobId);
        Instant retryAt = Instant.parse(waiting.getString("retry_at"));
        assertThat(waiting.getString("runs[0].stage")).isEqualTo("download");
        assertThat(browser.text("#panel-refresh .headline")).isEqualTo("Queued to retry. The last run failed while "
                + "downloading the bulk file: " + waiting.getString("runs[0].message"));
        assertThat(browser.text("#panel-refresh .headline")).contains("429").contains("asking for 40 s");
        assertThat(browser.text("#panel-refresh .lines"))
                .containsPattern("Retrying at " + UTC.format(retryAt) + " \\(in [1-4]\\d s\\)");
        assertThat(browser.attribute("#start-refresh", "disabled")).isNotNull();
        assertThat(browser.text("#refusal-refresh")).contains("is waiting to retry at " + UTC.format(retryAt));
        assertThat(browser.text("#action-refresh")).isEqualTo("Run now");
        browser.look("refresh-waiting");

        browser.click("#action-refresh"); // Scryfall's quiet window is still open
        assertThat(browser.text("#notice")).startsWith("Refused: Scryfall asked for quiet until ")
                .contains("job " + jobId + " cannot run sooner");
        assertThat(browser.attribute("#notice", "class")).contains("refused");
        assertThat(state("refresh")).isEqualTo("waiting");
        browser.look("refresh-run-now-refused");

        TestDatabase.execute("DELETE FROM quiet_window"); // as if the window had closed
        browser.click("#action-refresh");
        assertThat(browser.text("#notice")).isEqualTo("Job " + jobId + " queued to run now.");
        awaitState("refresh", "succeeded", Duration.ofSeconds(60));
        JsonPath done = job(jobId);
        assertThat(done.getString("state")).isEqualTo("succeeded");
        assertThat(Instant.parse(done.getString("finished_at"))).isBefore(retryAt);
    }

    @Test
    void aFailedRefreshSaysWhyIsListedUnderFailedAndRetryQueuesANewJob() {
        standIn.enqueue("/bulk-data", Fault.status(404));
        openAsOperator();
        browser.click("#start-refresh");
        String failed = browser.text("#job-refresh");

        awaitState("refresh", "failed", Duration.ofSeconds(30));
        String reason = job(failed).getString("message");
        assertThat(browser.text("#panel-refresh .headline")).isEqualTo("Failed: " + reason);
        assertThat(reason).contains("404");
        assertThat(browser.text("#panel-refresh .lines")).contains("after 1 attempt.");
        browser.look("refresh-failed");

        browser.open(page(OPERATOR, OPERATOR_PASSWORD, "?state=failed"));
        assertThat(browser.attribute("nav.filters a[aria-current]", "href")).endsWith("/admin?state=failed#jobs");
        assertThat(browser.text("nav.filters a[aria-current]")).isEqualTo("Failed (1)");
        assertThat(browser.attribute("tr[data-job='" + failed + "'] a", "href")).endsWith("/api/jobs/" + failed);
        browser.click("tr[data-job='" + failed + "'] button");

        assertThat(browser.text("#notice")).startsWith("Failed job " + failed + " retried as new job ");
        String retried = browser.text("#job-refresh");
        assertThat(retried).isNotEqualTo(failed);
        awaitState("refresh", "succeeded", Duration.ofSeconds(60));
        assertThat(job(retried).getString("source")).isEqualTo("retry of " + failed);
    }

    @Test
    void theJobsListPagesThroughItsFilter() {
        for (int i = 0; i < 23; i++) {
            TestDatabase.execute("INSERT INTO job (id, kind, trigger, state, source, command, message, created_at,"
                    + " updated_at, finished_at) VALUES (?, 'refresh', 'manual', 'failed', 'api', '{}', 'failed "
                    + i + "', now() - make_interval(mins => ?), now(), now())", UUID.randomUUID(), i);
        }
        browser.open(page(OPERATOR, OPERATOR_PASSWORD, "?state=failed"));
        assertThat(browser.driver().findElements(org.openqa.selenium.By.cssSelector("table.job-list tbody tr")))
                .hasSize(20);
        assertThat(browser.text("nav.paging")).contains("Page 1 of 2 (23 jobs)");
        browser.click("nav.paging a[rel=next]");
        assertThat(browser.driver().findElements(org.openqa.selenium.By.cssSelector("table.job-list tbody tr")))
                .hasSize(3);
        assertThat(browser.text("table.job-list")).contains("failed 22");
        browser.look("jobs-failed-page-2", "#jobs");
        browser.open(page(OPERATOR, OPERATOR_PASSWORD, "?state=waiting"));
        assertThat(browser.text("#jobs")).contains("No jobs.").contains("Waiting (0)");
    }

    @Test
    void anInterruptedRunSaysSoAndWhatHappensNext() {
        // the rows an instance killed while downloading leaves behind: its run's heartbeat is 3 minutes old
        UUID jobId = UUID.randomUUID();
        Instant started = Instant.now().minusSeconds(240);
        Instant heartbeat = Instant.now().minusSeconds(180);
        TestDatabase.execute("INSERT INTO job (id, kind, trigger, state, source, command, created_at, updated_at)"
                + " VALUES (?, 'refresh', 'manual', 'running', 'api', ?::jsonb, ?, ?)", jobId,
                "{\"type\":\"refresh\",\"jobId\":\"" + jobId + "\",\"trigger\":\"manual\"}",
                java.sql.Timestamp.from(started), java.sql.Timestamp.from(started));
        TestDatabase.execute("INSERT INTO job_run (id, job_id, attempt, status, stage, done, total, owner, started_at,"
                + " heartbeat_at, progressed_at) VALUES (?, ?, 1, 'running', 'download', 1000, 515005, '4242@gone',"
                + " ?, ?, ?)", UUID.randomUUID(), jobId, java.sql.Timestamp.from(started),
                java.sql.Timestamp.from(heartbeat), java.sql.Timestamp.from(heartbeat));

        openAsOperator();

        assertThat(state("refresh")).isEqualTo("interrupted");
        assertThat(browser.text("#panel-refresh .headline")).isEqualTo("Interrupted while downloading the bulk file: "
                + "the run on 4242@gone stopped sending heartbeats.");
        assertThat(browser.text("#panel-refresh .lines"))
                .contains("Last heartbeat " + UTC.format(heartbeat) + " (3 min ago); a refresh run without one for"
                        + " 2 min is interrupted.")
                .contains("Next: an instance takes the job over at its next sweep (every 10 min) and runs it again"
                        + " from where it stopped; nothing is lost.");
        assertThat(browser.text("#refusal-refresh")).contains("is interrupted");
        assertThat(browser.attribute("tr[data-job='" + jobId + "']", "data-state")).isEqualTo("interrupted");
        browser.look("refresh-interrupted");
    }

    @Test
    void anArtBuildQueuedRefusesASecondWaitsToRetryWithItsReasonAndBecomesReady() {
        refreshThroughTheApi();
        // a build queued whose command no instance has taken yet: made as POST /api/art-builds makes it
        UUID queued = ledger.createQueued(JobKind.ART_BUILD, JobTrigger.MANUAL, "api").id();
        openAsOperator();
        assertThat(state("art-build")).isEqualTo("queued");
        assertThat(browser.text("#panel-art-build .headline")).isEqualTo("Queued.");
        assertThat(browser.text("#refusal-art-build")).isEqualTo("Refused while art index job "
                + queued.toString().substring(0, 8) + " is queued: one runs at a time.");
        browser.look("art-queued", "#panel-art-build");
        // the server refuses too: the same form sent with its button enabled
        // (in one script: the page's polling may replace the button between two steps)
        browser.script("var b = document.getElementById('start-art-build'); b.disabled = false; b.click();");
        browser.await(Duration.ofSeconds(15), "the answer to the forced form", b -> b.present("#notice"));
        assertThat(browser.text("#notice")).isEqualTo("Refused: Art index job " + queued
                + " is queued; one job of a kind runs at a time.");
        TestDatabase.execute("DELETE FROM job WHERE id = ?", queued);

        // 30 images, then Scryfall's image host asks for 40 s
        Fault[] faults = new Fault[31];
        java.util.Arrays.fill(faults, Fault.pass());
        faults[30] = Fault.status(429).header("Retry-After", "40");
        standIn.enqueue("/", faults);
        openAsOperator();
        browser.click("#start-art-build");
        String build = browser.text("#job-art-build");
        awaitState("art-build", "waiting", Duration.ofSeconds(60));
        JsonPath waiting = job(build);
        Instant retryAt = Instant.parse(waiting.getString("retry_at"));
        assertThat(browser.text("#panel-art-build .headline")).isEqualTo("Queued to retry. The last run failed while "
                + "fingerprinting images: " + waiting.getString("runs[0].message"));
        assertThat(browser.text("#panel-art-build .headline")).contains("429");
        assertThat(browser.text("#panel-art-build .lines"))
                .containsPattern("Retrying at " + UTC.format(retryAt) + " \\(in [1-4]\\d s\\)");
        assertThat(browser.text("#panel-art-build .counts")).contains("fingerprinted 30");
        browser.look("art-waiting", "#panel-art-build");

        TestDatabase.execute("DELETE FROM quiet_window");
        browser.click("#action-art-build");
        assertThat(browser.text("#notice")).isEqualTo("Job " + build + " queued to run now.");
        awaitState("art-build", "succeeded", Duration.ofSeconds(120));
        String file = given().get("/api/art-index").then().statusCode(200).extract().jsonPath().getString("file_name");
        assertThat(browser.text("#panel-art-build .headline")).isEqualTo("Ready: " + file + ".");
        assertThat(browser.text("#panel-art-build .lines")).containsPattern("Art index file " + file.replace(".", "\\.")
                + " with \\d+ artworks, built from catalog version " + ScryfallStandIn.SAMPLE_VERSION + "\\.");
        browser.look("art-ready", "#panel-art-build");
    }

    @Test
    void anArtBuildThatFailsSaysWhyAndNamesItsFailedImages() {
        refreshThroughTheApi();
        // two images missing, eight served, then the image host asks for two hours: beyond the 1 h ceiling
        Fault[] faults = new Fault[11];
        java.util.Arrays.fill(faults, Fault.pass());
        faults[0] = Fault.status(404);
        faults[1] = Fault.status(404);
        faults[10] = Fault.status(429).header("Retry-After", "7200");
        standIn.enqueue("/", faults);
        openAsOperator();
        browser.click("#start-art-build");
        String build = browser.text("#job-art-build");

        awaitState("art-build", "failed", Duration.ofSeconds(90));
        JsonPath failed = job(build);
        assertThat(failed.getString("message")).startsWith("Scryfall asked to wait 7200 s");
        assertThat(browser.text("#panel-art-build .headline")).isEqualTo("Failed: " + failed.getString("message"));
        assertThat(failed.getLong("runs[0].counts.failed")).isEqualTo(2);
        assertThat(browser.text("#panel-art-build .lines")).contains("Failed images: 2");
        assertThat(browser.text("#action-art-build")).isEqualTo("Retry");
        assertThat(browser.attribute("#start-art-build", "disabled")).isNull();
        browser.look("art-failed", "#panel-art-build");
    }

    @Test
    void cancelStopsAQueuedARunningAndAWaitingRefreshAndTheStartButtonIsFreeAtOnce() {
        // a refresh queued whose command no instance has taken yet: made as POST /api/refreshes makes it
        UUID queued = ledger.createQueued(JobKind.REFRESH, JobTrigger.MANUAL, "api").id();
        openAsOperator();
        assertThat(state("refresh")).isEqualTo("queued");
        assertThat(browser.attribute("#start-refresh", "disabled")).isNotNull();
        browser.click("#cancel-refresh");
        assertThat(browser.text("#notice")).isEqualTo("Job " + queued + " cancelled.");
        assertThat(state("refresh")).isEqualTo("cancelled");
        assertThat(browser.attribute("#start-refresh", "disabled")).isNull();
        assertThat(browser.attribute("tr[data-job='" + queued + "']", "data-state")).isEqualTo("cancelled");

        // the bulk file in three pieces, 3 s apart: the download is under way when Cancel is clicked
        standIn.enqueue("/file/default-cards/", Fault.slowBody(180 * 1024, Duration.ofSeconds(3)));
        openAsOperator();
        browser.click("#start-refresh");
        String running = browser.text("#job-refresh");
        browser.await(Duration.ofSeconds(30), "the download under way",
                b -> b.present("#progress-refresh") && !"0".equals(b.attribute("#progress-refresh", "value")));
        assertThat(browser.text("#cancel-refresh")).isEqualTo("Cancel");
        browser.look("refresh-running-cancel", "#panel-refresh");

        browser.click("#cancel-refresh");
        assertThat(browser.text("#notice")).isEqualTo("Job " + running
                + " is running: it stops at its next checkpoint and ends cancelled.");
        awaitState("refresh", "cancelled", Duration.ofSeconds(30));
        assertThat(browser.text("#panel-refresh .headline")).isEqualTo("Cancelled by operator.");
        assertThat(browser.text("#panel-refresh .lines")).contains("Its run stopped while downloading the bulk file;"
                + " what it wrote stays, and the next run carries on from it.");
        assertThat(browser.attribute("#start-refresh", "disabled")).isNull();
        assertThat(browser.present("#cancel-refresh")).isFalse();
        assertThat(job(running).getString("runs[0].status")).isEqualTo("cancelled");
        browser.look("refresh-cancelled", "#panel-refresh");

        // a refresh waiting to retry, cancelled from the jobs list
        standIn.enqueue("/bulk-data", Fault.status(429).header("Retry-After", "40"));
        browser.click("#start-refresh");
        String waiting = browser.text("#job-refresh");
        awaitState("refresh", "waiting", Duration.ofSeconds(30));
        browser.open(page(OPERATOR, OPERATOR_PASSWORD, "?state=waiting"));
        browser.click("tr[data-job='" + waiting + "'] button.cancel");
        assertThat(browser.text("#notice")).isEqualTo("Job " + waiting + " cancelled.");
        assertThat(state("refresh")).isEqualTo("cancelled");
        assertThat(job(waiting).getString("state")).isEqualTo("cancelled");
        assertThat(browser.attribute("#start-refresh", "disabled")).isNull();

        // once ended, the API refuses a second cancel with its state; the page says the same
        browser.script("var f = document.createElement('form'); f.method = 'post';"
                + " f.action = '/admin/jobs/" + waiting + "/cancel';"
                + " var t = document.querySelector('#panel-refresh form input[type=hidden]').cloneNode();"
                + " f.appendChild(t); document.body.appendChild(f); f.submit();");
        browser.await(Duration.ofSeconds(15), "the refused cancel",
                b -> b.present("#notice") && b.text("#notice").startsWith("Refused"));
        assertThat(browser.text("#notice")).isEqualTo("Refused: job " + waiting
                + " is cancelled; only a queued, waiting or running job can be cancelled.");
    }

    @Test
    void cancelStopsAQueuedAWaitingAndARunningArtBuild() {
        refreshThroughTheApi();
        UUID queued = ledger.createQueued(JobKind.ART_BUILD, JobTrigger.MANUAL, "api").id();
        openAsOperator();
        assertThat(state("art-build")).isEqualTo("queued");
        browser.click("#cancel-art-build");
        assertThat(browser.text("#notice")).isEqualTo("Job " + queued + " cancelled.");
        assertThat(state("art-build")).isEqualTo("cancelled");
        browser.look("art-cancelled", "#panel-art-build");

        // five images, then the image host asks for 40 s: the build waits to retry
        Fault[] faults = new Fault[6];
        java.util.Arrays.fill(faults, Fault.pass());
        faults[5] = Fault.status(429).header("Retry-After", "40");
        standIn.enqueue("/", faults);
        browser.click("#start-art-build");
        String waiting = browser.text("#job-art-build");
        awaitState("art-build", "waiting", Duration.ofSeconds(60));
        browser.click("#cancel-art-build");
        assertThat(browser.text("#notice")).isEqualTo("Job " + waiting + " cancelled.");
        assertThat(state("art-build")).isEqualTo("cancelled");
        TestDatabase.execute("DELETE FROM quiet_window"); // as if the window had closed

        // twenty images, then one served slowly: the build is running when Cancel is clicked
        Fault[] slow = new Fault[21];
        java.util.Arrays.fill(slow, Fault.pass());
        slow[20] = Fault.slowBody(1024, Duration.ofSeconds(1));
        standIn.enqueue("/", slow);
        browser.click("#start-art-build");
        String running = browser.text("#job-art-build");
        browser.await(Duration.ofSeconds(30), "the build running",
                b -> "running".equals(state("art-build")) || "stalled".equals(state("art-build")));
        browser.click("#cancel-art-build");
        assertThat(browser.text("#notice")).isEqualTo("Job " + running
                + " is running: it stops at its next checkpoint and ends cancelled.");
        awaitState("art-build", "cancelled", Duration.ofSeconds(60));
        JsonPath cancelled = job(running);
        assertThat(cancelled.getString("runs[0].status")).isEqualTo("cancelled");
        assertThat(cancelled.getLong("runs[0].counts.fingerprinted")).isLessThan(cancelled.getLong("runs[0].counts.artworks"));
        assertThat(TestDatabase.count("SELECT count(*) FROM art_index")).isZero();
    }

    @Test
    void anArtBuildRefusedForItsCountOffersToBuildAgainAcceptingTheFewerArtworks() {
        refreshThroughTheApi();
        String first = given().auth().preemptive().basic(OPERATOR, OPERATOR_PASSWORD).contentType("application/json")
                .body("{}").post("/api/art-builds").then().statusCode(202).extract().jsonPath().getString("id");
        assertThat(awaitFinished(first).getString("state")).isEqualTo("succeeded");
        int full = given().get("/api/art-index").then().statusCode(200).extract().jsonPath().getInt("count");
        standIn.serveDefaultCards("default-cards-20990101000000", ScryfallStandIn.sampleCardLines().subList(0, 300));
        refreshThroughTheApi();
        String refused = given().auth().preemptive().basic(OPERATOR, OPERATOR_PASSWORD).contentType("application/json")
                .body("{}").post("/api/art-builds").then().statusCode(202).extract().jsonPath().getString("id");
        JsonPath failed = awaitFinished(refused);
        long wouldHold = failed.getLong("runs[0].counts.index_artworks");
        long fewer = full - wouldHold;

        openAsOperator();
        assertThat(state("art-build")).isEqualTo("failed");
        assertThat(browser.text("#panel-art-build .lines")).contains(String.format(java.util.Locale.ROOT,
                "Refused for its count: the new index would hold %,d artworks, the current one holds %,d (%,d fewer).",
                wouldHold, full, fewer));
        assertThat(browser.text("#consent-art-build")).isEqualTo(String.format(java.util.Locale.ROOT,
                "Build again, accepting %,d fewer artworks", fewer));
        browser.look("art-refused-for-count", "#panel-art-build");

        browser.click("#consent-art-build");
        assertThat(browser.text("#notice")).matches("Art index job [0-9a-f-]{36} queued, accepting fewer artworks"
                + " than the current index\\.");
        String consented = browser.text("#job-art-build");
        awaitState("art-build", "succeeded", Duration.ofSeconds(90));
        assertThat(browser.text("#panel-art-build .lines"))
                .contains("Accepts fewer artworks than the current index, by consent of operator.");
        assertThat(job(consented).getString("consented_by")).isEqualTo("operator");
        assertThat(given().get("/api/art-index").then().statusCode(200).extract().jsonPath().getLong("count"))
                .isEqualTo(wouldHold);
        assertThat(browser.present("#consent-art-build")).isFalse();
    }

    @Test
    void theRefreshPanelWarnsWhenTheLastSuccessfulRefreshIsOlderThanEightDays() {
        finishedRefresh(Instant.now().minus(Duration.ofDays(9)));
        openAsOperator();
        assertThat(state("refresh")).isEqualTo("succeeded");
        assertThat(browser.text("#panel-refresh .warning")).matches("The last successful refresh ended "
                + "\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC \\(9 d ago\\), more than 8 d ago: a weekly refresh was"
                + " missed\\.");
        browser.look("refresh-overdue", "#panel-refresh");

        // a failed refresh since does not count; a successful one a day ago does
        TestDatabase.execute("INSERT INTO job (id, kind, trigger, state, source, command, message, created_at,"
                + " updated_at, finished_at) VALUES (?, 'refresh', 'scheduled', 'failed', 'api', '{}', 'failed',"
                + " now(), now(), now())", UUID.randomUUID());
        openAsOperator();
        assertThat(browser.text("#panel-refresh .warning")).contains("a weekly refresh was missed");
        finishedRefresh(Instant.now().minus(Duration.ofDays(1)));
        openAsOperator();
        assertThat(browser.present("#panel-refresh .warning")).isFalse();
    }

    /** The rows a refresh that applied at {@code at} leaves (the service's clock cannot be moved in this test). */
    private static void finishedRefresh(Instant at) {
        UUID jobId = UUID.randomUUID();
        java.sql.Timestamp time = java.sql.Timestamp.from(at);
        TestDatabase.execute("INSERT INTO job (id, kind, trigger, state, source, command, message, created_at,"
                + " updated_at, finished_at) VALUES (?, 'refresh', 'scheduled', 'succeeded', 'api', '{}', 'applied',"
                + " ?, ?, ?)", jobId, time, time, time);
        TestDatabase.execute("INSERT INTO job_run (id, job_id, attempt, status, stage, owner, started_at, heartbeat_at,"
                + " progressed_at, finished_at, version, languages) VALUES (?, ?, 1, 'applied', 'retire', 'test', ?, ?,"
                + " ?, ?, 'default-cards-1', 'en')", UUID.randomUUID(), jobId, time, time, time, time);
    }

    private void refreshThroughTheApi() {
        String refresh = given().auth().preemptive().basic(OPERATOR, OPERATOR_PASSWORD).contentType("application/json")
                .body("{}").post("/api/refreshes").then().statusCode(202).extract().jsonPath().getString("id");
        assertThat(awaitFinished(refresh).getString("state")).isEqualTo("succeeded");
    }

    private static JsonPath job(String id) {
        return given().auth().preemptive().basic(OPERATOR, OPERATOR_PASSWORD).get("/api/jobs/" + id).then()
                .statusCode(200).extract().jsonPath();
    }

    private static JsonPath awaitFinished(String id) {
        return Jobs.awaitState(id, Duration.ofSeconds(90), Jobs.FINISHED);
    }
}
