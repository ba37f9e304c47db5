-- A client's address in parts, as buildings already have it: `adresse` is
-- the street line, `complement_adresse` the complement (building, CS…), and
-- now `code_postal` (five digits) and `ville`. What can be split of the
-- one-line addresses written before (« 12 rue de la Paix, 75002 Paris ») is
-- split by the domain's rule (`address_part`, a function of the migrating
-- connection); the rest is left as it was.
ALTER TABLE clients ADD COLUMN code_postal TEXT
    CHECK (code_postal IS NULL OR (length(code_postal) = 5 AND code_postal NOT GLOB '*[^0-9]*'));
ALTER TABLE clients ADD COLUMN ville TEXT;

UPDATE clients
SET adresse = address_part(adresse, 'street'),
    code_postal = address_part(adresse, 'postal_code'),
    ville = address_part(adresse, 'city')
WHERE address_part(adresse, 'postal_code') IS NOT NULL;
