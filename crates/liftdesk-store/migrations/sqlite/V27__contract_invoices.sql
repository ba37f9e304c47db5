-- The invoices of the maintenance contracts' recurring billing: the
-- contract and the day of its billing period the invoice bills from (the
-- period's first day, or the contract's start within it). One invoice per
-- contract and period, however many times the billing runs: the index
-- refuses a second one.
ALTER TABLE invoices ADD COLUMN contract_id TEXT REFERENCES contracts(id);
ALTER TABLE invoices ADD COLUMN contract_billed_from TEXT;

CREATE UNIQUE INDEX invoices_contract_period ON invoices (contract_id, contract_billed_from)
    WHERE contract_id IS NOT NULL;

-- A run reads the contract invoices of its window, and issues its drafts.
CREATE INDEX invoices_contract_billing ON invoices (agency_id, contract_billed_from)
    WHERE contract_id IS NOT NULL;
