package dev.cardcatalog.testing;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link HttpAnswersCheck}'s rule, on a document and answers made here: what it lets through, what it names. */
class HttpAnswersCheckTest {

    private static final String DOCUMENT = """
            {"openapi": "3.1.0", "paths": {
              "/api/jobs/{id}": {"get": {"operationId": "getJob", "responses": {
                "200": {"description": "the job", "content": {"application/json": {}}},
                "404": {"$ref": "#/components/responses/NotFound"}}}},
              "/api/jobs/{id}/retry": {"post": {"operationId": "retryJob", "responses": {
                "202": {"description": "queued"}, "409": {"$ref": "#/components/responses/Conflict"}}}},
              "/api/art-index/files/{name}": {"get": {"operationId": "getArtIndexFile", "responses": {
                "default": {"description": "anything", "content": {"application/problem+json": {}}}}}}},
             "components": {"responses": {
               "NotFound": {"description": "none", "content": {"application/problem+json": {}}},
               "Conflict": {"description": "no", "content": {"text/plain": {}}}}}}
            """;

    private final OpenApiOperations document;

    HttpAnswersCheckTest() throws Exception {
        document = new OpenApiOperations(new ObjectMapper().readTree(DOCUMENT));
    }

    @Test
    void answersTheDocumentDeclaresPass() {
        assertThat(HttpAnswersCheck.undeclared(document, List.of(
                answer("GET", "/api/jobs/0f6c4d2e-9b1a-4c3d-8e5f-6a7b8c9d0e1f", 200, "application/json"),
                answer("GET", "/api/jobs/zz", 404, "application/problem+json"),
                answer("GET", "/api/art-index/files/a.bin.gz", 503, "application/problem+json"),
                // no operation covers these: not the document's to declare
                answer("GET", "/api/jobs", 401, "application/problem+json"),
                answer("DELETE", "/api/jobs/zz", 405, "application/problem+json"),
                answer("GET", "/api/jobs/zz/more", 404, null)))).isEmpty();
    }

    @Test
    void aStatusTheOperationDoesNotDeclareIsNamed() {
        assertThat(HttpAnswersCheck.undeclared(document, List.of(
                answer("GET", "/api/jobs/zz", 400, "application/problem+json"),
                answer("POST", "/api/jobs/zz/retry", 503, "application/problem+json"))))
                .containsExactly(
                        "GET /api/jobs/{id} (getJob) answered 400 (GET /api/jobs/zz), which it does not declare",
                        "POST /api/jobs/{id}/retry (retryJob) answered 503 (POST /api/jobs/zz/retry), which it does "
                                + "not declare");
    }

    @Test
    void aProblemWhereTheDocumentDeclaresAnotherBodyIsNamed() {
        assertThat(HttpAnswersCheck.undeclared(document, List.of(
                answer("POST", "/api/jobs/zz/retry", 409, "application/problem+json"))))
                .containsExactly("POST /api/jobs/{id}/retry (retryJob) answered 409 as problem+json, which its 409 "
                        + "response does not declare");
    }

    @Test
    void aResponseThatIsAReferenceIsTheResponseItNames() {
        OpenApiOperations.Op getJob = document.operation("GET", "/api/jobs/{id}").orElseThrow();
        assertThat(getJob.statuses()).containsExactly("200", "404");
        assertThat(getJob.response(404).orElseThrow().path("description").asText()).isEqualTo("none");
        assertThat(getJob.node().path("responses").path("404").has("$ref")).isFalse();
    }

    @Test
    void theMostSpecificTemplateIsTheOperation() {
        assertThat(document.forRequest("POST", "/api/jobs/abc/retry").orElseThrow().operationId())
                .isEqualTo("retryJob");
        assertThat(document.forRequest("GET", "/api/jobs/abc/retry")).isEmpty();
        assertThat(document.forRequest("GET", "/api/jobs/abc").orElseThrow().operationId()).isEqualTo("getJob");
    }

    private static HttpAnswers.Answer answer(String method, String path, int status, String type) {
        return new HttpAnswers.Answer(method, path, status, type);
    }
}
