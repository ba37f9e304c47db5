//! Maintenance contracts and price indexes: "which contracts of client X
//! are up for renewal?", "put the draft contract of that lift in force",
//! "record the BT48 of January".
//!
//! Each tool calls the function its REST operation calls
//! (`api::wire::contracts`), its arguments read by the REST body reader, so
//! a refusal is the REST API's, with its French reason, as a tool error.

use axum::http::request::Parts;
use rmcp::handler::server::tool::Extension;
use rmcp::model::JsonObject;
use rmcp::schemars::{self, JsonSchema};
use rmcp::{tool, tool_router};
use serde::Deserialize;

use super::{args, caller_of};
use crate::api::mcp::result::{ToolAnswer, answer};
use crate::api::mcp::server::LiftdeskMcp;
use crate::api::wire::PageQuery;
use crate::api::wire::contract_billing::{self, BillingWindowBody, IssueBatchBody, PreviewQuery};
use crate::api::wire::contracts::{self, ContractBody, IndexValueBody, TerminationBody};
use crate::domain::contract::ContractAction;
use crate::services::contracts::ListInput;

/// The contract a tool reads or moves.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct ContractArg {
    /// Identifiant (UUID) du contrat : l'`id` d'une ligne de `contrats`, ou
    /// celui rendu par `creer_contrat`.
    #[schemars(length(min = 1))]
    id: String,
}

/// `resilier_contrat`: the contract and the body of
/// `POST /contracts/{id}/terminate`.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct TerminateArgs {
    /// Identifiant (UUID) du contrat en vigueur.
    #[schemars(length(min = 1))]
    id: String,
    /// Motif de la résiliation (obligatoire, 300 caractères au plus).
    #[schemars(length(min = 1, max = 300))]
    reason: String,
    /// Jour où le préavis a été donné (AAAA-MM-JJ, pas dans le futur) ;
    /// aujourd'hui par défaut.
    #[serde(default)]
    #[schemars(extend("format" = "date"))]
    notice_on: Option<String>,
    /// Dernier jour couvert convenu avec le client (AAAA-MM-JJ) ; absent :
    /// la fin que le préavis donne.
    #[serde(default)]
    #[schemars(extend("format" = "date"))]
    ends_on: Option<String>,
}

/// `contrats`: the arguments of `GET /contracts`.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ContractsArgs {
    /// Statut : `brouillon`, `actif`, `resilie` ou `echu` ; absent : tous.
    #[serde(default)]
    #[schemars(extend("enum" = ["brouillon", "actif", "resilie", "echu", null]))]
    status: Option<String>,
    /// Le client (`id` d'une ligne de l'outil `clients`, « CLI-000105 »).
    #[serde(default)]
    client_id: Option<String>,
    /// Un appareil couvert (son identifiant UUID).
    #[serde(default)]
    equipment_id: Option<String>,
    /// Un fragment du numéro du contrat ou du nom du client (100 caractères
    /// au plus).
    #[serde(default)]
    #[schemars(length(max = 100))]
    q: Option<String>,
    /// Lignes par page, de 1 à 200 (50 par défaut).
    #[serde(default)]
    #[schemars(with = "Option<i64>", range(min = 1, max = 200))]
    limit: Option<serde_json::Number>,
    /// Page demandée, à partir de 1.
    #[serde(default)]
    #[schemars(with = "Option<i64>", range(min = 1))]
    page: Option<serde_json::Number>,
}

/// `indices`: one index, or all.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct IndexesArgs {
    /// Un indice seulement (`BT48`…) ; absent : tous.
    #[serde(default)]
    #[schemars(length(max = 30))]
    index: Option<String>,
}

/// `delais_contrat`: the contract and the period.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct ResponseArgs {
    /// Identifiant (UUID) du contrat.
    #[schemars(length(min = 1))]
    id: String,
    /// Premier jour (AAAA-MM-JJ, heure de Paris).
    from: String,
    /// Dernier jour inclus (AAAA-MM-JJ) ; 366 jours au plus.
    to: String,
}

