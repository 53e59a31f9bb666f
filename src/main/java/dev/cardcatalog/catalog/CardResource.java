package dev.cardcatalog.catalog;

import dev.cardcatalog.platform.Paging;
import dev.cardcatalog.platform.ProblemException;
import io.quarkus.hibernate.reactive.panache.PanacheQuery;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.panache.common.Parameters;
import io.quarkus.panache.common.Sort;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.Locale;
import java.util.UUID;

/**
 * Reading the catalog's cards. Public. Lists hide retired cards; a card by id is shown retired or not.
 */
@Path("/api/cards")
@Produces(MediaType.APPLICATION_JSON)
@WithSession
public class CardResource {

    /** A card with Scryfall's whole card object; 404 when the catalog has no such card. */
    @GET
    @Path("{id}")
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
     * code and collector number, active ones only, ordered by name, newest printing first.
     *
     * @param name text to find in a name; at least one of {@code name} and {@code set} is required
     * @param set a set code, e.g. {@code xln}
     * @param collectorNumber with {@code set}: a collector number as printed, e.g. {@code 96}, {@code 15★}
     * @param lang a language code, e.g. {@code en}; all languages when absent
     * @param page from 1 to 1,000,000; 1 when absent
     * @param size 1 to 100; 20 when absent
     */
    @GET
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
        StringBuilder query = new StringBuilder("retiredAt is null");
        Parameters parameters = new Parameters();
        if (byName) {
            query.append(" and searchNames like :pattern escape '\\'");
            parameters.and("pattern", "%" + escapeLike(CardMapper.searchKey(name.trim())) + "%");
        }
        if (bySet) {
            query.append(" and setCode = :set");
            parameters.and("set", set.trim().toLowerCase(Locale.ROOT));
            if (collectorNumber != null) {
                query.append(" and collectorNumber = :number");
                parameters.and("number", collectorNumber.trim());
            }
        }
        if (lang != null) {
            query.append(" and lang = :lang");
            parameters.and("lang", lang.trim().toLowerCase(Locale.ROOT));
        }
        Sort sort = Sort.by("name").and("releasedAt", Sort.Direction.Descending).and("id");
        PanacheQuery<Card> found = Card.find(query.toString(), sort, parameters);
        return found.count().chain(total -> found.page(paging.page() - 1, paging.size()).list()
                .map(cards -> new CardViews.CardPage(cards.stream().map(c -> CardViews.CardSummary.of((Card) c))
                        .toList(), paging.page(), paging.size(), total)));
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
