package dev.cardcatalog.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cardcatalog.testing.ScryfallStandIn;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Which faces of a card have their own image (SERVICE.md §5.1), as the mapper reads them: every card of the bundled
 * sample against its object read here with a tree parser, and the edge cases of {@code card_faces}.
 */
class CardFaceImagesTest {

    private final CardMapper mapper = new CardMapper();
    private final ObjectMapper json = new ObjectMapper();

    @Test
    void everyFaceWithItsOwnImageUrisIsKeptWithItsIndexNameIllustrationAndImage() throws Exception {
        Map<String, Integer> facesByLayout = new HashMap<>();
        for (String line : ScryfallStandIn.sampleCardLines()) {
            JsonNode card = json.readTree(line);
            List<MappedCard.FaceImage> expected = new ArrayList<>();
            JsonNode faces = card.path("card_faces");
            for (int k = 0; k < faces.size(); k++) {
                JsonNode face = faces.get(k);
                if (face.path("image_uris").isObject()) {
                    String illustration = face.path("illustration_id").asText(null);
                    expected.add(new MappedCard.FaceImage(k, face.get("name").asText(),
                            illustration == null ? null : UUID.fromString(illustration),
                            face.path("image_uris").path("small").asText(null)));
                }
            }

            MappedCard mapped = mapper.map(line.getBytes(StandardCharsets.UTF_8));

            assertThat(mapped.faceImages()).as(card.get("id").asText()).isEqualTo(expected);
            facesByLayout.merge(card.get("layout").asText(), expected.size(), Integer::sum);
        }
        // the kinds of SERVICE.md §5.1: two faces each with their own image, or none for faces sharing one image
        assertThat(facesByLayout).containsEntry("transform", 70).containsEntry("modal_dfc", 12)
                .containsEntry("reversible_card", 8).containsEntry("split", 0).containsEntry("adventure", 0)
                .containsEntry("flip", 0).containsEntry("normal", 0);
    }

    @Test
    void aFaceThatIsNotAnObjectKeepsTheIndexOfTheFacesAfterIt() throws Exception {
        String card = """
                {"id":"00000000-0000-4000-8000-000000000001","name":"A // B","lang":"en","layout":"transform",
                 "set":"tst","collector_number":"1","games":["paper"],
                 "card_faces":[null,{"name":"B","illustration_id":"00000000-0000-4000-8000-0000000000bb",
                   "image_uris":{"small":"https://cards.scryfall.io/small/back/0/0/x.jpg?1"}},
                   {"name":"C","image_uris":{"normal":"https://cards.scryfall.io/normal/back/0/0/x.jpg"}},
                   {"name":"D"}]}""";

        MappedCard mapped = mapper.map(card.getBytes(StandardCharsets.UTF_8));

        assertThat(mapped.faceImages()).containsExactly(
                new MappedCard.FaceImage(1, "B", UUID.fromString("00000000-0000-4000-8000-0000000000bb"),
                        "https://cards.scryfall.io/small/back/0/0/x.jpg?1"),
                new MappedCard.FaceImage(2, "C", null, null));
    }
}
