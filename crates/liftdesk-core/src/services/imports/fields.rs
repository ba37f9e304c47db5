//! What a file can be imported into (`Target`), the fields of each target
//! (ids, French labels, the header names that suggest them; for contracts
//! and index values, the field of the API's body each one fills), the
//! suggested mapping of a file's columns, and the checks of a mapping sent.

use crate::error::{AppError, AppResult};
use crate::services::equipment::IdentityField;
use crate::services::technical_data::{ADDRESS, ADDRESS_COMPLEMENT, BUILDING_NAME};
use crate::store::technical_fields::CatalogField;
use crate::text::fold;

/// What the rows of a file become.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    Equipment,
    Clients,
    Contacts,
    /// Maintenance contracts, created as drafts (one row, one contract).
    Contracts,
    /// Values of the price indexes (one row, one index's value for a
    /// month), recorded as `POST /price-indexes` records them.
    PriceIndexes,
}

impl Target {
    pub const ALL: [Target; 5] = [
        Self::Equipment,
        Self::Clients,
        Self::Contacts,
        Self::Contracts,
        Self::PriceIndexes,
    ];

    pub fn code(self) -> &'static str {
        match self {
            Self::Equipment => "equipment",
            Self::Clients => "clients",
            Self::Contacts => "contacts",
            Self::Contracts => "contracts",
            Self::PriceIndexes => "price_indexes",
        }
    }

    /// Whether one refused row keeps the whole import from being written
    /// (contracts: a file of contracts is one agreement of the park, all
    /// of it or nothing; index values: a file is one publication, and the
    /// yearly revisions read them), rather than the accepted rows being
    /// written.
    pub fn all_or_nothing(self) -> bool {
        matches!(self, Self::Contracts | Self::PriceIndexes)
    }

    /// Whether each row is written by an operation of the REST API (the
    /// creation of a contract, the recording of an index value), which
    /// asks the right to change the agency's records
    /// (`Capability::Change`): the check runs it too.
    pub fn writes_through_api(self) -> bool {
        matches!(self, Self::Contracts | Self::PriceIndexes)
    }
}

