-- The billing screens: the invoice made from a quote is found by the quote
-- (a quote is turned into one invoice only; the quote list shows it), and
-- the agency's quotes are listed by status, newest first.
CREATE INDEX invoices_by_quote ON invoices(quote_id) WHERE quote_id IS NOT NULL;
CREATE INDEX quotes_by_status ON quotes(agency_id, status, created_at);
