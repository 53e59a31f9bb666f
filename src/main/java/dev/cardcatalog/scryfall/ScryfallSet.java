package dev.cardcatalog.scryfall;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A Scryfall set object: the fields the catalog maps, and the whole object ({@code raw}) so no field is lost.
 */
public record ScryfallSet(String id, String code, String name, String setType, String releasedAt,
        Integer cardCount, String parentSetCode, boolean digital, String iconSvgUri, JsonNode raw) {

    static ScryfallSet of(JsonNode node) {
        return new ScryfallSet(text(node, "id"), text(node, "code"), text(node, "name"), text(node, "set_type"),
                text(node, "released_at"), node.hasNonNull("card_count") ? node.get("card_count").asInt() : null,
                text(node, "parent_set_code"), node.path("digital").asBoolean(false), text(node, "icon_svg_uri"),
                node);
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value.asText();
    }
}
