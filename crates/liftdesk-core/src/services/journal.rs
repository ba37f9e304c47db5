//! The agency's journal (the « Journal » screen and each record's history,
//! `/app/api/journal`): who changed what and when, read from the audit log
//! every write fills in its own transaction. The whole journal, filtered by
//! object, person and period, is the administrators'; the history of one
//! record of the agency's work (an equipment, a client, a call, an
//! invoice…: [`RECORD_TYPES`], its type and id given) is every staff
//! member's. Newest first, by pages continued from the last entry read.

use chrono::{Days, NaiveDate};
use serde_json::Value;

use crate::domain::id::AccountId;
use crate::domain::time::{format_timestamp, paris_to_utc};
use crate::error::{AppError, AppResult};
use crate::principal::{Capability, Principal};
use crate::store::Store;
use crate::store::audit::{self, JournalFilter, JournalRow};

/// Entries of one page, by default and at most.
pub const DEFAULT_LIMIT: u32 = 50;
pub const MAX_LIMIT: u32 = 200;

/// The kinds of objects the journal names, and their names in French (the
/// filter's choices): a type not listed is shown by its code.
pub const OBJECT_TYPES: [(&str, &str); 22] = [
    ("equipment", "Équipement"),
    ("building", "Immeuble"),
    ("client", "Client"),
    ("contact", "Contact"),
    ("call", "Appel"),
    ("visit", "Visite"),
    ("survey", "Relevé"),
    ("quote", "Devis"),
    ("invoice", "Facture ou avoir"),
    ("technician", "Technicien"),
    ("account", "Compte"),
    ("agency", "Agence"),
    ("webhook_subscription", "Abonnement webhook"),
    ("api_token", "Jeton d'API"),
    ("call_center_key", "Clé de centre d'appels"),
    ("partner_key", "Clé partenaire"),
    ("import_file", "Import"),
    ("deal", "Affaire"),
    ("discrepancy", "Écart de relevé"),
    ("credential", "Clé ou jeton"),
    ("session", "Session"),
    ("organization", "Organisation"),
];

/// The records whose own history every staff member of the agency reads
/// (the others' — accounts, agencies, keys… — are the administrators').
pub const RECORD_TYPES: [&str; 10] = [
    "equipment",
    "building",
    "client",
    "contact",
    "call",
    "visit",
    "survey",
    "quote",
    "invoice",
    "technician",
];

/// The French name of an object type (its code when unknown).
pub fn object_type_label(code: &str) -> &str {
    OBJECT_TYPES
        .iter()
        .find(|(c, _)| *c == code)
        .map_or(code, |(_, label)| label)
}

