-- How a client is invoiced, chosen on the client's screen: a company
-- subject to VAT, a co-ownership not subject to VAT, a public body. NULL
-- until someone says (clients of the partner API and the imports).
ALTER TABLE clients ADD COLUMN billing_category TEXT
    CHECK (billing_category IS NULL OR billing_category IN ('entreprise', 'copropriete', 'organisme_public'));
