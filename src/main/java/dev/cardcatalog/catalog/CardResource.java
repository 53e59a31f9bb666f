package dev.cardcatalog.catalog;

import dev.cardcatalog.platform.ApiAccess;
import dev.cardcatalog.platform.Paging;
import dev.cardcatalog.platform.ProblemException;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.PermitAll;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirements;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Reading the catalog's cards. Public. Lists hide retired cards; a card by id is shown retired or not.
 */
@PermitAll
@SecurityRequirements
@Tag(name = "Catalog")
@Path("/api/cards")
@Produces(MediaType.APPLICATION_JSON)
public class CardResource {

    /** The most matches a list counts: {@code total} is at most this, with {@code total_capped} when more match. */
    static final int MAX_TOTAL = 1_000;
    private static final String SUMMARY_COLUMNS = "id, oracle_id, name, lang, layout, set_code, collector_number, "
            + "released_at, illustration_id, image_small_uri";

    private final Pool pool;
    private final NameIndex nameIndex;

    public CardResource(Pool pool, NameIndex nameIndex) {
        this.pool = pool;
        this.nameIndex = nameIndex;
    }

    /** A card with Scryfall's whole card object; 404 when the catalog has no such card. */
    @GET
    @Path("{id}")
    @Operation(operationId = "getCard", summary = "One card by Scryfall id", description = """
            One card by Scryfall id, retired or not (`retired_at` is set once the card is no longer in Scryfall's \
            file), with Scryfall's whole card object under `scryfall`, exactly as the bulk file had it, escapes \
            included. The mapped fields beside it (`name`, `lang`, `set`, ...) are text PostgreSQL can hold: a \
            U+0000 or an unpaired surrogate in the file becomes U+FFFD in them. `illustration_id` and \
            `image_small_uri` are the front face's for double-faced layouts.

            """ + ApiAccess.PUBLIC)
    @APIResponse(responseCode = "200", description = "The card, retired or not, with Scryfall's card object.",
            content = @Content(mediaType = MediaType.APPLICATION_JSON,
                    schema = @Schema(implementation = CardViews.CardDetail.class)))
    @APIResponse(responseCode = "400", ref = "InvalidRequest")
    @APIResponse(responseCode = "404", ref = "NotFound")
    @APIResponse(responseCode = "406", ref = "NotAcceptable")
    @APIResponse(responseCode = "500", ref = "InternalError")
    // one prepared statement on the pool: no Hibernate session or entity for a read of one row
    public Uni<CardViews.CardDetail> get(@PathParam("id") @Parameter(description = "The card's Scryfall id.",
            schema = @Schema(type = SchemaType.STRING, format = "uuid")) String id) {
        UUID cardId = uuid(id);
        return pool.preparedQuery("SELECT " + CardViews.CardDetail.COLUMNS + " FROM card WHERE id = $1")
                .execute(Tuple.of(cardId)).map(rows -> {
                    if (rows.size() == 0) {
                        throw ProblemException.notFound("The catalog has no card " + id + ".");
                    }
                    return CardViews.CardDetail.of(rows.iterator().next());
                });
    }

