-- Issue 11: keep every card column but the card object in the table's own pages.
--
-- V8 set toast_tuple_target = 128 so that the card object (STORAGE EXTERNAL) always leaves the row. But once a row
-- is over the TOAST threshold, PostgreSQL moves any column of more than about 24 bytes out of line until the row is
-- under that target: name, search_names, image_small_uri and content_digest went to the TOAST table too, four or
-- five TOAST values a card instead of one. Every read of them became a TOAST index lookup: sorting 104,000 cards by
-- name took 3 to 7 s instead of 0.1 s, and each inserted card wrote five TOAST values.
--
-- STORAGE MAIN keeps a column in the row (compressed at most) unless the row cannot fit a page otherwise; the card
-- object stays EXTERNAL. Rows written before this migration keep their out-of-line values until a refresh writes
-- them again (a changed card, or a refresh into an empty catalog).
ALTER TABLE card
    ALTER COLUMN name SET STORAGE MAIN,
    ALTER COLUMN search_names SET STORAGE MAIN,
    ALTER COLUMN lang SET STORAGE MAIN,
    ALTER COLUMN layout SET STORAGE MAIN,
    ALTER COLUMN set_code SET STORAGE MAIN,
    ALTER COLUMN collector_number SET STORAGE MAIN,
    ALTER COLUMN image_small_uri SET STORAGE MAIN,
    ALTER COLUMN content_digest SET STORAGE MAIN;
