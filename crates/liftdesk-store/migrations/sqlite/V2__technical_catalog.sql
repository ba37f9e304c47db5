-- The technical-field catalog: every datum a survey can record, with its
-- French label, unit, component, value type, search words and V1 names.
-- Fields with a partner_key are the partner workflow API's technical data.
INSERT INTO technical_fields (code, label, unit, component, value_type, choices, synonyms, v1_table, v1_field, partner_key, applies_to, position) VALUES
-- The equipment itself
('charge_utile',            'Charge utile',                      'kg',  NULL, 'number',  NULL, 'charge nominale poids capacité load', 'appareil', 'charge_nominale', 'charge_utile', 'ascenseur,monte_charge,monte_voiture,elevateur', 10),
('course',                  'Course',                            'm',   NULL, 'number',  NULL, 'course hauteur déplacement travel', 'appareil', 'course', 'course', 'ascenseur,monte_charge,monte_voiture,elevateur', 20),
('vitesse',                 'Vitesse nominale',                  'm/s', NULL, 'number',  NULL, 'vitesse cabine speed', 'appareil', 'vitesse_nominale', 'vitesse', 'ascenseur,monte_charge,monte_voiture,elevateur', 30),
('nombre_niveaux',          'Nombre de niveaux desservis',       NULL,  NULL, 'integer', NULL, 'niveaux étages arrêts paliers desservis', 'appareil', 'nb_niveaux', 'nombre_niveaux', 'ascenseur,monte_charge,monte_voiture,elevateur', 40),
('nombre_faces_de_service', 'Nombre de faces de service',        NULL,  NULL, 'integer', NULL, 'faces accès service', 'appareil', 'nb_faces_service', 'nombre_faces_de_service', 'ascenseur,monte_charge,monte_voiture,elevateur', 50),
('nombre_personnes',        'Nombre de personnes',               NULL,  NULL, 'integer', NULL, 'personnes capacité passagers', 'appareil', 'nb_personnes', 'nombre_personnes', 'ascenseur', 60),
('marque',                  'Marque',                            NULL,  NULL, 'text',    NULL, 'marque fabricant constructeur', 'appareil', 'marque', 'marque', NULL, 70),
('modele',                  'Modèle',                            NULL,  NULL, 'text',    NULL, 'modèle gamme', 'appareil', 'modele', 'modele', NULL, 80),
('type_entrainement',       'Type d''entraînement',              NULL,  NULL, 'choice',  '["Electrique","Hydraulique"]', 'entraînement traction électrique hydraulique', 'appareil', 'type_entrainement', 'type_entrainement', 'ascenseur,monte_charge,monte_voiture,elevateur', 90),
('implantation_machinerie', 'Implantation de la machinerie',     NULL,  NULL, 'choice',  '["Haute","Basse","Latérale","Sans (MRL)"]', 'machinerie local machine mrl implantation', 'appareil', 'implantation_machinerie', 'implantation_machinerie', 'ascenseur,monte_charge,monte_voiture,elevateur', 100),
('annee_mise_en_service',   'Année de mise en service',          NULL,  NULL, 'integer', NULL, 'année installation mise en service âge', 'appareil', 'annee_mes', NULL, NULL, 110),
('dimensions_cabine_largeur',    'Largeur de cabine',            'mm',  NULL, 'number',  NULL, 'cabine largeur', 'cabine', 'largeur', NULL, 'ascenseur,monte_charge,monte_voiture', 120),
('dimensions_cabine_profondeur', 'Profondeur de cabine',         'mm',  NULL, 'number',  NULL, 'cabine profondeur', 'cabine', 'profondeur', NULL, 'ascenseur,monte_charge,monte_voiture', 130),
-- Shaft dimensions, measured at the pit, on the car roof and at the landings
('gaine_profondeur_cuvette',     'Profondeur de cuvette',        'mm', 'shaft', 'number', NULL, 'cuvette fosse profondeur gaine', 'gaine', 'prof_cuvette', NULL, 'ascenseur,monte_charge,monte_voiture', 200),
('gaine_largeur_cuvette',        'Largeur de gaine en cuvette',  'mm', 'shaft', 'number', NULL, 'gaine largeur cuvette fosse dimension', 'gaine', 'larg_cuvette', NULL, 'ascenseur,monte_charge,monte_voiture', 210),
('gaine_largeur_toit_cabine',    'Largeur de gaine au toit de cabine', 'mm', 'shaft', 'number', NULL, 'gaine largeur toit cabine dimension', 'gaine', 'larg_toit_cabine', NULL, 'ascenseur,monte_charge,monte_voiture', 220),
('gaine_largeur_paliers',        'Largeur de gaine aux paliers', 'mm', 'shaft', 'number', NULL, 'gaine largeur paliers niveaux dimension', 'gaine', 'larg_paliers', NULL, 'ascenseur,monte_charge,monte_voiture', 230),
('gaine_reserve_tete',           'Réserve en tête (hauteur libre au-dessus du toit de cabine)', 'mm', 'shaft', 'number', NULL, 'réserve tête hauteur libre toit cabine dernier niveau', 'gaine', 'reserve_tete', NULL, 'ascenseur,monte_charge,monte_voiture', 240),
-- Car door
('porte_cabine_type',        'Type de porte cabine',             NULL, 'car_door', 'choice', '["Automatique centrale","Automatique latérale","Battante","Pliante","Sans porte"]', 'porte cabine type ouverture', 'porte_cabine', 'type', NULL, 'ascenseur,monte_charge,monte_voiture', 300),
('porte_cabine_passage',     'Passage libre de porte cabine',    'mm', 'car_door', 'number', NULL, 'porte cabine passage largeur ouverture', 'porte_cabine', 'passage_libre', NULL, 'ascenseur,monte_charge,monte_voiture', 310),
('porte_cabine_operateur',   'Opérateur de porte',               NULL, 'car_door', 'text',   NULL, 'opérateur porte moteur', 'porte_cabine', 'operateur', NULL, 'ascenseur,monte_charge,monte_voiture', 320),
('porte_cabine_cellule',     'Barrière immatérielle',            NULL, 'car_door', 'boolean', NULL, 'cellule barrière immatérielle rideau détection', 'porte_cabine', 'barriere', NULL, 'ascenseur,monte_charge,monte_voiture', 330),
-- Landing doors
('portes_palieres_type',     'Type de portes palières',          NULL, 'landing_door', 'choice', '["Automatiques","Battantes","Semi-automatiques"]', 'portes palières paliers type', 'porte_paliere', 'type', NULL, 'ascenseur,monte_charge,monte_voiture,elevateur', 350),
-- Machine
('machine_type',             'Type de machine',                  NULL, 'machine', 'choice', '["Treuil à vis sans fin","Gearless","Centrale hydraulique","Tambour"]', 'machine moteur treuil gearless centrale', 'machine', 'type', NULL, 'ascenseur,monte_charge,monte_voiture,elevateur', 400),
('machine_marque',           'Marque de la machine',             NULL, 'machine', 'text',   NULL, 'machine moteur marque fabricant', 'machine', 'marque', NULL, NULL, 410),
('machine_puissance',        'Puissance moteur',                 'kW', 'machine', 'number', NULL, 'puissance moteur kw machine', 'machine', 'puissance', NULL, NULL, 420),
('machine_nombre_cables',    'Nombre de câbles de traction',     NULL, 'machine', 'integer', NULL, 'câbles traction suspension nombre', 'machine', 'nb_cables', NULL, 'ascenseur,monte_charge,monte_voiture', 430),
('machine_diametre_cables',  'Diamètre des câbles',              'mm', 'machine', 'number', NULL, 'câbles diamètre traction', 'machine', 'diametre_cables', NULL, 'ascenseur,monte_charge,monte_voiture', 440),
('machine_frein',            'Type de frein',                    NULL, 'machine', 'text',   NULL, 'frein freinage machine', 'machine', 'frein', NULL, NULL, 450),
-- Controller
('armoire_marque',           'Marque de l''armoire de commande', NULL, 'controller', 'text', NULL, 'armoire commande manœuvre contrôleur marque', 'armoire', 'marque', NULL, NULL, 500),
('armoire_type_manoeuvre',   'Type de manœuvre',                 NULL, 'controller', 'choice', '["Blocage","Collective descente","Collective montée-descente","Duplex","Triplex"]', 'manœuvre collective duplex commande', 'armoire', 'type_manoeuvre', NULL, 'ascenseur,monte_charge,monte_voiture', 510),
('armoire_variateur',        'Variateur de fréquence',           NULL, 'controller', 'boolean', NULL, 'variateur fréquence vvvf', 'armoire', 'variateur', NULL, NULL, 520),
('armoire_teleassistance',   'Téléalarme / téléassistance',      NULL, 'controller', 'text', NULL, 'téléalarme téléassistance interphonie alarme', 'armoire', 'telealarme', NULL, 'ascenseur', 530),
('armoire_annee',            'Année de l''armoire',              NULL, 'controller', 'integer', NULL, 'armoire année installation', 'armoire', 'annee', NULL, NULL, 540);
