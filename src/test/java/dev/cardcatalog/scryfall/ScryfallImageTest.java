package dev.cardcatalog.scryfall;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cardcatalog.testing.ArtProfile;
import dev.cardcatalog.testing.CardCatalogTestResource;
import dev.cardcatalog.testing.ScryfallStandIn;
import dev.cardcatalog.testing.TestData;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Image requests through the client, spaced by the image lane (2 ms in this profile): every wait, however short, ends
 * (a sub-millisecond timer once never fired and hung the art build).
 */
@QuarkusTest
@TestProfile(ArtProfile.class)
@WithTestResource(CardCatalogTestResource.class)
class ScryfallImageTest {

    @Inject
    ScryfallClient client;

    @BeforeEach
    void reset() {
        TestData.reset();
    }

    @Test
    void imagesInARowAreEachFetchedWithAnImageAccept() {
        for (int i = 0; i < 50; i++) {
            byte[] image = client.image("https://cards.scryfall.io/small/front/0/0/003367c7-6cb8-4451-8349-76ce5d21e367.jpg?1", 1 << 20)
                    .await().atMost(Duration.ofSeconds(10));
            assertThat(image).isNotEmpty();
        }
        assertThat(ScryfallStandIn.shared().requests("/small/")).hasSize(50)
                .allSatisfy(request -> assertThat(request.header("Accept")).isEqualTo("image/*"));
    }
}
