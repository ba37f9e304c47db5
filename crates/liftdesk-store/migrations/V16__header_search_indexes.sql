-- The header search finds a quote by its number and a call by its
-- reference as they are typed: a range on these indexes, never a scan of
-- the agency's quotes or calls.
CREATE INDEX quotes_by_number ON quotes(agency_id, number) WHERE number IS NOT NULL;
CREATE INDEX calls_by_reference ON calls(agency_id, reference);
