package dev.cardcatalog.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cardcatalog.client.ApiClient;
import dev.cardcatalog.client.ApiException;
import dev.cardcatalog.client.api.ArtIndexApi;
import dev.cardcatalog.client.api.JobsApi;
import dev.cardcatalog.client.api.ScanningApi;
import dev.cardcatalog.client.model.IndexView;
import dev.cardcatalog.client.model.JobRequest;
import dev.cardcatalog.client.model.JobState;
import dev.cardcatalog.client.model.JobView;
import dev.cardcatalog.client.model.MatchView;
import dev.cardcatalog.client.model.MatchesView;
import dev.cardcatalog.client.model.RunStatus;
import dev.cardcatalog.testing.ArtProfile;
import dev.cardcatalog.testing.CardArtGenerator;
import dev.cardcatalog.testing.CardCatalogTestResource;
import dev.cardcatalog.testing.Jobs;
import dev.cardcatalog.testing.SampleArtworks;
import dev.cardcatalog.testing.TestData;
import dev.cardcatalog.testing.TestUsers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.io.File;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The service as another team's program uses it (SERVICE.md §9, issue 25): through the Java client that
 * openapi-generator makes from the OpenAPI document (pom.xml: a copy of {@code /q/openapi} that OpenApiDocumentTest
 * keeps equal to it), with the credentials and the public access the document declares. An operator starts a
 * refresh, reads the job until it has applied the Scryfall stand-in's sample, and then, without credentials, reads
 * the art index the refresh's art build wrote and matches a photo against it. The refusals come back as the problems
 * the document names. In the art profile, whose applied refresh starts an art build.
 */
@QuarkusTest
@TestProfile(ArtProfile.class)
@WithTestResource(CardCatalogTestResource.class)
class GeneratedClientTest {

    private static final Set<JobState> FINISHED = Set.of(JobState.SUCCEEDED, JobState.SKIPPED, JobState.FAILED,
            JobState.CANCELLED);

    @TestHTTPResource("/")
    URL service;

    @TempDir
    Path files;

    @Test
    void aGeneratedClientStartsARefreshReadsTheJobAndMatchesAPhoto() throws Exception {
        TestData.reset();
        JobsApi jobs = new JobsApi(client(TestUsers.OPERATOR, TestUsers.OPERATOR_PASSWORD));

        JobView started = jobs.startRefresh(new JobRequest().trigger(JobRequest.TriggerEnum.MANUAL));

        assertThat(started.getKind()).isEqualTo("refresh");
        assertThat(started.getTrigger()).isEqualTo("manual");
        assertThat(started.getState()).isIn(JobState.QUEUED, JobState.RUNNING, JobState.SUCCEEDED);
        JobView[] read = new JobView[1];
        Jobs.awaitWhileMoving(Duration.ofSeconds(60), "the refresh to finish", () -> {
            read[0] = jobs.getJob(started.getId());
            return FINISHED.contains(read[0].getState());
        });
        JobView refresh = read[0];
        assertThat(refresh.getState()).as(refresh.toString()).isEqualTo(JobState.SUCCEEDED);
        assertThat(refresh.getRuns()).hasSize(1);
        assertThat(refresh.getRuns().get(0).getStatus()).isEqualTo(RunStatus.APPLIED);
        assertThat(refresh.getRuns().get(0).getCounts()).containsKey("inserted");

        // public: a client without credentials, as a scanner is
        ApiClient scanner = client(null, null);
        ArtIndexApi artIndex = new ArtIndexApi(scanner);
        IndexView[] index = new IndexView[1];
        Jobs.awaitWhileMoving(Duration.ofSeconds(120), "the art index after the refresh's build", () -> {
            try {
                index[0] = artIndex.getArtIndex();
                return true;
            } catch (ApiException e) {
                assertThat(e.getCode()).as(e.getResponseBody()).isEqualTo(404); // none before the first build
                return false;
            }
        });
        Map<String, SampleArtworks.Expected> artworks = SampleArtworks.expectedArtworks();
        assertThat(index[0].getCount()).isEqualTo((long) artworks.size());
        List<String> ids = new ArrayList<>(artworks.keySet());
        ids.sort(null);
        String artwork = ids.get(ids.size() / 3);
        File photo = files.resolve("card.jpg").toFile();
        Files.write(photo.toPath(), CardArtGenerator.smallJpeg(artworks.get(artwork).seed()));

        MatchesView answer = new ScanningApi(scanner).matchPhoto(photo);

        assertThat(answer.getIndex()).isEqualTo(index[0].getFileName());
        MatchView first = answer.getMatches().get(0);
        assertThat(first.getIllustrationId()).hasToString(artwork);
        assertThat(first.getDistance()).isZero();
        assertThat(first.getConfident()).isTrue();
        assertThat(first.getPrintings()).extracting(p -> p.getId().toString())
                .contains(artworks.get(artwork).cardId());
    }

    @Test
    void theClientGetsTheRefusalsTheDocumentDeclares() throws Exception {
        // a viewer may read jobs but not start one; nobody may read them without credentials
        ApiException forbidden = catchThrowableOfType(ApiException.class, () -> new JobsApi(client(TestUsers.VIEWER,
                TestUsers.VIEWER_PASSWORD)).startRefresh(null));
        assertProblem(forbidden, 403, "forbidden");
        ApiException unauthorized = catchThrowableOfType(ApiException.class, () -> new JobsApi(client(null, null))
                .listJobs(null, null, null, null));
        assertProblem(unauthorized, 401, "unauthorized");
        assertThat(unauthorized.getResponseHeaders().get("WWW-Authenticate")).isNotEmpty();
        ApiException notFound = catchThrowableOfType(ApiException.class, () -> new JobsApi(client(TestUsers.VIEWER,
                TestUsers.VIEWER_PASSWORD)).getJob(java.util.UUID.randomUUID()));
        assertProblem(notFound, 404, "not-found");
        File notAPhoto = files.resolve("page.html").toFile();
        Files.writeString(notAPhoto.toPath(), "<!DOCTYPE html><html><body>not a card</body></html>");
        ApiException invalid = catchThrowableOfType(ApiException.class, () -> new ScanningApi(client(null, null))
                .matchPhoto(notAPhoto));
        assertThat(invalid.getCode()).isIn(400, 404); // 404 before the first art build: the body is read first
        assertProblem(invalid, invalid.getCode(), invalid.getCode() == 400 ? "invalid-image" : "not-found");
    }

    private static void assertProblem(ApiException e, int status, String type) throws Exception {
        assertThat(e).isNotNull();
        assertThat(e.getCode()).as(e.getResponseBody()).isEqualTo(status);
        JsonNode problem = new ObjectMapper().readTree(e.getResponseBody());
        assertThat(problem.path("type").asText()).isEqualTo(Problem.TYPE_BASE + type);
        assertThat(problem.path("status").asInt()).isEqualTo(status);
    }

    /** A client of the service under test, with HTTP Basic credentials when a user is given. */
    private ApiClient client(String user, String password) {
        ApiClient client = new ApiClient();
        client.setBasePath(service.toString().replaceAll("/$", ""));
        if (user != null) {
            client.setUsername(user);
            client.setPassword(password);
        }
        return client;
    }
}
