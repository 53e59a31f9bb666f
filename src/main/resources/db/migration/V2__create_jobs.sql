-- Jobs and runs: the ledger of SERVICE.md §6.1.

CREATE TABLE job (
    id                 uuid PRIMARY KEY,
    kind               text        NOT NULL CHECK (kind IN ('refresh', 'art-build')),
    trigger            text        NOT NULL CHECK (trigger IN ('manual', 'scheduled', 'api')),
    state              text        NOT NULL CHECK (state IN ('queued', 'running', 'waiting', 'succeeded',
                                                             'skipped', 'failed')),
    -- scheduled retries so far: the retry-count header of the command that brings the job back
    retry_count        integer     NOT NULL DEFAULT 0,
    -- rate-limit retries in a row without progress, and transient retries (SERVICE.md §6.4)
    rate_limit_streak  integer     NOT NULL DEFAULT 0,
    transient_retries  integer     NOT NULL DEFAULT 0,
    retry_at           timestamptz,
    last_error         text,
    message            text,
    -- where the command came from: "api" or "<topic>/<partition>/<offset>"
    source             text        NOT NULL,
    command            jsonb       NOT NULL,
    created_at         timestamptz NOT NULL,
    updated_at         timestamptz NOT NULL,
    finished_at        timestamptz
);

-- One job of a kind in flight, across every replica: the database says so, not a check-then-act.
CREATE UNIQUE INDEX job_one_in_flight_idx ON job (kind) WHERE state IN ('queued', 'running', 'waiting');
CREATE INDEX job_state_idx ON job (state, kind, created_at DESC);
CREATE INDEX job_created_idx ON job (created_at DESC);

CREATE TABLE job_run (
    id            uuid PRIMARY KEY,
    job_id        uuid        NOT NULL REFERENCES job (id),
    attempt       integer     NOT NULL,
    status        text        NOT NULL CHECK (status IN ('running', 'applied', 'skipped', 'failed',
                                                         'interrupted')),
    stage         text,
    done          bigint,
    total         bigint,
    counts        jsonb       NOT NULL DEFAULT '{}',
    message       text,
    -- refresh runs: the bulk file's version and the languages it was read for
    version       text,
    languages     text,
    -- the instance that runs it
    owner         text        NOT NULL,
    started_at    timestamptz NOT NULL,
    heartbeat_at  timestamptz NOT NULL,
    progressed_at timestamptz NOT NULL,
    finished_at   timestamptz,
    UNIQUE (job_id, attempt)
);

CREATE INDEX job_run_job_idx ON job_run (job_id, attempt DESC);
CREATE INDEX job_run_running_idx ON job_run (heartbeat_at) WHERE status = 'running';
CREATE INDEX job_run_applied_idx ON job_run (version, languages) WHERE status = 'applied';