/// Where the value of a field goes.
#[derive(Debug, Clone, PartialEq)]
pub enum FieldKind {
    /// An identity field of the equipment.
    Identity(IdentityField),
    /// The equipment's client (its `client_id`, or its name).
    EquipmentClient,
    /// A detail of the equipment's building (`adresse`, `complement_adresse`,
    /// `nom_immeuble`, `code_postal`, `ville`).
    Building(&'static str),
    /// A datum of the technical catalog.
    Technical(Box<CatalogField>),
    /// A field of the client (the partner workflow API's names).
    Client(&'static str),
    /// The contact's client (its `client_id`, or its name).
    ContactClient,
    /// A field of the contact (`nom`, `email`, `telephone`, `fonction`).
    Contact(&'static str),
    /// The contact's first name, put before `nom`.
    ContactFirstName,
    /// A field of a contract, by its name in `ContractBody` (`clientId`,
    /// `liftIds`, `startOn`…): the client (its `client_id` or its name) and
    /// the lifts (their numbers) are found in the agency, the others read
    /// as a French spreadsheet writes them.
    Contract(&'static str),
    /// A field of an index value, by its name in `IndexValueBody` (`index`,
    /// `month`, `value`), read as a French spreadsheet or an INSEE table
    /// writes it.
    IndexValue(&'static str),
}

/// A field a column can be mapped to.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    /// Key in a mapping.
    pub id: String,
    /// French name, shown to people.
    pub label: String,
    pub kind: FieldKind,
    /// Header names (normalized by `normalize`) that suggest this field.
    synonyms: Vec<String>,
}

impl Field {
    /// The field as a sentence names it: its label without the hint in
    /// parentheses (« Statut (Prospect, Client) » → « Statut »).
    pub fn name(&self) -> &str {
        self.label
            .split_once(" (")
            .map_or(self.label.as_str(), |(name, _)| name)
    }
}

pub const POSTAL_CODE: &str = "code_postal";
pub const CITY: &str = "ville";

/// A header as compared with the synonyms: accents, case, parenthesized
/// parts (`(kg)`) and punctuation ignored, spaces collapsed.
pub fn normalize(header: &str) -> String {
    let mut plain = String::with_capacity(header.len());
    let mut depth = 0usize;
    for c in fold(header).chars() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth = depth.saturating_sub(1),
            c if depth > 0 => {
                let _ = c;
            }
            c if c.is_alphanumeric() => plain.push(c),
            _ => plain.push(' '),
        }
    }
    plain.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn field(id: &str, label: &str, kind: FieldKind, synonyms: &[&str]) -> Field {
    let mut all: Vec<String> = vec![normalize(id), normalize(label)];
    all.extend(synonyms.iter().map(|s| normalize(s)));
    all.dedup();
    Field {
        id: id.to_owned(),
        label: label.to_owned(),
        kind,
        synonyms: all,
    }
}

fn identity(field_id: IdentityField) -> Field {
    let (label, synonyms): (&str, &[&str]) = match field_id {
        IdentityField::Number => (
            "Numéro de l'équipement",
            &[
                "N° appareil",
                "No appareil",
                "Numéro",
                "Numéro appareil",
                "Numéro d'appareil",
                "Numéro de l'appareil",
                "N° équipement",
                "Numéro équipement",
                "Numéro d'équipement",
                "Num appareil",
                "Réf appareil",
                "Référence appareil",
                "Code appareil",
                "Appareil",
                "Équipement",
                "N°",
                "No",
                "Num",
            ],
        ),
        IdentityField::SerialNumber => (
            "Numéro de série",
            &[
                "N° de série",
                "N° série",
                "No série",
                "Série",
                "Serial number",
                "Num série",
            ],
        ),
        IdentityField::Type => (
            "Type d'équipement",
            &[
                "Type",
                "Type d'appareil",
                "Type appareil",
                "Type équipement",
                "Nature",
            ],
        ),
        IdentityField::Subtype => ("Sous-type", &["Sous type", "Subtype"]),
        IdentityField::Location => (
            "Emplacement",
            &["Localisation", "Emplacement dans l'immeuble", "Location"],
        ),
        IdentityField::MaintenanceContract => (
            "Contrat d'entretien",
            &[
                "Contrat",
                "Contrat entretien",
                "Sous contrat",
                "Parc",
                "Contrat_entretien",
            ],
        ),
        IdentityField::ContractNumber => (
            "Numéro de contrat",
            &[
                "N° contrat",
                "N° de contrat",
                "No contrat",
                "Réf contrat",
                "Référence contrat",
            ],
        ),
        IdentityField::ExternalId => (
            "Identifiant externe",
            &[
                "Id externe",
                "External id",
                "Réf externe",
                "Référence externe",
                "Id",
                "Identifiant",
            ],
        ),
    };
    field(
        field_id.wire_name(),
        label,
        FieldKind::Identity(field_id),
        synonyms,
    )
}

/// The fields of a target, in the order they are suggested (the first
/// field a header matches wins).
pub fn fields(target: Target, catalog: &[CatalogField]) -> Vec<Field> {
    match target {
        Target::Equipment => {
            let mut all: Vec<Field> = IdentityField::ALL.into_iter().map(identity).collect();
            all.push(field(
                "client",
                "Client (son identifiant ou son nom)",
                FieldKind::EquipmentClient,
                &[
                    "Client",
                    "Code client",
                    "Client id",
                    "Id client",
                    "N° client",
                    "Nom client",
                    "Gestionnaire",
                ],
            ));
            all.push(field(
                ADDRESS,
                "Adresse de l'immeuble",
                FieldKind::Building(ADDRESS),
                &[
                    "Adresse",
                    "Adresse immeuble",
                    "Adresse du site",
                    "Adresse site",
                    "Rue",
                    "Voie",
                ],
            ));
            all.push(field(
                ADDRESS_COMPLEMENT,
                "Complément d'adresse",
                FieldKind::Building(ADDRESS_COMPLEMENT),
                &["Complément", "Complément adresse", "Adresse 2", "Bâtiment"],
            ));
            all.push(field(
                BUILDING_NAME,
                "Nom de l'immeuble",
                FieldKind::Building(BUILDING_NAME),
                &[
                    "Immeuble",
                    "Nom immeuble",
                    "Résidence",
                    "Site",
                    "Nom du site",
                ],
            ));
            all.push(field(
                POSTAL_CODE,
                "Code postal",
                FieldKind::Building(POSTAL_CODE),
                &["CP", "Postal code"],
            ));
            all.push(field(
                CITY,
                "Ville",
                FieldKind::Building(CITY),
                &["Commune", "Localité", "City"],
            ));
            for datum in catalog {
                let mut names: Vec<&str> = vec![datum.code.as_str()];
                if let Some(key) = &datum.partner_key {
                    names.push(key);
                }
                all.push(field(
                    &datum.code,
                    &datum.label,
                    FieldKind::Technical(Box::new(datum.clone())),
                    &names,
                ));
            }
            all
        }
        Target::Clients => vec![
            field(
                "client_id",
                "Identifiant du client",
                FieldKind::Client("client_id"),
                &[
                    "Code client",
                    "Client id",
                    "Id client",
                    "Identifiant client",
                    "N° client",
                    "Numéro client",
                    "Réf client",
                    "Référence client",
                    "Id",
                    "Identifiant",
                    "Code",
                ],
            ),
            field(
                "nom",
                "Nom ou raison sociale",
                FieldKind::Client("nom"),
                &[
                    "Raison sociale",
                    "Nom",
                    "Client",
                    "Nom client",
                    "Nom du client",
                    "Société",
                    "Entreprise",
                    "Dénomination",
                ],
            ),
            field(
                "statut",
                "Statut (Prospect, Client)",
                FieldKind::Client("statut"),
                &["Statut", "Status"],
            ),
            field(
                "type",
                "Catégories (Propriétaire/exploitant, Gestionnaire)",
                FieldKind::Client("type"),
                &["Type", "Catégorie", "Catégories", "Type de client"],
            ),
            field(
                "email",
                "E-mail",
                FieldKind::Client("email"),
                &[
                    "Email",
                    "Mail",
                    "Courriel",
                    "Adresse mail",
                    "Adresse e-mail",
                ],
            ),
            field(
                "telephone",
                "Téléphone (standard)",
                FieldKind::Client("telephone"),
                &["Téléphone", "Tél", "Tel", "Standard", "Phone"],
            ),
            field(
                "adresse",
                "Adresse du siège (rue)",
                FieldKind::Client("adresse"),
                &["Adresse", "Adresse siège", "Siège", "Rue", "Voie"],
            ),
            field(
                "complement_adresse",
                "Complément d'adresse",
                FieldKind::Client("complement_adresse"),
                &["Complément", "Complément adresse", "Adresse 2"],
            ),
            field(
                "code_postal",
                "Code postal",
                FieldKind::Client("code_postal"),
                &["CP", "Postal code"],
            ),
            field(
                "ville",
                "Ville",
                FieldKind::Client("ville"),
                &["Commune", "City", "Localité"],
            ),
            field(
                "siren",
                "SIREN",
                FieldKind::Client("siren"),
                &["N° SIREN", "Numéro SIREN"],
            ),
            field(
                "siret",
                "SIRET",
                FieldKind::Client("siret"),
                &["N° SIRET", "Numéro SIRET"],
            ),
        ],
        Target::Contacts => vec![
            field(
                "client",
                "Client (son identifiant ou son nom)",
                FieldKind::ContactClient,
                &[
                    "Client",
                    "Code client",
                    "Client id",
                    "Id client",
                    "Société",
                    "Raison sociale",
                    "Entreprise",
                ],
            ),
            field(
                "nom",
                "Nom (ou nom complet)",
                FieldKind::Contact("nom"),
                &[
                    "Nom",
                    "Nom complet",
                    "Contact",
                    "Nom du contact",
                    "Interlocuteur",
                    "Nom prénom",
                    "Prénom nom",
                ],
            ),
            field(
                "prenom",
                "Prénom (placé devant le nom)",
                FieldKind::ContactFirstName,
                &["Prénom", "First name"],
            ),
            field(
                "email",
                "E-mail",
                FieldKind::Contact("email"),
                &[
                    "Email",
                    "Mail",
                    "Courriel",
                    "Adresse mail",
                    "Adresse e-mail",
                ],
            ),
            field(
                "telephone",
                "Téléphone (ligne directe ou portable)",
                FieldKind::Contact("telephone"),
                &[
                    "Téléphone",
                    "Tél",
                    "Tel",
                    "Portable",
                    "Mobile",
                    "Ligne directe",
                    "GSM",
                ],
            ),
            field(
                "fonction",
                "Fonction",
                FieldKind::Contact("fonction"),
                &["Fonction", "Rôle", "Poste", "Qualité", "Titre"],
            ),
        ],
        Target::Contracts => CONTRACT_FIELDS
            .iter()
            .map(|(id, label, body, synonyms)| {
                field(id, label, FieldKind::Contract(body), synonyms)
            })
            .collect(),
        Target::PriceIndexes => vec![
            field(
                "indice",
                "Indice (son code : BT48, ICHT-IME…)",
                FieldKind::IndexValue("index"),
                &[
                    "Code",
                    "Code indice",
                    "Code de l'indice",
                    "Nom de l'indice",
                    "Nom indice",
                    "Index",
                    "Indice de révision",
                ],
            ),
            field(
                "mois",
                "Mois (AAAA-MM, MM/AAAA ou janvier 2026)",
                FieldKind::IndexValue("month"),
                &[
                    "Période",
                    "Période de référence",
                    "Mois de référence",
                    "Mois de l'indice",
                    "Mois de la valeur",
                    "Date",
                    "Date de valeur",
                ],
            ),
            field(
                "valeur",
                "Valeur (4 décimales au plus)",
                FieldKind::IndexValue("value"),
                &[
                    "Valeur de l'indice",
                    "Valeur indice",
                    "Valeur publiée",
                    "Indice valeur",
                ],
            ),
        ],
    }
}

/// The fields of the `contracts` target: (id, label, `ContractBody` field,
/// usual headers). Each label's hint in parentheses says how to write it.
const CONTRACT_FIELDS: [(&str, &str, &str, &[&str]); 25] = [
    (
        "client",
        "Client (son identifiant ou son nom)",
        "clientId",
        &[
            "Client",
            "Code client",
            "Client id",
            "Id client",
            "N° client",
            "Nom client",
            "Nom du client",
            "Raison sociale",
            "Société",
            "Propriétaire",
        ],
    ),
    (
        "appareils",
        "Appareils (leurs numéros, séparés par ; ou ,)",
        "liftIds",
        &[
            "Appareil",
            "Appareils",
            "N° appareil",
            "N° appareils",
            "N° des appareils",
            "Numéros appareils",
            "Numéros des appareils",
            "Numéro appareil",
            "Équipement",
            "Équipements",
            "Ascenseurs",
            "Liste des appareils",
        ],
    ),
    (
        "type",
        "Type de contrat (Minimal, Normal, Étendu, Complet)",
        "type",
        &[
            "Type",
            "Type contrat",
            "Formule",
            "Niveau",
            "Niveau de contrat",
        ],
    ),
    (
        "date_debut",
        "Date de début (AAAA-MM-JJ ou JJ/MM/AAAA)",
        "startOn",
        &[
            "Début",
            "Date début",
            "Début du contrat",
            "Date d'effet",
            "Prise d'effet",
            "Date de prise d'effet",
            "Entrée en vigueur",
        ],
    ),
    (
        "duree_mois",
        "Durée (mois)",
        "durationMonths",
        &[
            "Durée",
            "Durée initiale",
            "Durée du contrat",
            "Durée en mois",
        ],
    ),
    (
        "reconduction_tacite",
        "Reconduction tacite (oui ou non)",
        "tacitRenewal",
        &[
            "Reconduction",
            "Tacite reconduction",
            "Renouvellement tacite",
            "Reconduction tacite",
        ],
    ),
    (
        "duree_reconduction_mois",
        "Durée de reconduction (mois)",
        "renewalMonths",
        &[
            "Durée reconduction",
            "Durée de renouvellement",
            "Durée renouvellement",
        ],
    ),
    (
        "preavis_mois",
        "Préavis (mois)",
        "noticeMonths",
        &["Préavis", "Préavis de résiliation", "Délai de préavis"],
    ),
    (
        "base_prix",
        "Base du prix (Par appareil, Global)",
        "priceBasis",
        &["Base prix", "Base du prix", "Prix par"],
    ),
    (
        "prix_annuel",
        "Prix annuel HT (euros)",
        "annualPrice",
        &[
            "Prix annuel",
            "Prix annuel HT",
            "Prix",
            "Prix HT",
            "Montant annuel",
            "Montant HT",
            "Tarif annuel",
            "Redevance",
            "Redevance annuelle",
        ],
    ),
    (
        "frequence_facturation",
        "Fréquence de facturation (Mensuelle, Trimestrielle, Semestrielle, Annuelle)",
        "billingFrequency",
        &[
            "Fréquence",
            "Facturation",
            "Périodicité",
            "Périodicité de facturation",
            "Fréquence facturation",
        ],
    ),
    (
        "terme_facturation",
        "Terme de facturation (À échoir, Échu)",
        "billingTiming",
        &["Terme", "Terme facturation", "Échoir ou échu"],
    ),
    (
        "taux_tva",
        "Taux de TVA (%)",
        "vatRate",
        &["TVA", "Taux TVA", "Taux de TVA"],
    ),
    (
        "indice",
        "Indice de révision (BT48, ICHT-IME…)",
        "priceIndex",
        &["Indice", "Indice révision", "Indice de révision"],
    ),
    (
        "valeur_base_indice",
        "Valeur de base de l'indice (I0)",
        "baseIndexValue",
        &["I0", "Valeur indice", "Indice de base", "Valeur de base"],
    ),
    (
        "mois_base_indice",
        "Mois de la valeur de base (AAAA-MM ou MM/AAAA)",
        "baseIndexMonth",
        &["Mois I0", "Mois indice", "Mois de base", "Mois de l'indice"],
    ),
    (
        "intervalle_visites_jours",
        "Intervalle des visites (jours)",
        "visitIntervalDays",
        &[
            "Intervalle visites",
            "Intervalle entre visites",
            "Fréquence des visites",
            "Périodicité des visites",
        ],
    ),
    (
        "delai_arrivee_minutes",
        "Délai d'arrivée aux heures ouvrées (minutes)",
        "arrivalMinutes",
        &[
            "Délai d'arrivée",
            "Délai arrivée",
            "Délai d'intervention",
            "Délai intervention",
        ],
    ),
    (
        "delai_arrivee_hors_heures_minutes",
        "Délai d'arrivée hors heures ouvrées (minutes)",
        "arrivalOutOfHoursMinutes",
        &[
            "Délai hors heures ouvrées",
            "Délai d'arrivée hors heures",
            "Délai astreinte",
        ],
    ),
    (
        "delai_personne_bloquee_minutes",
        "Délai pour une personne bloquée (minutes)",
        "trappedPersonMinutes",
        &[
            "Délai personne bloquée",
            "Personne bloquée",
            "Délai de désincarcération",
        ],
    ),
    (
        "delai_remise_en_service_minutes",
        "Délai de remise en service (minutes)",
        "returnToServiceMinutes",
        &["Remise en service", "Délai remise en service"],
    ),
    (
        "week_end",
        "Week-ends couverts (oui ou non)",
        "weekendCoverage",
        &["Week-end", "Week-ends", "Weekend", "Couverture week-end"],
    ),
    (
        "astreinte",
        "Nuits couvertes par l'astreinte (oui ou non)",
        "onCallCoverage",
        &["Astreinte", "Nuits couvertes", "Couverture astreinte"],
    ),
    (
        "penalite_heure_retard",
        "Pénalité par heure de retard (euros)",
        "penaltyPerLateHour",
        &[
            "Pénalité",
            "Pénalités",
            "Pénalité de retard",
            "Pénalités de retard",
        ],
    ),
    (
        "notes",
        "Notes",
        "notes",
        &[
            "Remarques",
            "Remarque",
            "Commentaire",
            "Commentaires",
            "Observations",
        ],
    ),
];

/// The field suggested for each column (by index), from its header.
pub fn suggest(columns: &[String], fields: &[Field]) -> Vec<Option<usize>> {
    let mut taken = vec![false; fields.len()];
    columns
        .iter()
        .map(|column| {
            let wanted = normalize(column);
            if wanted.is_empty() {
                return None;
            }
            let found = fields
                .iter()
                .enumerate()
                .find(|(i, f)| !taken[*i] && f.synonyms.contains(&wanted))
                .map(|(i, _)| i);
            if let Some(i) = found {
                taken[i] = true;
            }
            found
        })
        .collect()
}

fn quoted(values: impl IntoIterator<Item = impl AsRef<str>>) -> String {
    values
        .into_iter()
        .map(|v| format!("« {} »", v.as_ref()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The field of each column (by index) from a mapping sent as (column name,
/// field id or nothing): a column that is not in the file, a field the
/// target does not have, a field given to two columns, or a mapping without
/// the fields the target needs are refused (422).
pub fn check_mapping(
    target: Target,
    columns: &[String],
    fields: &[Field],
    mapping: &[(String, Option<String>)],
) -> AppResult<Vec<Option<usize>>> {
    let mut chosen: Vec<Option<usize>> = vec![None; columns.len()];
    for (column, field_id) in mapping {
        let Some(index) = columns.iter().position(|c| c == column) else {
            return Err(AppError::unprocessable(format!(
                "La colonne « {column} » du champ « mapping » n'existe pas dans le fichier : colonnes lues : {}.",
                quoted(columns)
            )));
        };
        let Some(field_id) = field_id.as_deref().map(str::trim).filter(|f| !f.is_empty()) else {
            continue;
        };
        let Some(field_index) = fields.iter().position(|f| f.id == field_id) else {
            return Err(AppError::unprocessable(format!(
                "Le champ « {field_id} » (colonne « {column} ») n'existe pas pour la cible « {} » : champs possibles : {}.",
                target.code(),
                quoted(fields.iter().map(|f| &f.id))
            )));
        };
        if let Some(other) = chosen.iter().position(|c| *c == Some(field_index)) {
            return Err(AppError::unprocessable(format!(
                "Le champ « {} » est associé à deux colonnes (« {} » et « {column} ») : une seule colonne par champ.",
                fields[field_index].name(),
                columns[other]
            )));
        }
        chosen[index] = Some(field_index);
    }
    check_required(target, fields, &chosen)?;
    Ok(chosen)
}

/// The fields a contracts file maps, each row giving them: what the API's
/// body requires.
pub const CONTRACT_REQUIRED: [&str; 5] =
    ["client", "appareils", "type", "date_debut", "prix_annuel"];

/// The fields an index values file maps: all three.
pub const INDEX_VALUE_REQUIRED: [&str; 3] = ["indice", "mois", "valeur"];

/// Each target needs a column that finds or names what a row designates.
pub fn check_required(target: Target, fields: &[Field], chosen: &[Option<usize>]) -> AppResult<()> {
    let has = |id: &str| {
        chosen
            .iter()
            .flatten()
            .any(|i| fields.get(*i).is_some_and(|f| f.id == id))
    };
    let missing = match target {
        Target::Equipment if !has("number") && !has("externalId") => Some(
            "Aucune colonne n'est associée au numéro de l'équipement ni à son identifiant externe : il en faut au moins une pour retrouver ou créer les équipements.",
        ),
        Target::Clients if !["client_id", "nom", "siret", "siren"].into_iter().any(has) => Some(
            "Aucune colonne n'est associée au nom (ou raison sociale), à l'identifiant, au SIRET ou au SIREN du client : il en faut au moins une pour retrouver ou créer les clients.",
        ),
        Target::Contacts if !has("client") => Some(
            "Aucune colonne n'est associée au client : chaque contact est rattaché à un client de l'agence (son identifiant ou son nom).",
        ),
        Target::Contacts if !has("nom") => {
            Some("Aucune colonne n'est associée au nom du contact : il est obligatoire.")
        }
        Target::Contracts => {
            return match CONTRACT_REQUIRED.into_iter().find(|id| !has(id)) {
                Some(id) => Err(AppError::unprocessable(format!(
                    "Aucune colonne n'est associée au champ « {} » : chaque contrat importé nomme son client, ses appareils, son type, sa date de début et son prix annuel.",
                    fields.iter().find(|f| f.id == id).map_or(id, |f| f.name())
                ))),
                None => Ok(()),
            };
        }
        Target::PriceIndexes => {
            return match INDEX_VALUE_REQUIRED.into_iter().find(|id| !has(id)) {
                Some(id) => Err(AppError::unprocessable(format!(
                    "Aucune colonne n'est associée au champ « {} » : chaque valeur importée nomme son indice, son mois et sa valeur.",
                    fields.iter().find(|f| f.id == id).map_or(id, |f| f.name())
                ))),
                None => Ok(()),
            };
        }
        _ => None,
    };
    match missing {
        Some(message) => Err(AppError::unprocessable(message)),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn columns(names: &[&str]) -> Vec<String> {
        names.iter().map(|n| (*n).to_owned()).collect()
    }

    fn suggested(target: Target, names: &[&str]) -> Vec<Option<String>> {
        let fields = fields(target, &[]);
        suggest(&columns(names), &fields)
            .into_iter()
            .map(|i| i.map(|i| fields[i].id.clone()))
            .collect()
    }

    #[test]
    fn headers_are_normalized() {
        assert_eq!(normalize("  N° Appareil "), "n appareil");
        assert_eq!(normalize("Charge utile (kg)"), "charge utile");
        assert_eq!(normalize("RAISON-SOCIALE"), "raison sociale");
        assert_eq!(normalize("Numéro d'équipement"), "numero d equipement");
    }

    #[test]
    fn suggestions_follow_the_headers() {
        assert_eq!(
            suggested(
                Target::Equipment,
                &[
                    "N° appareil",
                    "Adresse",
                    "CP",
                    "Ville",
                    "Remarque",
                    "Numéro"
                ]
            ),
            [
                Some("number".to_owned()),
                Some("adresse".to_owned()),
                Some("code_postal".to_owned()),
                Some("ville".to_owned()),
                None,
                None,
            ]
        );
        assert_eq!(
            suggested(
                Target::Clients,
                &[
                    "Raison sociale",
                    "SIRET",
                    "Siren",
                    "Téléphone",
                    "Code client"
                ]
            ),
            [
                Some("nom".to_owned()),
                Some("siret".to_owned()),
                Some("siren".to_owned()),
                Some("telephone".to_owned()),
                Some("client_id".to_owned()),
            ]
        );
        assert_eq!(
            suggested(
                Target::Contacts,
                &["Client", "Prénom", "Nom", "Mobile", "Rôle"]
            ),
            [
                Some("client".to_owned()),
                Some("prenom".to_owned()),
                Some("nom".to_owned()),
                Some("telephone".to_owned()),
                Some("fonction".to_owned()),
            ]
        );
    }

    #[test]
    fn contract_headers_suggest_the_contract_fields() {
        assert_eq!(
            suggested(
                Target::Contracts,
                &[
                    "Client",
                    "Appareils",
                    "Type",
                    "Date de début",
                    "Durée (mois)",
                    "Prix annuel HT",
                    "TVA",
                    "Astreinte",
                    "Remarques",
                    "Autre"
                ]
            ),
            [
                Some("client".to_owned()),
                Some("appareils".to_owned()),
                Some("type".to_owned()),
                Some("date_debut".to_owned()),
                Some("duree_mois".to_owned()),
                Some("prix_annuel".to_owned()),
                Some("taux_tva".to_owned()),
                Some("astreinte".to_owned()),
                Some("notes".to_owned()),
                None,
            ]
        );
        let fields = fields(Target::Contracts, &[]);
        let ids: Vec<&str> = fields.iter().map(|f| f.id.as_str()).collect();
        for required in CONTRACT_REQUIRED {
            assert!(ids.contains(&required), "{required}");
        }
        let chosen = suggest(&columns(&["Client", "Appareils", "Type"]), &fields);
        assert_eq!(
            check_required(Target::Contracts, &fields, &chosen)
                .map_err(|e| e.public_message()),
            Err("Aucune colonne n'est associée au champ « Date de début » : chaque contrat importé nomme son client, ses appareils, son type, sa date de début et son prix annuel.".to_owned())
        );
    }

    #[test]
    fn index_value_headers_suggest_the_index_value_fields() {
        for (headers, expected) in [
            (
                ["Indice", "Mois", "Valeur", "Source"],
                [Some("indice"), Some("mois"), Some("valeur"), None],
            ),
            (
                ["Code", "Période", "Valeur de l'indice", "Libellé"],
                [Some("indice"), Some("mois"), Some("valeur"), None],
            ),
        ] {
            assert_eq!(
                suggested(Target::PriceIndexes, &headers),
                expected.map(|id| id.map(str::to_owned)),
                "{headers:?}"
            );
        }
        let fields = fields(Target::PriceIndexes, &[]);
        let chosen = suggest(&columns(&["Indice", "Valeur"]), &fields);
        assert_eq!(
            check_required(Target::PriceIndexes, &fields, &chosen)
                .map_err(|e| e.public_message()),
            Err("Aucune colonne n'est associée au champ « Mois » : chaque valeur importée nomme son indice, son mois et sa valeur.".to_owned())
        );
        let chosen = suggest(&columns(&["Valeur", "Mois", "Indice"]), &fields);
        assert_eq!(
            check_required(Target::PriceIndexes, &fields, &chosen).map_err(|e| e.public_message()),
            Ok(())
        );
        assert!(Target::PriceIndexes.all_or_nothing());
        assert!(Target::PriceIndexes.writes_through_api());
        assert_eq!(Target::PriceIndexes.code(), "price_indexes");
    }

    #[test]
    fn mappings_are_checked() {
        let fields = fields(Target::Equipment, &[]);
        let cols = columns(&["A", "B"]);
        let map = |pairs: &[(&str, Option<&str>)]| {
            let pairs: Vec<(String, Option<String>)> = pairs
                .iter()
                .map(|(c, f)| ((*c).to_owned(), f.map(str::to_owned)))
                .collect();
            check_mapping(Target::Equipment, &cols, &fields, &pairs)
                .map_err(|e| (e.status().as_u16(), e.public_message()))
        };
        assert!(map(&[("A", Some("number")), ("B", None)]).is_ok());
        assert!(
            map(&[("C", Some("number"))])
                .unwrap_err()
                .1
                .contains("« C »")
        );
        assert!(
            map(&[("A", Some("numero"))])
                .unwrap_err()
                .1
                .contains("champs possibles")
        );
        assert_eq!(
            map(&[("A", Some("number")), ("B", Some("number"))]).unwrap_err(),
            (
                422,
                "Le champ « Numéro de l'équipement » est associé à deux colonnes (« A » et « B ») : une seule colonne par champ.".to_owned()
            )
        );
        assert_eq!(
            map(&[("A", Some("location"))]).unwrap_err(),
            (
                422,
                "Aucune colonne n'est associée au numéro de l'équipement ni à son identifiant externe : il en faut au moins une pour retrouver ou créer les équipements.".to_owned()
            )
        );
        let named = |id: &str| {
            fields
                .iter()
                .find(|f| f.id == id)
                .map(|f| f.name().to_owned())
        };
        assert_eq!(named("client").as_deref(), Some("Client"));
        assert_eq!(named("serialNumber").as_deref(), Some("Numéro de série"));
    }
}
