"""The memory's schema on PostgreSQL: the same numbered migrations as ``memory.schema``, in
PostgreSQL's dialect, inside the ``hearth`` schema of a household's database.

Step N here makes the tables of SQLite's step N (a test holds the two lists to the same numbers).
Beyond SQLite's tables, step 1 keeps a one-row change counter that every write transaction bumps
once and announces with ``NOTIFY hearth_memory`` (payload: the new count), so each device's
caches follow what the others write.
"""

from __future__ import annotations

SCHEMA = "hearth"
"""Every table of Hearth's lives in this schema, so it can share a database with anything else."""
CHANNEL = "hearth_memory"
"""The ``LISTEN``/``NOTIFY`` channel a committed change to the memory is announced on."""

MIGRATIONS: tuple[tuple[int, str], ...] = (
    (
        1,
        """
        CREATE TABLE facts (
            id            BIGINT PRIMARY KEY CHECK (id > 0),
            text          TEXT,
            kind          TEXT NOT NULL
                          CHECK (kind IN ('preference','fact','person','place','routine','plan')),
            status        TEXT NOT NULL CHECK (status IN ('active','superseded','forgotten')),
            created_at    DOUBLE PRECISION NOT NULL,
            updated_at    DOUBLE PRECISION NOT NULL,
            confirmed_at  DOUBLE PRECISION NOT NULL,
            confirm_count INTEGER NOT NULL DEFAULT 1,
            pinned        BOOLEAN NOT NULL DEFAULT false,
            origin        TEXT NOT NULL CHECK (origin IN ('user','extracted')),
            utterance     TEXT,
            evidence      TEXT,
            last_asked_at DOUBLE PRECISION,
            CHECK ((status = 'forgotten') = (text IS NULL))
        );
        CREATE INDEX facts_status ON facts(status);

        -- The candidate index: content words and their prefixes (memory.judging.index_keys).
        CREATE TABLE fact_keys (
            key     TEXT NOT NULL,
            fact_id BIGINT NOT NULL REFERENCES facts(id),
            PRIMARY KEY (key, fact_id)
        );
        CREATE INDEX fact_keys_fact ON fact_keys(fact_id);

        -- Conflicts are stored in both directions, so each side lists the other.
        CREATE TABLE conflicts (
            fact_id    BIGINT NOT NULL REFERENCES facts(id),
            other_id   BIGINT NOT NULL REFERENCES facts(id),
            score      DOUBLE PRECISION NOT NULL,
            created_at DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (fact_id, other_id),
            CHECK (fact_id != other_id)
        );

        -- Pairs in the conflict band whose kinds differ: an auditable record, never a notice.
        CREATE TABLE near_misses (
            id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            fact_id    BIGINT NOT NULL REFERENCES facts(id),
            other_id   BIGINT NOT NULL REFERENCES facts(id),
            score      DOUBLE PRECISION NOT NULL,
            fact_kind  TEXT NOT NULL,
            other_kind TEXT NOT NULL,
            reason     TEXT NOT NULL,
            created_at DOUBLE PRECISION NOT NULL
        );
        CREATE INDEX near_misses_fact ON near_misses(fact_id);
        CREATE INDEX near_misses_other ON near_misses(other_id);

        -- Digests of forgotten statements, so an old transcript cannot teach them again.
        CREATE TABLE tombstones (
            digest  TEXT NOT NULL,
            fact_id BIGINT NOT NULL REFERENCES facts(id),
            PRIMARY KEY (digest, fact_id)
        );

        CREATE TABLE vectors (
            fact_id BIGINT PRIMARY KEY REFERENCES facts(id),
            model   TEXT NOT NULL,
            vector  BYTEA NOT NULL
        );

        CREATE TABLE history (
            id       BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            fact_id  BIGINT NOT NULL REFERENCES facts(id),
            at       DOUBLE PRECISION NOT NULL,
            action   TEXT NOT NULL,
            text     TEXT,
            other_id BIGINT,
            detail   JSONB NOT NULL DEFAULT '{}'
        );
        CREATE INDEX history_fact ON history(fact_id);

        -- History is append-only. The one change allowed is removing text for a user's "forget".
        -- TRUNCATE passes row triggers by, so it has a statement trigger of its own.
        CREATE FUNCTION history_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            RAISE EXCEPTION 'history is append-only'
                USING ERRCODE = 'integrity_constraint_violation';
        END $$;
        CREATE TRIGGER history_no_delete BEFORE DELETE ON history
            FOR EACH ROW EXECUTE FUNCTION history_append_only();
        CREATE TRIGGER history_no_truncate BEFORE TRUNCATE ON history
            FOR EACH STATEMENT EXECUTE FUNCTION history_append_only();
        CREATE TRIGGER history_only_redact BEFORE UPDATE ON history
            FOR EACH ROW WHEN (NEW.text IS NOT NULL OR NEW.id != OLD.id
                               OR NEW.fact_id != OLD.fact_id OR NEW.at != OLD.at
                               OR NEW.action != OLD.action
                               OR NEW.other_id IS DISTINCT FROM OLD.other_id
                               OR NEW.detail != OLD.detail)
            EXECUTE FUNCTION history_append_only();

        -- One count of committed changes, bumped once per writing transaction and announced.
        CREATE TABLE memory_version (
            id      INTEGER PRIMARY KEY CHECK (id = 1),
            version BIGINT NOT NULL,
            txid    xid8
        );
        INSERT INTO memory_version (id, version) VALUES (1, 0);
        CREATE FUNCTION memory_changed() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE
            counted BIGINT;
        BEGIN
            -- Named in full: the trigger runs under whatever search_path its writer has.
            UPDATE hearth.memory_version SET version = version + 1, txid = pg_current_xact_id()
                WHERE id = 1 AND txid IS DISTINCT FROM pg_current_xact_id()
                RETURNING version INTO counted;
            IF FOUND THEN
                PERFORM pg_notify('hearth_memory', counted::text);
            END IF;
            RETURN NULL;
        END $$;
        CREATE TRIGGER facts_changed AFTER INSERT OR UPDATE OR DELETE ON facts
            FOR EACH STATEMENT EXECUTE FUNCTION memory_changed();
        CREATE TRIGGER fact_keys_changed AFTER INSERT OR UPDATE OR DELETE ON fact_keys
            FOR EACH STATEMENT EXECUTE FUNCTION memory_changed();
        CREATE TRIGGER conflicts_changed AFTER INSERT OR UPDATE OR DELETE ON conflicts
            FOR EACH STATEMENT EXECUTE FUNCTION memory_changed();
        CREATE TRIGGER near_misses_changed AFTER INSERT OR UPDATE OR DELETE ON near_misses
            FOR EACH STATEMENT EXECUTE FUNCTION memory_changed();
        CREATE TRIGGER tombstones_changed AFTER INSERT OR UPDATE OR DELETE ON tombstones
            FOR EACH STATEMENT EXECUTE FUNCTION memory_changed();
        CREATE TRIGGER vectors_changed AFTER INSERT OR UPDATE OR DELETE ON vectors
            FOR EACH STATEMENT EXECUTE FUNCTION memory_changed();
        CREATE TRIGGER history_changed AFTER INSERT OR UPDATE ON history
            FOR EACH STATEMENT EXECUTE FUNCTION memory_changed();
        """,
    ),
)

LATEST_VERSION = MIGRATIONS[-1][0]
