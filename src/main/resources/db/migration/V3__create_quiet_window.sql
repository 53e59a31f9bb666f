-- The quiet window of SERVICE.md §3.3: while open, no call but its owner asks that host again.
CREATE TABLE quiet_window (
    scope     text PRIMARY KEY,
    opened_at timestamptz NOT NULL,
    until     timestamptz NOT NULL,
    opened_by text        NOT NULL,
    reason    text
);
