-- The admin page (SERVICE.md §8) reads, on every render, the newest job of each kind and the newest runs of each
-- kind: two short index scans instead of sorting the whole ledger.
CREATE INDEX job_kind_created_idx ON job (kind, created_at DESC);
CREATE INDEX job_run_started_idx ON job_run (started_at DESC);
