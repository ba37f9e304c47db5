"""One row of the demo server's database, whichever engine it runs on.

The steps of the test command that start `liftdesk serve --demo`
(scripts/with-demo-server.sh) pick a few demo records to work on. On SQLite
the database is the data directory's file, read here in read-only mode; on
PostgreSQL (LIFTDESK_DATABASE_URL set by with-demo-server.sh) it is read
through `psql`. `sql` uses `?` for its parameters (ids and e-mails of the
demo's credentials), written into the text as quoted literals for psql.
"""

import os
import sqlite3
import subprocess


def first_row(credentials, sql, *params):
    """The first row of `sql` as a tuple of texts, or None."""
    url = os.environ.get("LIFTDESK_DATABASE_URL", "").strip()
    if not url:
        path = os.path.join(os.path.dirname(credentials), "liftdesk.db")
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        row = db.execute(sql, params).fetchone()
        return None if row is None else tuple(str(v) for v in row)
    text = sql
    for param in params:
        text = text.replace("?", "'" + str(param).replace("'", "''") + "'", 1)
    out = subprocess.run(
        ["psql", url, "-X", "-A", "-t", "-F", "\t", "-v", "ON_ERROR_STOP=1", "-c", text],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    lines = [line for line in out.splitlines() if line]
    return tuple(lines[0].split("\t")) if lines else None


if __name__ == "__main__":
    # python3 scripts/demo_db.py CREDENTIALS SQL [PARAM…]: the row's first
    # column, or nothing.
    import sys

    row = first_row(sys.argv[1], sys.argv[2], *sys.argv[3:])
    print(row[0] if row else "")
