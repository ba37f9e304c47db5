-- French electronic invoicing (Factur-X, EN 16931): what the structured
-- invoice carries beyond the printed page.
--
-- A client's VAT number, its electronic invoicing address (the French
-- directory's `SIREN`, `SIREN_SIRET`, `SIREN_SIRET_CODE`; defaulting from the
-- SIREN when none is set) and, for a public body, its Chorus Pro service
-- code (its SIRET is already recorded).
ALTER TABLE clients ADD COLUMN numero_tva TEXT;
ALTER TABLE clients ADD COLUMN adresse_facturation_electronique TEXT
    CHECK (adresse_facturation_electronique IS NULL
           OR (length(adresse_facturation_electronique) BETWEEN 1 AND 125
               AND adresse_facturation_electronique NOT GLOB '*[^A-Za-z0-9._-]*'));
ALTER TABLE clients ADD COLUMN code_service TEXT;

-- The agency's own electronic invoicing address (its SIREN when none).
ALTER TABLE agency_identities ADD COLUMN electronic_address TEXT
    CHECK (electronic_address IS NULL
           OR (length(electronic_address) BETWEEN 1 AND 125
               AND electronic_address NOT GLOB '*[^A-Za-z0-9._-]*'));

-- The buyer as frozen at the issue, for the structured invoice: its
-- invoicing category, VAT number, SIRET and service code, and the
-- electronic address the document is made out to. Documents issued before
-- have none: their address is derived from their SIREN when read.
ALTER TABLE invoices ADD COLUMN buyer_category TEXT
    CHECK (buyer_category IS NULL OR buyer_category IN ('entreprise', 'copropriete', 'organisme_public'));
ALTER TABLE invoices ADD COLUMN buyer_vat_number TEXT;
ALTER TABLE invoices ADD COLUMN buyer_siret TEXT;
ALTER TABLE invoices ADD COLUMN buyer_service_code TEXT;
ALTER TABLE invoices ADD COLUMN buyer_electronic_address TEXT;

-- Why a 0 % line charges no VAT (`domain::einvoice::VatExemption`): only on
-- a 0 % line; required to issue one (lines issued before have none).
ALTER TABLE invoice_lines ADD COLUMN vat_exemption TEXT
    CHECK (vat_exemption IS NULL OR (vat_rate_bp = 0 AND vat_exemption IN ('autoliquidation', 'franchise')));
ALTER TABLE quote_rows ADD COLUMN vat_exemption TEXT
    CHECK (vat_exemption IS NULL OR (vat_rate_bp = 0 AND vat_exemption IN ('autoliquidation', 'franchise')));
