-- E-mail: the organization's outgoing mail server, and the outbox of the
-- documents sent by e-mail (quotes, invoices, credit notes, visit reports).

-- One outgoing server (SMTP) per organization, set by its administrators on
-- the settings screen. The password is stored encrypted (ChaCha20-Poly1305
-- under the data directory's key, bound to the organization): a copy of the
-- database alone does not reveal it.
CREATE TABLE mail_settings (
    organization_id  TEXT PRIMARY KEY REFERENCES organizations(id),
    host             TEXT NOT NULL,
    port             INTEGER NOT NULL CHECK (port BETWEEN 1 AND 65535),
    security         TEXT NOT NULL CHECK (security IN ('starttls', 'tls', 'aucune')),
    username         TEXT,
    password_enc     BLOB,
    updated_at       TEXT NOT NULL,
    updated_by       TEXT REFERENCES accounts(id)
);

-- One message to send: written in the same transaction as the document's
-- move to "sent" (and its audit entry), with the PDF as it was at that
-- moment, then delivered by the mail task whenever the machine is online.
-- The row carries its schedule (`next_attempt_at`), so a restart resumes
-- where the process stopped.
CREATE TABLE mails (
    id               TEXT PRIMARY KEY,
    agency_id        TEXT NOT NULL REFERENCES agencies(id),
    object_type      TEXT NOT NULL CHECK (object_type IN ('quote', 'invoice', 'visit')),
    object_id        TEXT NOT NULL,
    sender_name      TEXT NOT NULL,
    sender_email     TEXT NOT NULL,
    -- JSON array of {"name", "email", "contactId"}.
    recipients       TEXT NOT NULL,
    subject          TEXT NOT NULL,
    body             TEXT NOT NULL,
    attachment_name  TEXT NOT NULL,
    attachment       BLOB NOT NULL,
    status           TEXT NOT NULL DEFAULT 'en_attente' CHECK (status IN ('en_attente', 'envoye', 'echec', 'abandonne')),
    attempts         INTEGER NOT NULL DEFAULT 0,
    next_attempt_at  TEXT,
    last_error       TEXT,
    created_by       TEXT REFERENCES accounts(id),
    created_at       TEXT NOT NULL,
    updated_at       TEXT NOT NULL,
    sent_at          TEXT
);
CREATE INDEX mails_by_object ON mails(agency_id, object_type, object_id, created_at);
CREATE INDEX mails_due ON mails(next_attempt_at) WHERE status IN ('en_attente', 'echec');