/// `apercu_facturation_contrats`: the window, a state, and paging.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct BillingPreviewArgs {
    /// Premier jour à facturer (AAAA-MM-JJ), par ex. le 1er jour du trimestre.
    #[schemars(extend("format" = "date"))]
    from: String,
    /// Dernier jour à facturer (AAAA-MM-JJ), au plus 366 jours après `from`.
    #[schemars(extend("format" = "date"))]
    to: String,
    /// Seulement les lignes de cet état.
    #[serde(default)]
    #[schemars(extend("enum" = ["a_creer", "deja_facture", "indice_manquant", "terme_non_echu", "client_archive", null]))]
    state: Option<String>,
    /// Lignes par page, de 1 à 200 (50 par défaut).
    #[serde(default)]
    #[schemars(with = "Option<i64>", range(min = 1, max = 200))]
    limit: Option<serde_json::Number>,
    /// Page demandée, à partir de 1.
    #[serde(default)]
    #[schemars(with = "Option<i64>", range(min = 1))]
    page: Option<serde_json::Number>,
}

#[tool_router(router = contract_tools, vis = "pub(in crate::api::mcp)")]
impl LiftdeskMcp {
    /// Les contrats d'entretien de l'agence, du numéro le plus récent au plus ancien, filtrés
    /// et paginés : `{total, page, limit, results}`. Filtres : `status` (`brouillon` en
    /// préparation, `actif` en vigueur, `resilie` résilié sur préavis — il couvre encore ses
    /// appareils jusqu'à `lastDay` —, `echu` arrivé à son terme sans reconduction),
    /// `clientId` (l'`id` donné par `clients`), `equipmentId` (un appareil couvert), `q`
    /// (numéro ou nom du client). Chaque contrat : numéro `CT-AAAA-NNNNN`, type, client,
    /// nombre d'appareils, période en cours (`currentTerm`), dernier jour pour donner un
    /// préavis (`noticeDeadline`), dernier jour couvert (`lastDay`), `covering` (couvre
    /// aujourd'hui), prix annuel HT du contrat entier en euros (`annualTotal`). « Les
    /// contrats à renouveler » : `status` = `actif`, puis `noticeDeadline` ou
    /// `currentTerm.endsOn` proches. Détail : `contrat`.
    #[tool(
        name = "contrats",
        input_schema = args::schema::<ContractsArgs>(),
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn contracts(
        &self,
        arguments: JsonObject,
        Extension(parts): Extension<Parts>,
    ) -> ToolAnswer {
        answer(
            async {
                let caller = caller_of(&parts)?;
                let args: ContractsArgs = args::parse(arguments)?;
                let filter = ListInput {
                    status: args.status,
                    client_id: args.client_id,
                    equipment_id: args.equipment_id,
                    q: args.q,
                };
                let paging = PageQuery {
                    limit: args.limit.map(|n| n.to_string()),
                    page: args.page.map(|n| n.to_string()),
                };
                contracts::contract_list(&self.state, &caller, filter, paging).await
            }
            .await,
        )
    }

    /// Un contrat d'entretien de l'agence par son identifiant (UUID) : statut, type et ce
    /// qu'il couvre (`typeCoverage`), client, appareils couverts, dates (début, période en
    /// cours, dernier jour de préavis, dernier jour couvert), prix annuel HT (d'un appareil
    /// ou du tout, et du contrat entier) en euros, facturation (fréquence, terme à échoir ou
    /// échu, TVA), révision (indice et valeur de base I0), intervalle des visites et
    /// obligations périodiques (câbles tous les 6 mois, parachute et nettoyage tous les 12),
    /// délais d'intervention en minutes (arrivée aux heures ouvrées, hors heures ouvrées,
    /// personne bloquée, remise en service), couverture du week-end et de l'astreinte,
    /// pénalité par heure de retard, et les actions possibles aujourd'hui (`actions`). Hors de
    /// l'agence ou inconnu : erreur 404 « Contrat introuvable dans cette agence. ».
    #[tool(
        name = "contrat",
        input_schema = args::schema::<ContractArg>(),
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn contract(
        &self,
        arguments: JsonObject,
        Extension(parts): Extension<Parts>,
    ) -> ToolAnswer {
        answer(
            async {
                let caller = caller_of(&parts)?;
                let ContractArg { id } = args::parse(arguments)?;
                contracts::contract_read(&self.state, &caller, &id).await
            }
            .await,
        )
    }

