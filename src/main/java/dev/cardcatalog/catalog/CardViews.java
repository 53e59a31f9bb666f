package dev.cardcatalog.catalog;

import com.fasterxml.jackson.annotation.JsonRawValue;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** The catalog's read shapes (field names as Scryfall's, snake_case on the wire). */
public final class CardViews {

    private CardViews() {
    }

    /** A card in a list. {@code retired_at} is set when the card left Scryfall's file. */
    public record CardSummary(UUID id, UUID oracleId, String name, String lang, String layout, String set,
            String collectorNumber, LocalDate releasedAt, UUID illustrationId, String imageSmallUri,
            Instant retiredAt) {

        static CardSummary of(Card card) {
            return new CardSummary(card.id, card.oracleId, card.name, card.lang, card.layout, card.setCode,
                    card.collectorNumber, card.releasedAt, card.illustrationId, card.imageSmallUri, card.retiredAt);
        }
    }

    /**
     * One card with Scryfall's whole card object: {@code scryfall} is the object's JSON text as the bulk file had it,
     * sent as it is (a JSON object in the answer, never re-encoded).
     */
    public record CardDetail(UUID id, UUID oracleId, String name, String lang, String layout, String set,
            String collectorNumber, LocalDate releasedAt, UUID illustrationId, String imageSmallUri,
            Instant firstSeenAt, Instant updatedAt, Instant retiredAt,
            @JsonRawValue @Schema(type = SchemaType.OBJECT, description = "Scryfall's card object") String scryfall) {

        static CardDetail of(Card card) {
            return new CardDetail(card.id, card.oracleId, card.name, card.lang, card.layout, card.setCode,
                    card.collectorNumber, card.releasedAt, card.illustrationId, card.imageSmallUri,
                    card.firstSeenAt, card.updatedAt, card.retiredAt, CardObjects.text(card.scryfall));
        }
    }

    /**
     * A page of cards: {@code page} from 1; {@code total} matching cards, counted up to
     * {@link CardResource#MAX_TOTAL}; {@code totalCapped} when more match than that.
     */
    public record CardPage(List<CardSummary> items, int page, int size, long total, boolean totalCapped) {
    }

    /** A set. */
    public record SetView(UUID id, String code, String name, String setType, LocalDate releasedAt,
            Integer cardCount, String parentSetCode, boolean digital, String iconSvgUri) {

        static SetView of(CardSet set) {
            return new SetView(set.id, set.code, set.name, set.setType, set.releasedAt, set.cardCount,
                    set.parentSetCode, set.digital, set.iconSvgUri);
        }
    }
}