/// What was done, in French: the known actions by name, any other by its
/// code made readable (« carnet_entretien » → « Carnet entretien »).
pub fn action_label(code: &str) -> String {
    let known = match code {
        "creation"
        | "client.create"
        | "equipement.creation"
        | "immeuble.creation"
        | "technicien.creation" => "Création",
        "modification" | "client.update" | "technicien.modification" => "Modification",
        "technicien.desactivation" => "Désactivation",
        "technicien.reactivation" => "Réactivation",
        "envoi" => "Envoi",
        "relance" => "Relance",
        "acceptation" => "Acceptation",
        "refus" => "Refus",
        "renouvellement" => "Renouvellement",
        "envoi_email" => "Envoi par e-mail",
        "renvoi_email" => "Nouvel essai d'envoi par e-mail",
        "reglages_email" => "Serveur d'envoi des e-mails réglé",
        "suppression" => "Suppression",
        "archivage" | "client.archive" | "equipement.archivage" => "Archivage",
        "reactivation" | "client.restore" | "equipement.reactivation" => "Réactivation",
        "renommage" => "Renommage",
        "identite" => "Identité modifiée",
        "logo" => "Logo modifié",
        "connexion" => "Connexion",
        "desactivation" => "Désactivation",
        "revocation" => "Révocation",
        "retrait_agence" => "Retrait d'une agence",
        "changement_mot_de_passe" => "Changement de mot de passe",
        "reinitialisation_mot_de_passe" => "Réinitialisation du mot de passe",
        "correction_identite" => "Identité corrigée",
        "donnees_techniques" => "Données techniques",
        "equipement.client" => "Changement de client",
        "immeuble.acces" => "Consignes d'accès",
        "intervalle_visites" => "Intervalle des visites",
        "debut_plan" => "Début du plan d'entretien",
        "planification" => "Planification",
        "annulation" => "Annulation",
        "ouverture" => "Ouverture",
        "affectation" => "Affectation",
        "changement_statut" => "Changement de statut",
        "emission" => "Émission",
        "reglement" => "Règlement",
        "prise_en_compte" => "Alerte prise en compte",
        "solde" => "Soldée par avoir",
        "soumission" => "Soumission",
        "import" => "Import",
        "envoi_fichier_import" => "Fichier d'import envoyé",
        "purge_fichiers_import" => "Fichiers d'import purgés",
        "test" => "Essai",
        "deal.category" => "Catégorie de l'affaire",
        "deal.create" => "Création de l'affaire",
        "survey.create" => "Création du relevé",
        "cloture" => "Clôture",
        "echeance" => "Échéance",
        "demarrage" => "Démarrage",
        "annulation_demarrage" => "Démarrage annulé",
        "enregistrement" => "Enregistrement",
        "replanification" => "Replanification",
        "sheet_token.create" => "Lien de fiche créé",
        "absence.creation" => "Création d'une absence",
        "absence.suppression" => "Suppression d'une absence",
        "astreinte.affectation" => "Affectation d'astreinte",
        "astreinte.echange" => "Échange d'astreinte",
        "deal.add_surveys" => "Relevés ajoutés à l'affaire",
        "survey.assign" => "Affectation du relevé",
        _ => "",
    };
    if !known.is_empty() {
        return known.to_owned();
    }
    let words = code.replace(['_', '.'], " ");
    let mut chars = words.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// Who acted, in French, by the audit's actor kind.
pub fn actor_kind_label(kind: &str) -> &str {
    match kind {
        "account" => "Personnel",
        "api_token" => "Jeton d'API",
        "call_center_key" => "Centre d'appels",
        "partner_key" => "Partenaire",
        "cli" => "Ligne de commande",
        "system" => "Liftdesk",
        other => other,
    }
}

/// What a page of the journal asks for.
#[derive(Debug, Clone, Default)]
pub struct JournalQuery {
    pub object_type: Option<String>,
    pub object_id: Option<String>,
    pub account_id: Option<String>,
    /// First and last days (Paris), both included.
    pub from: Option<String>,
    pub to: Option<String>,
    /// Continue after this entry (the `next` of the previous page).
    pub before: Option<i64>,
    pub limit: Option<u32>,
}

/// A page of the journal and where the next one starts (none at the end).
#[derive(Debug, Clone)]
pub struct JournalPage {
    pub entries: Vec<JournalRow>,
    pub next: Option<i64>,
    /// The records the entries' details name by their id, in words.
    pub references: Vec<Reference>,
}

/// The detail keys whose values are a record's id, and the kind of record:
/// the screens show that record's name (and link to it) instead of the id.
pub const REFERENCE_KEYS: [(&str, &str); 17] = [
    ("clientId", "client"),
    ("buildingId", "building"),
    ("equipmentId", "equipment"),
    ("equipment", "equipment"),
    ("technicianId", "technician"),
    ("technician", "technician"),
    ("previousTechnician", "technician"),
    ("created_equipment", "equipment"),
    ("quote", "quote"),
    ("creditedInvoice", "invoice"),
    ("survey", "survey"),
    ("surveys", "survey"),
    ("account", "account"),
    ("admin", "account"),
    ("surveyor", "account"),
    ("agency", "agency"),
    ("agencies", "agency"),
];

/// A record named in an entry's detail, found in the agency (an account or
/// an agency: in its organization).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reference {
    pub id: String,
    pub object_type: &'static str,
    pub record: audit::NamedRecord,
}

