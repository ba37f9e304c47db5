-- The header search finds a quote by its number and a call by its
-- reference as they are typed: a range on an index, never a scan of the
-- agency's quotes or calls. A center's calls are found through
-- `calls_reference_per_center` (one range per center of the agency); the
-- calls taken at the agency (`AG-…`, no center) through this partial
-- index, which a center's call does not enter (no cost on the call-center
-- API's hot path).
CREATE INDEX quotes_by_number ON quotes(agency_id, number) WHERE number IS NOT NULL;
CREATE INDEX calls_agency_reference ON calls(agency_id, reference) WHERE call_center_id IS NULL;
