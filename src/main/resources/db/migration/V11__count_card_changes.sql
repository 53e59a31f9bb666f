-- A counter of the statements that changed `card`, so that a replica can tell whether its in-memory name index
-- (catalog.NameIndex) still shows the table: the index records the count it was read at, and a search uses it only
-- while the count is the same. A statement-level trigger counts every writer: the refresh's batches, its retire
-- step, and anything an operator runs by hand, TRUNCATE included.
CREATE TABLE card_change (
    one     boolean PRIMARY KEY DEFAULT true CHECK (one),
    changes bigint  NOT NULL
);
INSERT INTO card_change (one, changes) VALUES (true, 0);

CREATE FUNCTION count_card_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE card_change SET changes = changes + 1;
    RETURN NULL;
END
$$;

CREATE TRIGGER card_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON card
    FOR EACH STATEMENT EXECUTE FUNCTION count_card_change();
