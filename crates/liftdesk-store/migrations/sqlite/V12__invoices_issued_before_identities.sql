-- Invoices and credit notes issued before the identity was versioned
-- (V10) print the seller they were issued by: the agency's first version,
-- made by V10 from the SIRET and address it had then, not whatever the
-- agency records later.
UPDATE invoices SET seller_identity_id = 'identite-' || agency_id
WHERE number IS NOT NULL
  AND seller_identity_id IS NULL
  AND EXISTS (SELECT 1 FROM agency_identities WHERE id = 'identite-' || invoices.agency_id);
