-- The month a contract's base index value I0 is of (`YYYY-MM`): each
-- yearly revision reads the value of the same month so many years later,
-- one value for the whole contract year whenever the billing runs. The
-- contracts indexed before it take their start's month.
ALTER TABLE contracts ADD COLUMN base_index_month TEXT COLLATE "C";

UPDATE contracts SET base_index_month = substr(start_on, 1, 7) WHERE price_index IS NOT NULL;
