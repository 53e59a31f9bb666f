package dev.cardcatalog.platform;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** How {@link AcceptedTypes} reads a resource's path template and says what an operation takes. */
class AcceptedTypesTest {

    @Test
    void aClassPathAndAMethodPathJoinWithOneSlashAndNoneAtTheEnd() {
        assertThat(AcceptedTypes.join("/api/art-index", "files/{name}")).isEqualTo("/api/art-index/files/{name}");
        assertThat(AcceptedTypes.join("api/refreshes/", "")).isEqualTo("/api/refreshes");
        assertThat(AcceptedTypes.join("/", "/")).isEqualTo("/");
        assertThat(AcceptedTypes.join("/admin", "/jobs/{id}/cancel")).isEqualTo("/admin/jobs/{id}/cancel");
    }

    @Test
    void aParameterIsOneSegmentAndTheRestIsLiteral() {
        var pattern = AcceptedTypes.pattern("/api/scryfall/quiet-windows/{scope}/close");
        assertThat(pattern.matcher("/api/scryfall/quiet-windows/api.scryfall.com/close").matches()).isTrue();
        assertThat(pattern.matcher("/api/scryfall/quiet-windows/a/b/close").matches()).isFalse();
        assertThat(pattern.matcher("/api/scryfall/quiet-windows//close").matches()).isFalse();
        // a dot or a bracket in the template is itself, not a pattern's
        assertThat(AcceptedTypes.pattern("/a.b/{x: [0-9]+}").matcher("/a.b/12").matches()).isTrue();
        assertThat(AcceptedTypes.pattern("/a.b/{x}").matcher("/axb/12").matches()).isFalse();
    }

    @Test
    void theSentenceListsTheTypesInTheirOrder() {
        assertThat(AcceptedTypes.sentence(List.of())).isNull();
        assertThat(AcceptedTypes.sentence(List.of("application/json")))
                .isEqualTo("This operation takes a body of type application/json.");
        assertThat(AcceptedTypes.sentence(List.of("image/jpeg", "image/png", "application/octet-stream")))
                .isEqualTo("This operation takes a body of type image/jpeg, image/png or application/octet-stream.");
    }
}
