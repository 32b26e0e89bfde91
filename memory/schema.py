"""The memory database's schema, as numbered migrations applied in order."""

from __future__ import annotations

APPLICATION_ID = 0x48525448
"""'HRTH' in SQLite's application_id header field: tells a Hearth memory from any other database."""

MIGRATIONS: tuple[tuple[int, str], ...] = (
    (
        1,
        """
        CREATE TABLE facts (
            id            INTEGER PRIMARY KEY,
            text          TEXT,
            kind          TEXT NOT NULL
                          CHECK (kind IN ('preference','fact','person','place','routine','plan')),
            status        TEXT NOT NULL CHECK (status IN ('active','superseded','forgotten')),
            created_at    REAL NOT NULL,
            updated_at    REAL NOT NULL,
            confirmed_at  REAL NOT NULL,
            confirm_count INTEGER NOT NULL DEFAULT 1,
            pinned        INTEGER NOT NULL DEFAULT 0 CHECK (pinned IN (0, 1)),
            origin        TEXT NOT NULL CHECK (origin IN ('user','extracted')),
            utterance     TEXT,
            evidence      TEXT,
            last_asked_at REAL,
            CHECK ((status = 'forgotten') = (text IS NULL))
        );
        CREATE INDEX facts_status ON facts(status);

        -- The candidate index: content words and their prefixes (see memory.similarity.index_keys).
        CREATE TABLE fact_keys (
            key     TEXT NOT NULL,
            fact_id INTEGER NOT NULL REFERENCES facts(id),
            PRIMARY KEY (key, fact_id)
        ) WITHOUT ROWID;
        CREATE INDEX fact_keys_fact ON fact_keys(fact_id);

        -- Conflicts are stored in both directions, so each side lists the other.
        CREATE TABLE conflicts (
            fact_id    INTEGER NOT NULL REFERENCES facts(id),
            other_id   INTEGER NOT NULL REFERENCES facts(id),
            score      REAL NOT NULL,
            created_at REAL NOT NULL,
            PRIMARY KEY (fact_id, other_id),
            CHECK (fact_id != other_id)
        ) WITHOUT ROWID;

        -- Pairs in the conflict band whose kinds differ: an auditable record, never a notice.
        CREATE TABLE near_misses (
            id         INTEGER PRIMARY KEY,
            fact_id    INTEGER NOT NULL REFERENCES facts(id),
            other_id   INTEGER NOT NULL REFERENCES facts(id),
            score      REAL NOT NULL,
            fact_kind  TEXT NOT NULL,
            other_kind TEXT NOT NULL,
            reason     TEXT NOT NULL,
            created_at REAL NOT NULL
        );
        CREATE INDEX near_misses_fact ON near_misses(fact_id);
        CREATE INDEX near_misses_other ON near_misses(other_id);

        -- Digests of forgotten statements, so an old transcript cannot teach them again.
        CREATE TABLE tombstones (
            digest  TEXT NOT NULL,
            fact_id INTEGER NOT NULL REFERENCES facts(id),
            PRIMARY KEY (digest, fact_id)
        ) WITHOUT ROWID;

        CREATE TABLE vectors (
            fact_id INTEGER PRIMARY KEY REFERENCES facts(id),
            model   TEXT NOT NULL,
            vector  BLOB NOT NULL
        );

        CREATE TABLE history (
            id       INTEGER PRIMARY KEY AUTOINCREMENT,
            fact_id  INTEGER NOT NULL REFERENCES facts(id),
            at       REAL NOT NULL,
            action   TEXT NOT NULL,
            text     TEXT,
            other_id INTEGER,
            detail   TEXT NOT NULL DEFAULT '{}'
        );
        CREATE INDEX history_fact ON history(fact_id);

        -- History is append-only. The one change allowed is removing text for a user's "forget".
        CREATE TRIGGER history_no_delete BEFORE DELETE ON history
        BEGIN SELECT RAISE(ABORT, 'history is append-only'); END;
        CREATE TRIGGER history_only_redact BEFORE UPDATE ON history
        WHEN NEW.text IS NOT NULL OR NEW.id != OLD.id OR NEW.fact_id != OLD.fact_id
             OR NEW.at != OLD.at OR NEW.action != OLD.action
             OR NEW.other_id IS NOT OLD.other_id OR NEW.detail != OLD.detail
        BEGIN SELECT RAISE(ABORT, 'history is append-only'); END;
        """,
    ),
)

LATEST_VERSION = MIGRATIONS[-1][0]