    /**
     * Cards by name (case- and accent-insensitive, any part of the card's name or of one face's name) or by set
     * code and collector number, active ones only, ordered by name, newest printing first. {@code total} counts at
     * most {@value #MAX_TOTAL} matches ({@code total_capped} says when more match); pages past it still answer.
     *
     * @param name text to find in a name; at least one of {@code name} and {@code set} is required
     * @param set a set code, e.g. {@code xln}
     * @param collectorNumber with {@code set}: a collector number as printed, e.g. {@code 96}, {@code 15★}
     * @param lang a language code, e.g. {@code en}; all languages when absent
     * @param page from 1 to 1,000,000; 1 when absent
     * @param size 1 to 100; 20 when absent
     */
    @GET
    @Operation(operationId = "searchCards", summary = "Active cards by name, or by set and collector number",
            description = """
            Active cards, ordered by name and then newest printing. Give `name`, or `set` (with `collector_number` \
            if you like); without either the answer is 400. `name` matches any part of the card's name or of one \
            face's name, case and accents ignored: `dawn` finds "Dusk // Dawn", `grishnakh` finds "Grishnákh, Brash \
            Instigator".

            `total` counts the matching cards up to 1,000: when more match, `total` is 1,000 and `total_capped` is \
            `true`, and the pages past the thousandth card still answer. A `page` or `size` out of range, or a text \
            parameter holding a control character, is 400 `invalid-request` naming the parameter in `field`.

            """ + ApiAccess.PUBLIC)
    @APIResponse(responseCode = "200", description = "A page of active cards, by name and then newest printing.",
            content = @Content(mediaType = MediaType.APPLICATION_JSON,
                    schema = @Schema(implementation = CardViews.CardPage.class)))
    @APIResponse(responseCode = "400", ref = "InvalidRequest")
    @APIResponse(responseCode = "406", ref = "NotAcceptable")
    @APIResponse(responseCode = "500", ref = "InternalError")
    // no Hibernate session: it would hold a pooled connection while these queries wait for another
    public Uni<CardViews.CardPage> search(
            @QueryParam("name") @Parameter(description = "Text to find in the card's name or one face's name, case "
                    + "and accents ignored; `name` or `set` is required.") String name,
            @QueryParam("set") @Parameter(description = "A set code, any case.") String set,
            @QueryParam("collector_number") @Parameter(description = "With `set`: the collector number as printed.")
            String collectorNumber,
            @QueryParam("lang") @Parameter(description = "A language code; all languages when absent.") String lang,
            @QueryParam("page") @Parameter(description = dev.cardcatalog.platform.Paging.PAGE, schema = @Schema(
                    type = SchemaType.INTEGER, minimum = "1", maximum = "1000000", defaultValue = "1")) String page,
            @QueryParam("size") @Parameter(description = dev.cardcatalog.platform.Paging.SIZE, schema = @Schema(
                    type = SchemaType.INTEGER, minimum = "1", maximum = "100", defaultValue = "20")) String size) {
        Paging paging = Paging.of(page, size);
        name = ProblemException.text("name", name);
        set = ProblemException.text("set", set);
        collectorNumber = ProblemException.text("collector_number", collectorNumber);
        lang = ProblemException.text("lang", lang);
        boolean byName = name != null;
        boolean bySet = set != null;
        if (!byName && !bySet) {
            throw ProblemException.badRequest("name", "Give name, or set (and collector_number), to find cards.");
        }
        if (!bySet && collectorNumber != null) {
            throw ProblemException.badRequest("set", "collector_number needs set.");
        }
        String key = byName ? CardMapper.searchKey(name) : null;
        String language = lang == null ? null : lang.toLowerCase(Locale.ROOT);
        if (bySet) {
            return inSql(key, set.toLowerCase(Locale.ROOT), collectorNumber, language, paging);
        }
        // by name alone: this replica's name index when it shows the table as it is now, else SQL
        return pool.query("SELECT changes FROM card_change").execute().chain(changes -> nameIndex
                .at(changes.iterator().next().getLong(0))
                .map(snapshot -> fromIndex(snapshot, key, language, paging))
                .orElseGet(() -> inSql(key, null, null, language, paging)));
    }

