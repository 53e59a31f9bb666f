package dev.cardcatalog.catalog;

import com.fasterxml.jackson.annotation.JsonRawValue;
import io.vertx.mutiny.sqlclient.Row;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** The catalog's read shapes (field names as Scryfall's, snake_case on the wire). */
public final class CardViews {

    private CardViews() {
    }

    /** A card in a list. {@code retired_at} is set when the card left Scryfall's file. */
    public record CardSummary(UUID id, @Schema(nullable = true) UUID oracleId, String name, String lang,
            String layout, String set, String collectorNumber, @Schema(nullable = true) LocalDate releasedAt,
            @Schema(nullable = true) UUID illustrationId, @Schema(nullable = true) String imageSmallUri,
            @Schema(nullable = true) Instant retiredAt) {

    }

    /**
     * One card with Scryfall's whole card object: {@code scryfall} is the object's JSON text as the bulk file had it,
     * sent as it is (a JSON object in the answer, never re-encoded).
     */
    public record CardDetail(UUID id, @Schema(nullable = true) UUID oracleId, String name, String lang,
            String layout, String set, String collectorNumber, @Schema(nullable = true) LocalDate releasedAt,
            @Schema(nullable = true) UUID illustrationId, @Schema(nullable = true) String imageSmallUri,
            Instant firstSeenAt, Instant updatedAt, @Schema(nullable = true) Instant retiredAt,
            @JsonRawValue @Schema(type = SchemaType.OBJECT, description = "Scryfall's card object") String scryfall) {

        /** The columns {@link #of(Row)} reads, for a {@code SELECT} from {@code card}. */
        static final String COLUMNS = "id, oracle_id, name, lang, layout, set_code, collector_number, released_at, "
                + "illustration_id, image_small_uri, first_seen_at, updated_at, retired_at, scryfall";

        /** The card in {@code row}, a row of {@link #COLUMNS}; its object decompressed ({@link CardObjects}). */
        static CardDetail of(Row row) {
            return new CardDetail(row.getUUID("id"), row.getUUID("oracle_id"), row.getString("name"),
                    row.getString("lang"), row.getString("layout"), row.getString("set_code"),
                    row.getString("collector_number"), row.getLocalDate("released_at"),
                    row.getUUID("illustration_id"), row.getString("image_small_uri"),
                    instant(row.getOffsetDateTime("first_seen_at")), instant(row.getOffsetDateTime("updated_at")),
                    instant(row.getOffsetDateTime("retired_at")), CardObjects.text(row.getBuffer("scryfall").getBytes()));
        }

        private static Instant instant(OffsetDateTime time) {
            return time == null ? null : time.toInstant();
        }
    }

    /**
     * A page of cards: {@code page} from 1; {@code total} matching cards, counted up to
     * {@link CardResource#MAX_TOTAL}; {@code totalCapped} when more match than that.
     */
    public record CardPage(List<CardSummary> items, int page, int size, long total, boolean totalCapped) {
    }

    /** A set. */
    public record SetView(UUID id, String code, String name, @Schema(nullable = true) String setType,
            @Schema(nullable = true) LocalDate releasedAt, @Schema(nullable = true) Integer cardCount,
            @Schema(nullable = true) String parentSetCode, boolean digital,
            @Schema(nullable = true) String iconSvgUri) {

        static SetView of(CardSet set) {
            return new SetView(set.id, set.code, set.name, set.setType, set.releasedAt, set.cardCount,
                    set.parentSetCode, set.digital, set.iconSvgUri);
        }
    }
}