    /// Les délais d'intervention tenus par un contrat sur une période (`from`, `to`,
    /// AAAA-MM-JJ, 366 jours au plus) : chaque appel reçu sur l'un de ses appareils pendant
    /// qu'il les couvrait, avec ses échéances (arrivée, remise en service ; une personne
    /// bloquée d'abord, à toute heure ; hors heures ouvrées non couvertes, à la reprise des
    /// heures ouvrées), ses minutes de retard et la pénalité prévue (euros HT par heure de
    /// retard commencée), puis les totaux (`late`, `trapped`, `penalties`). Inconnu ou hors
    /// de l'agence : 404 ; jour invalide ou période à l'envers : 422.
    #[tool(
        name = "delais_contrat",
        input_schema = args::schema::<ResponseArgs>(),
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn contract_response_times(
        &self,
        arguments: JsonObject,
        Extension(parts): Extension<Parts>,
    ) -> ToolAnswer {
        answer(
            async {
                let caller = caller_of(&parts)?;
                let ResponseArgs { id, from, to } = args::parse(arguments)?;
                contracts::response_report(
                    &self.state,
                    &caller,
                    &id,
                    contracts::ResponseQuery { from, to },
                )
                .await
            }
            .await,
        )
    }

    /// Crée un contrat d'entretien au statut `brouillon`, numéroté `CT-AAAA-NNNNN`.
    /// Obligatoires : `clientId` (l'`id` donné par `clients`), `liftIds` (1 à 1 000
    /// appareils de ce client, identifiants UUID), `type` (`minimal` : obligations légales
    /// seules ; `normal` : et dépannages aux heures ouvrées ; `etendu` : et petites pièces ;
    /// `complet` : tous dépannages et toutes pièces), `startOn` (AAAA-MM-JJ), `annualPrice`
    /// (euros HT par an, d'un appareil par défaut, du tout avec `priceBasis` = `global`).
    /// Facultatifs, avec leur défaut : `durationMonths` (12, au moins un an par la loi),
    /// `tacitRenewal` (vrai), `noticeMonths` (3), `billingFrequency` (`trimestrielle`),
    /// `billingTiming` (`terme_a_echoir`), `vatRate` (20), `priceIndex`, `baseIndexValue` et
    /// `baseIndexMonth` (révision P = P0 × I / I0, I la valeur du mois de I0 les années
    /// suivantes), `visitIntervalDays` (42, six semaines au plus),
    /// `arrivalMinutes` (240), `trappedPersonMinutes` (60), `returnToServiceMinutes` (2 880),
    /// `onCallCoverage`/`weekendCoverage` (faux ; vrais, ils demandent
    /// `arrivalOutOfHoursMinutes`), `penaltyPerLateHour` (0). Le brouillon se met en vigueur
    /// avec `activer_contrat`. Un refus (422) donne la raison en français ; rien n'est créé.
    #[tool(
        name = "creer_contrat",
        input_schema = args::schema::<ContractBody>(),
        annotations(read_only_hint = false, destructive_hint = false, open_world_hint = false)
    )]
    async fn create_contract(
        &self,
        arguments: JsonObject,
        Extension(parts): Extension<Parts>,
    ) -> ToolAnswer {
        answer(
            async {
                let caller = caller_of(&parts)?;
                let body: ContractBody = args::parse(arguments)?;
                contracts::contract_create(&self.state, &caller, body).await
            }
            .await,
        )
    }

    /// Met en vigueur un contrat en brouillon (`brouillon` → `actif`) : ses appareils
    /// prennent son numéro et son intervalle de visites. Refus 409 quand un appareil est déjà
    /// couvert par un autre contrat (actif, ou résilié mais pas encore à son dernier jour) ;
    /// 422 pour un contrat qui n'est pas un brouillon ou un appareil archivé.
    #[tool(
        name = "activer_contrat",
        input_schema = args::schema::<ContractArg>(),
        annotations(read_only_hint = false, destructive_hint = false, idempotent_hint = false, open_world_hint = false)
    )]
    async fn activate_contract(
        &self,
        arguments: JsonObject,
        Extension(parts): Extension<Parts>,
    ) -> ToolAnswer {
        answer(
            async {
                let caller = caller_of(&parts)?;
                let ContractArg { id } = args::parse(arguments)?;
                contracts::contract_act(&self.state, &caller, &id, ContractAction::Activate, None)
                    .await
            }
            .await,
        )
    }

    /// Résilie un contrat en vigueur (`actif` → `resilie`), définitivement, sur un préavis
    /// (`reason` obligatoire ; `noticeOn`, aujourd'hui par défaut) : il couvre ses appareils
    /// jusqu'à la fin de la période en cours si le préavis est dans les temps
    /// (`noticeDeadline` du contrat), de la suivante sinon, ou jusqu'à `endsOn`, un jour
    /// antérieur convenu avec le client. Le dernier jour se lit ensuite dans `contrat`
    /// (`endsOn`). Refus 422 avec la raison en français.
    #[tool(
        name = "resilier_contrat",
        input_schema = args::schema::<TerminateArgs>(),
        annotations(read_only_hint = false, destructive_hint = true, idempotent_hint = false, open_world_hint = false)
    )]
    async fn terminate_contract(
        &self,
        arguments: JsonObject,
        Extension(parts): Extension<Parts>,
    ) -> ToolAnswer {
        answer(
            async {
                let caller = caller_of(&parts)?;
                let args: TerminateArgs = args::parse(arguments)?;
                let body = TerminationBody {
                    reason: args.reason,
                    notice_on: args.notice_on,
                    ends_on: args.ends_on,
                };
                contracts::contract_act(
                    &self.state,
                    &caller,
                    &args.id,
                    ContractAction::Terminate,
                    Some(body),
                )
                .await
            }
            .await,
        )
    }

    /// L'aperçu de « Facturer les contrats » pour les jours `from` à `to` (un trimestre :
    /// du 1er janvier au 31 mars…) : `summary` (contrats, lignes `toCreate` à facturer,
    /// `alreadyInvoiced`, `missingIndex`, `notYetDue`, totaux HT et TTC à facturer en euros)
    /// et une page de lignes, une par contrat et période : montant (prorata des premières et
    /// dernières périodes, prix révisés avec leur formule P = P0 × (I / I0)), lignes de la
    /// facture, état (`a_creer`, `deja_facture` avec sa facture, `indice_manquant` — saisir
    /// la valeur avec `enregistrer_indice` —, `terme_non_echu`, `client_archive`) et sa
    /// raison. Rien n'est écrit ; `facturer_contrats` crée ensuite les brouillons.
    #[tool(
        name = "apercu_facturation_contrats",
        input_schema = args::schema::<BillingPreviewArgs>(),
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn billing_preview(
        &self,
        arguments: JsonObject,
        Extension(parts): Extension<Parts>,
    ) -> ToolAnswer {
        answer(
            async {
                let caller = caller_of(&parts)?;
                let args: BillingPreviewArgs = args::parse(arguments)?;
                let query = PreviewQuery {
                    from: args.from,
                    to: args.to,
                    state: args.state,
                    paging: PageQuery {
                        limit: args.limit.map(|n| n.to_string()),
                        page: args.page.map(|n| n.to_string()),
                    },
                };
                contract_billing::billing_preview(&self.state, &caller, query).await
            }
            .await,
        )
    }

    /// Crée en une fois les factures en brouillon des lignes `a_creer` de l'aperçu pour les
    /// jours `from` à `to` : une par contrat et par période, jamais deux fois (relancé, ne
    /// crée que ce qui manque ; `created` 0 quand tout est déjà facturé). Réponse `{created,
    /// summary}`. Les brouillons s'émettent ensuite par `emettre_factures_contrats`.
    #[tool(
        name = "facturer_contrats",
        input_schema = args::schema::<BillingWindowBody>(),
        annotations(read_only_hint = false, destructive_hint = false, idempotent_hint = true, open_world_hint = false)
    )]
    async fn billing_drafts(
        &self,
        arguments: JsonObject,
        Extension(parts): Extension<Parts>,
    ) -> ToolAnswer {
        answer(
            async {
                let caller = caller_of(&parts)?;
                let body: BillingWindowBody = args::parse(arguments)?;
                contract_billing::billing_drafts(&self.state, &caller, body).await
            }
            .await,
        )
    }

    /// Émet le lot suivant (`limit`, 50 par défaut, 200 au plus) des factures en brouillon
    /// de la facturation des contrats des jours `from` à `to`, par numéro de contrat : chacune
    /// reçoit son numéro, définitivement. Réponse `{issued: [{id, number}], refused: [{id,
    /// error}], remaining}` : rappeler tant que `remaining` > 0 et qu'un lot émet.
    #[tool(
        name = "emettre_factures_contrats",
        input_schema = args::schema::<IssueBatchBody>(),
        annotations(read_only_hint = false, destructive_hint = true, idempotent_hint = false, open_world_hint = false)
    )]
    async fn billing_issue(
        &self,
        arguments: JsonObject,
        Extension(parts): Extension<Parts>,
    ) -> ToolAnswer {
        answer(
            async {
                let caller = caller_of(&parts)?;
                let body: IssueBatchBody = args::parse(arguments)?;
                contract_billing::billing_issue(&self.state, &caller, body).await
            }
            .await,
        )
    }

    /// Les valeurs des indices de révision des prix saisies dans l'agence (`BT48`,
    /// `ICHT-IME`…), par indice puis du mois le plus récent au plus ancien : `[{index, month
    /// (AAAA-MM), value, recordedAt}]`. La révision annuelle d'un contrat lit la dernière
    /// valeur connue au jour de son anniversaire.
    #[tool(
        name = "indices",
        input_schema = args::schema::<IndexesArgs>(),
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn indexes(
        &self,
        arguments: JsonObject,
        Extension(parts): Extension<Parts>,
    ) -> ToolAnswer {
        answer(
            async {
                let caller = caller_of(&parts)?;
                let IndexesArgs { index } = args::parse(arguments)?;
                contracts::index_value_list(&self.state, &caller, index).await
            }
            .await,
        )
    }

    /// Enregistre la valeur publiée d'un indice pour un mois (`index` : `BT48`…, `month` :
    /// AAAA-MM, `value` : positive, quatre décimales au plus), ou la corrige si le mois en a
    /// déjà une. Réponse : la valeur enregistrée. Refus 422 avec la raison en français.
    #[tool(
        name = "enregistrer_indice",
        input_schema = args::schema::<IndexValueBody>(),
        annotations(read_only_hint = false, destructive_hint = false, idempotent_hint = true, open_world_hint = false)
    )]
    async fn record_index(
        &self,
        arguments: JsonObject,
        Extension(parts): Extension<Parts>,
    ) -> ToolAnswer {
        answer(
            async {
                let caller = caller_of(&parts)?;
                let body: IndexValueBody = args::parse(arguments)?;
                contracts::index_value_record(&self.state, &caller, body).await
            }
            .await,
        )
    }
}
