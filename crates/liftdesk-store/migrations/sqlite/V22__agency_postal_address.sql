-- The agency's address and its head office's in parts, as clients' and
-- buildings' are: `address` / `head_office_address` become the street
-- line, with a complement, a five-digit postal code and a city beside
-- them (an electronic invoice carries them apart). What can be split of
-- the addresses written before (one line, « 12 rue de la Part-Dieu, 69003
-- Lyon », or several, their line breaks read as commas) is split by the
-- domain's rule (`address_part`); the rest is left as it was.
ALTER TABLE agency_identities ADD COLUMN address_complement TEXT;
ALTER TABLE agency_identities ADD COLUMN postal_code TEXT
    CHECK (postal_code IS NULL OR (length(postal_code) = 5 AND postal_code NOT GLOB '*[^0-9]*'));
ALTER TABLE agency_identities ADD COLUMN city TEXT;
ALTER TABLE agency_identities ADD COLUMN head_office_complement TEXT;
ALTER TABLE agency_identities ADD COLUMN head_office_postal_code TEXT
    CHECK (head_office_postal_code IS NULL
           OR (length(head_office_postal_code) = 5 AND head_office_postal_code NOT GLOB '*[^0-9]*'));
ALTER TABLE agency_identities ADD COLUMN head_office_city TEXT;

UPDATE agency_identities
SET postal_code = address_part(replace(replace(address, char(13), ''), char(10), ', '), 'postal_code'),
    city = address_part(replace(replace(address, char(13), ''), char(10), ', '), 'city'),
    address = address_part(replace(replace(address, char(13), ''), char(10), ', '), 'street')
WHERE address_part(replace(replace(address, char(13), ''), char(10), ', '), 'postal_code') IS NOT NULL;

UPDATE agency_identities
SET head_office_postal_code = address_part(replace(replace(head_office_address, char(13), ''), char(10), ', '), 'postal_code'),
    head_office_city = address_part(replace(replace(head_office_address, char(13), ''), char(10), ', '), 'city'),
    head_office_address = address_part(replace(replace(head_office_address, char(13), ''), char(10), ', '), 'street')
WHERE address_part(replace(replace(head_office_address, char(13), ''), char(10), ', '), 'postal_code') IS NOT NULL;