/// The (kind, id) of every record the details name under a
/// [`REFERENCE_KEYS`] key: the value itself, each item of a list, each side
/// of a `{before, after}`, at any depth; once each, in order of appearance.
pub fn referenced_ids(details: &[Value]) -> Vec<(&'static str, String)> {
    fn ids_in(value: &Value, kind: &'static str, out: &mut Vec<(&'static str, String)>) {
        match value {
            Value::String(id) if !id.trim().is_empty() => {
                let found = (kind, id.clone());
                if !out.contains(&found) {
                    out.push(found);
                }
            }
            Value::Array(items) => items.iter().for_each(|v| ids_in(v, kind, out)),
            Value::Object(change) => {
                for side in ["before", "after"] {
                    if let Some(v) = change.get(side) {
                        ids_in(v, kind, out);
                    }
                }
            }
            _ => {}
        }
    }
    fn walk(value: &Value, out: &mut Vec<(&'static str, String)>) {
        match value {
            Value::Object(fields) => {
                for (key, v) in fields {
                    match REFERENCE_KEYS.iter().find(|(k, _)| k == key) {
                        Some((_, kind)) => ids_in(v, kind, out),
                        None => walk(v, out),
                    }
                }
            }
            Value::Array(items) => items.iter().for_each(|v| walk(v, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    details.iter().for_each(|d| walk(d, &mut out));
    out
}

fn non_blank(value: Option<String>) -> Option<String> {
    value.map(|v| v.trim().to_owned()).filter(|v| !v.is_empty())
}

fn day(field: &str, value: Option<String>) -> AppResult<Option<NaiveDate>> {
    non_blank(value)
        .map(|text| {
            crate::domain::day::parse(&text).map_err(|_| {
                AppError::unprocessable(format!(
                    "Le champ « {field} » doit être une date AAAA-MM-JJ : « {text} » n'en est pas une."
                ))
            })
        })
        .transpose()
}

/// The stored instant a Paris day starts at.
fn start_of(day: NaiveDate) -> String {
    format_timestamp(paris_to_utc(day.and_time(chrono::NaiveTime::MIN)))
}

/// One page of the journal of the principal's agency.
pub async fn page(store: &Store, p: &Principal, query: JournalQuery) -> AppResult<JournalPage> {
    let agency_id = p.agency_id()?.to_owned();
    let object_type = non_blank(query.object_type);
    let object_id = non_blank(query.object_id);
    if object_id.is_some() && object_type.is_none() {
        return Err(AppError::unprocessable(
            "Le champ « objectType » est obligatoire avec « objectId ».",
        ));
    }
    let a_record = object_id.is_some()
        && object_type
            .as_deref()
            .is_some_and(|t| RECORD_TYPES.contains(&t));
    if !a_record {
        p.require(Capability::Administer("Consulter le journal de l'agence"))?;
    }
    let from = day("from", query.from)?;
    let to = day("to", query.to)?;
    if let (Some(from), Some(to)) = (from, to)
        && from > to
    {
        return Err(AppError::unprocessable(
            "La période est inversée : « from » doit précéder ou égaler « to ».",
        ));
    }
    let limit = query.limit.unwrap_or(DEFAULT_LIMIT);
    if !(1..=MAX_LIMIT).contains(&limit) {
        return Err(AppError::unprocessable(format!(
            "Le champ « limit » doit être compris entre 1 et {MAX_LIMIT}."
        )));
    }
    let filter = JournalFilter {
        object_type,
        object_id,
        account_id: non_blank(query.account_id).map(AccountId::new),
        from: from.map(start_of),
        until: to
            .and_then(|to| to.checked_add_days(Days::new(1)))
            .map(start_of),
    };
    let before = query.before;
    let page = store
        .read(move |conn| {
            let mut filter = filter;
            // A client is named on the screens by its partner identifier;
            // the audit names it by its internal id.
            if filter.object_type.as_deref() == Some("client")
                && let Some(reference) = &filter.object_id
                && let Some(client) =
                    crate::store::clients::find_by_ref(conn, &agency_id, reference)?
            {
                filter.object_id = Some(client.id.into_string());
            }
            let mut entries = audit::journal(conn, &agency_id, &filter, before, limit + 1)?;
            let next = if entries.len() > limit as usize {
                entries.truncate(limit as usize);
                entries.last().map(|e| e.seq)
            } else {
                None
            };
            let details: Vec<Value> = entries
                .iter()
                .filter_map(|e| serde_json::from_str(e.detail.as_deref()?).ok())
                .collect();
            let mut references = Vec::new();
            for (object_type, id) in referenced_ids(&details) {
                if let Some(record) = audit::named_record(conn, &agency_id, object_type, &id)? {
                    references.push(Reference {
                        id,
                        object_type,
                        record,
                    });
                }
            }
            Ok::<_, crate::store::StoreError>(JournalPage {
                entries,
                next,
                references,
            })
        })
        .await?;
    Ok(page)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_ids_a_detail_names_are_found_under_their_keys_once() {
        let details = [
            json!({ "equipmentId": "e1", "technicianId": { "before": null, "after": "t1" } }),
            json!({ "agencies": ["a1", "a2"], "changes": { "clientId": { "before": "c1", "after": "c2" } } }),
            json!({ "technician": "t1", "number": "e1", "version": "v1", "quote": "" }),
        ];
        assert_eq!(
            referenced_ids(&details),
            [
                ("equipment", "e1".to_owned()),
                ("technician", "t1".to_owned()),
                ("agency", "a1".to_owned()),
                ("agency", "a2".to_owned()),
                ("client", "c1".to_owned()),
                ("client", "c2".to_owned()),
            ]
        );
    }

    #[test]
    fn actions_and_types_read_in_french() {
        assert_eq!(action_label("client.create"), "Création");
        assert_eq!(action_label("astreinte.echange"), "Échange d'astreinte");
        assert_eq!(
            action_label("deal.add_surveys"),
            "Relevés ajoutés à l'affaire"
        );
        assert_eq!(action_label("equipement.client"), "Changement de client");
        // Every action written to the journal has its own French label,
        // accents included (no « Cloture », « Survey create »).
        for (code, label) in [
            ("cloture", "Clôture"),
            ("echeance", "Échéance"),
            ("survey.create", "Création du relevé"),
            ("deal.create", "Création de l'affaire"),
            ("renouvellement", "Renouvellement"),
        ] {
            assert_eq!(action_label(code), label);
        }
        assert_eq!(
            action_label("carnet_entretien.ajout"),
            "Carnet entretien ajout"
        );
        assert_eq!(action_label(""), "");
        assert_eq!(object_type_label("invoice"), "Facture ou avoir");
        assert_eq!(object_type_label("inconnu"), "inconnu");
        assert_eq!(actor_kind_label("cli"), "Ligne de commande");
    }
}
