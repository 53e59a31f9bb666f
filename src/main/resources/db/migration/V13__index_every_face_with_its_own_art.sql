-- Issue 15: every face with its own art is an artwork (SERVICE.md §5.1).
--
-- 1. The faces of a card that have their own image_uris (transform, modal_dfc, reversible_card, battle, ...): one
--    row per face, written with the card by a refresh. A card whose faces share one image (split, flip, adventure)
--    or that has no card_faces has no row: its artwork is the card's illustration_id and image_small_uri.
CREATE TABLE card_face_image (
    card_id         uuid     NOT NULL REFERENCES card (id) ON DELETE CASCADE,
    -- the face's index in the card object's card_faces, from 0
    face            smallint NOT NULL CHECK (face >= 0),
    name            text     NOT NULL,
    illustration_id uuid,
    image_small_uri text,
    PRIMARY KEY (card_id, face)
);

CREATE INDEX card_face_image_illustration_idx ON card_face_image (illustration_id)
    WHERE illustration_id IS NOT NULL;

-- 2. Cards stored before this migration have not had their faces read. Their objects are mostly LZ4-compressed by
--    the service (V8), which SQL cannot read, so the art build reads them, once, from the stored objects
--    (ArtworkPrintings); a refresh that writes a card writes its faces. Existing rows read true, new rows false
--    (a constant default is stored once, not written to every row).
ALTER TABLE card ADD COLUMN faces_unread boolean NOT NULL DEFAULT true;
ALTER TABLE card ALTER COLUMN faces_unread SET DEFAULT false;
CREATE INDEX card_faces_unread_idx ON card (id) WHERE faces_unread;

-- 3. The index file's format (ArtIndexFile): version 2 records each artwork's face. A replica ignores an index of
--    an older format until a build replaces it.
ALTER TABLE art_index ADD COLUMN format_version smallint NOT NULL DEFAULT 1;
