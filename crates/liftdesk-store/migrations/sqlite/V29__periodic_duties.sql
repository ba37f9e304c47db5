-- The periodic duties of a maintenance contract (issue 25), beside its
-- visits: the cables checked every six months, the safety gear
-- (parachute) tested and the pit, car roof and machine room cleaned every
-- year. Each is done at a visit: `visit_duties` says which ones a
-- completed visit did (the logbook, the annual report), `equipment_duties`
-- the last day each was done on a lift (its next deadline: that day plus
-- the duty's months, or the lift's plan start plus them while never done),
-- both written in the completion's transaction.
CREATE TABLE visit_duties (
    visit_id  TEXT NOT NULL REFERENCES visits(id),
    duty      TEXT NOT NULL CHECK (duty IN ('cables', 'parachute', 'nettoyage')),
    PRIMARY KEY (visit_id, duty)
) WITHOUT ROWID;

CREATE TABLE equipment_duties (
    equipment_id  TEXT NOT NULL REFERENCES equipment(id),
    duty          TEXT NOT NULL CHECK (duty IN ('cables', 'parachute', 'nettoyage')),
    last_done_on  TEXT NOT NULL,
    visit_id      TEXT NOT NULL REFERENCES visits(id),
    PRIMARY KEY (equipment_id, duty)
) WITHOUT ROWID;
CREATE INDEX equipment_duties_visit ON equipment_duties (visit_id);
