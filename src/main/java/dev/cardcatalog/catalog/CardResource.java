package dev.cardcatalog.catalog;

import dev.cardcatalog.platform.Paging;
import dev.cardcatalog.platform.ProblemException;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
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
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/**
 * Reading the catalog's cards. Public. Lists hide retired cards; a card by id is shown retired or not.
 */
@PermitAll
@Path("/api/cards")
@Produces(MediaType.APPLICATION_JSON)
public class CardResource {

    /** The most matches a list counts: {@code total} is at most this, with {@code total_capped} when more match. */
    static final int MAX_TOTAL = 1_000;
    private static final String SUMMARY_COLUMNS = "id, oracle_id, name, lang, layout, set_code, collector_number, "
            + "released_at, illustration_id, image_small_uri";

    private final Pool pool;

    public CardResource(Pool pool) {
        this.pool = pool;
    }

    /** A card with Scryfall's whole card object; 404 when the catalog has no such card. */
    @GET
    @Path("{id}")
    @WithSession
    public Uni<CardViews.CardDetail> get(@PathParam("id") String id) {
        UUID cardId = uuid(id);
        return Card.<Card>findById(cardId).map(card -> {
            if (card == null) {
                throw ProblemException.notFound("The catalog has no card " + id + ".");
            }
            return CardViews.CardDetail.of(card);
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
    // no Hibernate session: it would hold a pooled connection while these queries wait for another
    public Uni<CardViews.CardPage> search(@QueryParam("name") String name, @QueryParam("set") String set,
            @QueryParam("collector_number") String collectorNumber, @QueryParam("lang") String lang,
            @QueryParam("page") String page, @QueryParam("size") String size) {
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
        StringBuilder where = new StringBuilder("retired_at IS NULL");
        List<Object> parameters = new ArrayList<>();
        if (byName) {
            // a trigram index (migration V8) answers patterns of 3 characters or more
            parameters.add("%" + escapeLike(CardMapper.searchKey(name.trim())) + "%");
            where.append(" AND search_names LIKE $").append(parameters.size()).append(" ESCAPE '\\'");
        }
        if (bySet) {
            parameters.add(set.trim().toLowerCase(Locale.ROOT));
            where.append(" AND set_code = $").append(parameters.size());
            if (collectorNumber != null) {
                parameters.add(collectorNumber.trim());
                where.append(" AND collector_number = $").append(parameters.size());
            }
        }
        if (lang != null) {
            parameters.add(lang.trim().toLowerCase(Locale.ROOT));
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
                return new CardViews.CardPage(items, paging.page(), paging.size(), Math.min(total, MAX_TOTAL),
                        total > MAX_TOTAL);
            });
        });
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
