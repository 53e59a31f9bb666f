package dev.cardcatalog.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** {@link NameIndex#find}: substring matches in list order, each card once, as {@code LIKE '%key%'} finds them. */
class NameIndexFindTest {

    private static final List<String> NAMES = List.of(
            "ancient grudge", // en
            "ancient ancient ox", // en: the key twice in one card
            "bruna, the fading light\nbrisela, voice of nightmares", // en: two faces
            "grudge ancient", // de
            "zz top"); // en: the last card
    private static final List<String> LANGS = List.of("en", "en", "en", "de", "en");
    private static final NameIndex.Snapshot SNAPSHOT = snapshot();

    @Test
    void findsEachCardOnceInListOrder() {
        assertThat(find("ancient", null, 0, 20)).containsExactly(0, 1, 3);
        assertThat(NameIndex.find(SNAPSHOT, "ancient", null, 0, 20, 1001).total()).isEqualTo(3);
    }

    @Test
    void findsInEveryFaceButNeverAcrossFacesOrCards() {
        assertThat(find("brisela", null, 0, 20)).containsExactly(2);
        assertThat(find("light", null, 0, 20)).containsExactly(2);
        assertThat(find("grudge ancient", null, 0, 20)).containsExactly(3);
        // the end of one card's name and the start of the next never make a match
        assertThat(find("grudgeancient", null, 0, 20)).isEmpty();
        assertThat(find("top", null, 0, 20)).containsExactly(4);
        assertThat(find("zq1x", null, 0, 20)).isEmpty();
    }

    @Test
    void anEmptyKeyMatchesEveryCardAsLikeDoes() {
        assertThat(find("", null, 0, 20)).containsExactly(0, 1, 2, 3, 4);
    }

    @Test
    void filtersByLanguage() {
        assertThat(find("ancient", "de", 0, 20)).containsExactly(3);
        assertThat(find("ancient", "en", 0, 20)).containsExactly(0, 1);
        assertThat(find("ancient", "ja", 0, 20)).isEmpty();
    }

    @Test
    void pagesAndCountsUpToTheLimitUnlessThePageEndsPastIt() {
        assertThat(find("", null, 2, 2)).containsExactly(2, 3);
        assertThat(find("", null, 4, 2)).containsExactly(4);
        assertThat(find("", null, 6, 2)).isEmpty();
        assertThat(NameIndex.find(SNAPSHOT, "", null, 0, 1, 2).total()).isEqualTo(2);
        // a page past the limit is still found; the count goes as far as the page's end
        NameIndex.Matches past = NameIndex.find(SNAPSHOT, "", null, 3, 1, 2);
        assertThat(past.ids()).containsExactly(SNAPSHOT.ids()[3]);
        assertThat(past.total()).isEqualTo(4);
    }

    private static List<Integer> find(String key, String lang, long offset, int size) {
        List<Integer> cards = new ArrayList<>();
        for (UUID id : NameIndex.find(SNAPSHOT, key, lang, offset, size, 1001).ids()) {
            cards.add(List.of(SNAPSHOT.ids()).indexOf(id));
        }
        return cards;
    }

    private static NameIndex.Snapshot snapshot() {
        StringBuilder names = new StringBuilder();
        int[] starts = new int[NAMES.size()];
        UUID[] ids = new UUID[NAMES.size()];
        byte[] langs = new byte[NAMES.size()];
        List<String> languages = List.of("en", "de");
        for (int i = 0; i < NAMES.size(); i++) {
            starts[i] = names.length();
            names.append(NAMES.get(i)).append('\n');
            ids[i] = UUID.randomUUID();
            langs[i] = (byte) languages.indexOf(LANGS.get(i));
        }
        return new NameIndex.Snapshot(7, names.toString(), starts, ids, langs, languages);
    }
}