    /** A page found through the name index: the matches' ids there, their rows from the table. */
    private Uni<CardViews.CardPage> fromIndex(NameIndex.Snapshot snapshot, String key, String lang, Paging paging) {
        NameIndex.Matches matches = NameIndex.find(snapshot, key, lang, paging.offset(), paging.size(), MAX_TOTAL + 1);
        if (matches.ids().isEmpty()) {
            return Uni.createFrom().item(page(List.of(), paging, matches.total()));
        }
        return pool.preparedQuery("SELECT " + SUMMARY_COLUMNS + " FROM card WHERE id = ANY ($1)")
                .execute(Tuple.of(matches.ids().toArray(UUID[]::new))).map(rows -> {
                    Map<UUID, CardViews.CardSummary> byId = new HashMap<>();
                    for (Row row : rows) {
                        CardViews.CardSummary card = summary(row);
                        byId.put(card.id(), card);
                    }
                    List<CardViews.CardSummary> items = new ArrayList<>(byId.size());
                    for (UUID id : matches.ids()) {
                        // a card deleted since the count was read is left out
                        CardViews.CardSummary card = byId.get(id);
                        if (card != null) {
                            items.add(card);
                        }
                    }
                    return page(items, paging, matches.total());
                });
    }

    /**
     * A page found in SQL: the name through the trigram index (migration V8), the set through its index; the count
     * capped by a {@code LIMIT}. {@code key} is a search key ({@link CardMapper#searchKey}); {@code set} and
     * {@code lang} lower case; each null when not asked for.
     */
    Uni<CardViews.CardPage> inSql(String key, String set, String collectorNumber, String lang, Paging paging) {
        StringBuilder where = new StringBuilder("retired_at IS NULL");
        List<Object> parameters = new ArrayList<>();
        if (key != null) {
            // a trigram index (migration V8) answers patterns of 3 characters or more
            parameters.add("%" + escapeLike(key) + "%");
            where.append(" AND search_names LIKE $").append(parameters.size()).append(" ESCAPE '\\'");
        }
        if (set != null) {
            parameters.add(set);
            where.append(" AND set_code = $").append(parameters.size());
            if (collectorNumber != null) {
                parameters.add(collectorNumber);
                where.append(" AND collector_number = $").append(parameters.size());
            }
        }
        if (lang != null) {
            parameters.add(lang);
            where.append(" AND lang = $").append(parameters.size());
        }
        Tuple arguments = Tuple.from(parameters);
        String count = "SELECT count(*) FROM (SELECT 1 FROM card WHERE " + where + " LIMIT " + (MAX_TOTAL + 1)
                + ") AS matching";
        String list = "SELECT " + SUMMARY_COLUMNS + " FROM card WHERE " + where
                + " ORDER BY name, released_at DESC, id LIMIT " + paging.size() + " OFFSET " + paging.offset();
        return pool.preparedQuery(count).execute(arguments).chain(counted -> {
            long total = counted.iterator().next().getLong(0);
            return pool.preparedQuery(list).execute(arguments).map(rows -> {
                List<CardViews.CardSummary> items = new ArrayList<>(rows.size());
                for (Row row : rows) {
                    items.add(summary(row));
                }
                return page(items, paging, total);
            });
        });
    }

    private static CardViews.CardPage page(List<CardViews.CardSummary> items, Paging paging, long total) {
        return new CardViews.CardPage(items, paging.page(), paging.size(), Math.min(total, MAX_TOTAL),
                total > MAX_TOTAL);
    }

    private static CardViews.CardSummary summary(Row row) {
        return new CardViews.CardSummary(row.getUUID("id"), row.getUUID("oracle_id"), row.getString("name"),
                row.getString("lang"), row.getString("layout"), row.getString("set_code"),
                row.getString("collector_number"), row.getLocalDate("released_at"), row.getUUID("illustration_id"),
                row.getString("image_small_uri"), null);
    }

    static String escapeLike(String text) {
        return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
    }

    private static UUID uuid(String text) {
        try {
            UUID id = UUID.fromString(text);
            if (id.toString().equalsIgnoreCase(text)) {
                return id;
            }
        } catch (IllegalArgumentException ignored) {
            // answered below
        }
        throw ProblemException.badRequest("id", "id must be a Scryfall card id (a UUID), not " + ProblemException.quote(text) + ".");
    }
}
