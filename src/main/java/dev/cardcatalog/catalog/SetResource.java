package dev.cardcatalog.catalog;

import dev.cardcatalog.platform.ApiAccess;
import dev.cardcatalog.platform.ProblemException;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.panache.common.Sort;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import java.util.Locale;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirements;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Reading the catalog's sets, and a card by set code and collector number. Public. */
@PermitAll
@SecurityRequirements
@Tag(name = "Catalog")
@Path("/api/sets")
@Produces(MediaType.APPLICATION_JSON)
public class SetResource {

    private final Pool pool;

    public SetResource(Pool pool) {
        this.pool = pool;
    }

    /** Every set, newest first. */
    @GET
    @WithSession
    @Operation(operationId = "listSets", summary = "All sets, newest first", description = """
            All sets, newest first: `id`, `code`, `name`, `set_type`, `released_at`, `card_count`, \
            `parent_set_code`, `digital`, `icon_svg_uri`.

            """ + ApiAccess.PUBLIC)
    @APIResponse(responseCode = "200", description = "Every set, newest first.",
            content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(type = SchemaType.ARRAY, implementation = CardViews.SetView.class)))
    @APIResponse(responseCode = "406", ref = "NotAcceptable")
    @APIResponse(responseCode = "500", ref = "InternalError")
    public Uni<List<CardViews.SetView>> list() {
        return CardSet.<CardSet>listAll(Sort.by("releasedAt", Sort.Direction.Descending).and("code"))
                .map(sets -> sets.stream().map(CardViews.SetView::of).toList());
    }

    /** One set by its code; 404 when unknown. */
    @GET
    @Path("{code}")
    @WithSession
    @Operation(operationId = "getSet", summary = "One set by code", description = """
            One set by code (any case), as in the list; 404 when there is none.

            """ + ApiAccess.PUBLIC)
    @APIResponse(responseCode = "200", description = "The set.",
            content = @Content(mediaType = MediaType.APPLICATION_JSON,
                    schema = @Schema(implementation = CardViews.SetView.class)))
    @APIResponse(responseCode = "404", ref = "NotFound")
    @APIResponse(responseCode = "406", ref = "NotAcceptable")
    @APIResponse(responseCode = "500", ref = "InternalError")
    public Uni<CardViews.SetView> get(@PathParam("code") String code) {
        return CardSet.<CardSet>find("code", code.toLowerCase(Locale.ROOT)).firstResult().map(set -> {
            if (set == null) {
                throw ProblemException.notFound("The catalog has no set " + code + ".");
            }
            return CardViews.SetView.of(set);
        });
    }

    /**
     * The card printed in set {@code code} with collector number {@code number} (as printed: {@code 96},
     * {@code 15★}, {@code MM2-42}), in {@code lang} (default {@code en}); 404 when there is none. An active card
     * before a retired one.
     */
    @GET
    // one prepared statement on the pool, as CardResource#get
    @Path("{code}/cards/{number}")
    @Operation(operationId = "getCardInSet", summary = "One card by set code and collector number",
            description = """
            The card with that set code and collector number (as printed), in `lang` (default `en`), an active \
            card before a retired one, in the shape of `getCard`; 404 when there is none, 400 `invalid-request` \
            for a code, number or `lang` with a control character.

            """ + ApiAccess.PUBLIC)
    @APIResponse(responseCode = "200", description = "The card, active before retired.",
            content = @Content(mediaType = MediaType.APPLICATION_JSON,
                    schema = @Schema(implementation = CardViews.CardDetail.class)))
    @APIResponse(responseCode = "400", ref = "InvalidRequest")
    @APIResponse(responseCode = "404", ref = "NotFound")
    @APIResponse(responseCode = "406", ref = "NotAcceptable")
    @APIResponse(responseCode = "500", ref = "InternalError")
    public Uni<CardViews.CardDetail> card(@PathParam("code") String code,
            @PathParam("number") @Parameter(description = "The collector number as printed (`96`, `15★`, `MM2-42`).")
            String number,
            @QueryParam("lang") @Parameter(description = "A language code.", schema = @Schema(
                    type = SchemaType.STRING, defaultValue = "en")) String lang) {
        ProblemException.text("code", code);
        ProblemException.text("number", number);
        lang = ProblemException.text("lang", lang);
        String language = lang == null ? "en" : lang.toLowerCase(Locale.ROOT);
        return pool.preparedQuery("SELECT " + CardViews.CardDetail.COLUMNS
                        + " FROM card WHERE set_code = $1 AND collector_number = $2 AND lang = $3 "
                        + "ORDER BY retired_at IS NOT NULL, id LIMIT 1")
                .execute(Tuple.of(code.toLowerCase(Locale.ROOT), number, language)).map(rows -> {
                    if (rows.size() == 0) {
                        throw ProblemException.notFound("The catalog has no card " + code + " " + number + " in "
                                + language + ".");
                    }
                    return CardViews.CardDetail.of(rows.iterator().next());
                });
    }
}
