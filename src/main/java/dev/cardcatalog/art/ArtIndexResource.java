package dev.cardcatalog.art;

import dev.cardcatalog.platform.ApiAccess;
import dev.cardcatalog.platform.ProblemException;
import io.smallrye.common.annotation.Blocking;
import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Instant;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirements;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * The art index for scanners (SERVICE.md §5.8), public: which file is current and the file itself (immutable,
 * {@code ETag} = its name, 304 on revalidation). Matching a photo against it is the photo side's
 * ({@code dev.cardcatalog.scan.MatchResource}).
 */
@PermitAll
@SecurityRequirements
@Tag(name = "Art index")
@Path("/api/art-index")
public class ArtIndexResource {

    private final ArtIndexStore store;

    public ArtIndexResource(ArtIndexStore store) {
        this.store = store;
    }

    /**
     * The current index file.
     *
     * @param digest        the settings digest of its fingerprints
     * @param contentDigest the SHA-256 of the file's bytes, 64 lowercase hex characters
     * @param sizeBytes     the file's length as served (gzip)
     */
    public record IndexView(String fileName, String url, String digest, String contentDigest, long count,
            String catalogVersion, long sizeBytes, Instant writtenAt) {
    }

    /**
     * The current index file's name, digests, count and catalog version, the same on every replica (it is read from
     * the database); 404 before the first build.
     */
    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Blocking
    @Operation(operationId = "getArtIndex", summary = "The current art index file", description = """
            The current art index file: its name and `url`, `digest` (the settings digest of its fingerprints), \
            `content_digest` (the SHA-256 of the file), `count`, `catalog_version`, `size_bytes` and \
            `written_at`. The same on every replica (the index is kept in PostgreSQL); 404 before the first art \
            build.

            """ + ApiAccess.PUBLIC)
    @APIResponse(responseCode = "200", description = "The current index file.",
            content = @Content(mediaType = MediaType.APPLICATION_JSON,
                    schema = @Schema(implementation = IndexView.class)))
    @APIResponse(responseCode = "404", ref = "NotFound")
    @APIResponse(responseCode = "406", ref = "NotAcceptable")
    @APIResponse(responseCode = "500", ref = "InternalError")
    public IndexView current() {
        ArtIndexStore.StoredIndex index = store.current().orElseThrow(() -> ProblemException.notFound(
                "There is no art index yet: it is written by the first art build (POST /api/art-builds)."));
        ArtIndexName name = index.name();
        return new IndexView(index.fileName(), "/api/art-index/files/" + index.fileName(), name.settingsDigest(),
                index.contentDigest(), name.count(), name.catalogVersion(), index.sizeBytes(), index.writtenAt());
    }

    /**
     * An index file, one of the two newest, byte-identical on every replica and served as it is stored (gzip) and
     * immutable: {@code Content-Encoding: gzip}, {@code Cache-Control: max-age=31536000, public, immutable},
     * {@code ETag} = the quoted name; 304 when {@code If-None-Match} names it. Any other name is 404.
     */
    @GET
    @Path("files/{name}")
    @Produces(MediaType.APPLICATION_OCTET_STREAM)
    @Blocking
    @Operation(operationId = "getArtIndexFile", summary = "One of the two newest art index files",
            description = """
            One of the two newest index files, byte-identical on every replica, sent as stored (`Content-Encoding: \
            gzip`) and immutable, with `ETag` the quoted name and 304 on revalidation; 404 for any other name. The \
            name carries the first 16 hex characters of the file's SHA-256, so different bytes never share a name. \
            The file is format 2: a 28-byte header (`CART`, the format version, the settings digest, the record \
            count) and 145-byte records sorted by artwork id (its UUID, its face, its 128-byte fingerprint), as \
            docs/api.md describes byte by byte.

            """ + ApiAccess.PUBLIC)
    @APIResponse(responseCode = "200", description = "The file as stored: gzip (`Content-Encoding: gzip`), immutable.",
            headers = {
                @Header(name = "ETag", description = "The quoted file name.",
                        schema = @Schema(type = SchemaType.STRING)),
                @Header(name = "Cache-Control", description = "`max-age=31536000, public, immutable`",
                        schema = @Schema(type = SchemaType.STRING)),
                @Header(name = "Content-Encoding", description = "`gzip`", schema = @Schema(type = SchemaType.STRING))},
            content = @Content(mediaType = MediaType.APPLICATION_OCTET_STREAM,
                    schema = @Schema(type = SchemaType.STRING, format = "binary")))
    @APIResponse(responseCode = "304", description = "`If-None-Match` names the file: the copy the client has is it.",
            headers = @Header(name = "ETag", description = "The quoted file name.",
                    schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "404", ref = "NotFound")
    @APIResponse(responseCode = "406", ref = "NotAcceptable")
    @APIResponse(responseCode = "500", ref = "InternalError")
    public Response file(@PathParam("name") @Parameter(description = "The file's name, as `GET /api/art-index` gives "
            + "it.") String name, @HeaderParam("If-None-Match") String ifNoneMatch) {
        ArtIndexStore.StoredIndex index = store.find(name).orElseThrow(() -> noFile(name));
        String etag = "\"" + name + "\"";
        Response.ResponseBuilder response;
        if (ifNoneMatch != null && matches(ifNoneMatch, etag)) {
            response = Response.notModified();
        } else {
            java.nio.file.Path file = store.file(index).orElseThrow(() -> noFile(name));
            response = Response.ok(file.toFile(), MediaType.APPLICATION_OCTET_STREAM_TYPE)
                    .header("Content-Encoding", "gzip");
        }
        return response.header("ETag", etag)
                .header("Cache-Control", "max-age=31536000, public, immutable")
                .build();
    }

    private static ProblemException noFile(String name) {
        return ProblemException.notFound("There is no art index file " + name + ".");
    }

    private static boolean matches(String ifNoneMatch, String etag) {
        for (String candidate : ifNoneMatch.split(",")) {
            String tag = candidate.trim();
            if (tag.startsWith("W/")) {
                tag = tag.substring(2);
            }
            if (tag.equals("*") || tag.equals(etag)) {
                return true;
            }
        }
        return false;
    }
}
