//! Quotes, invoices and clients: "which invoices of client X are unpaid?",
//! "open a quote for the door rollers on that lift".
//!
//! Each tool calls the function its REST operation calls
//! (`api::wire::{clients, invoices, quotes}`). Arguments carry the REST names
//! and are read by the REST body reader (`api::json::parse_json`), so a
//! missing, mistyped or unknown argument is the REST API's 422 with its
//! French reason, as a tool error, rather than a protocol error.

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
use crate::api::wire::clients::{self, ClientListQuery};
use crate::api::wire::invoices::{self, CreditNoteBody, InvoiceBody, LineBody, PaymentBody};
use crate::api::wire::mail::{self, SendBody};
use crate::api::wire::quotes::{self, QuoteBody};
use crate::domain::id::InvoiceId;
use crate::domain::quote::QuoteAction;
use crate::services::invoices::ListInput;

/// An integer argument handed to the REST paging as its query text, so that
/// `20`, `20.0` and `0` get exactly the REST answers (200, 400, 422).
fn query_text(number: Option<serde_json::Number>) -> Option<String> {
    number.map(|n| n.to_string())
}

/// The identifier of the record a tool reads or moves.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct QuoteId {
    /// Identifiant (UUID) du devis : l'`id` rendu par `creer_devis`, ou
    /// `quote.id` d'une facture lue par `facture`.
    #[schemars(length(min = 1))]
    id: String,
}

/// A document to send: by e-mail to contacts of its client, or marked sent.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct SendArg {
    /// Identifiant (UUID) du devis, de la facture ou de l'avoir.
    #[schemars(length(min = 1))]
    id: String,
    /// Contacts du client (leurs `id`, 20 au plus, chacun avec une adresse
    /// e-mail) à qui envoyer le document par e-mail, PDF joint, depuis
    /// l'adresse de l'agence. Absent ou vide : l'envoi est fait par un autre
    /// moyen, seul le statut change.
    #[serde(default)]
    contact_ids: Vec<String>,
    /// Objet du message ; par défaut « Facture F-… — <agence> ».
    subject: Option<String>,
    /// Texte du message ; par défaut un texte en français signé par l'agence.
    message: Option<String>,
}

impl SendArg {
    fn into_parts(self) -> (String, SendBody) {
        (
            self.id,
            SendBody {
                contact_ids: self.contact_ids,
                subject: self.subject,
                message: self.message,
            },
        )
    }
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct InvoiceArg {
    /// Identifiant (UUID) de la facture ou de l'avoir : l'`id` d'une ligne de
    /// `factures`, ou celui rendu par `creer_facture` / `creer_avoir`.
    #[schemars(length(min = 1))]
    id: String,
}

/// `clients`: the arguments of `GET /clients`.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct ClientsArgs {
    /// Mots cherchés (100 caractères au plus) : chacun doit figurer, accents
    /// et casse ignorés, dans le nom, l'e-mail, l'identifiant, le SIREN ou le
    /// SIRET. Absent : tous les clients.
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

/// One status, as the REST `status` parameter, or several (any of them).
#[derive(Deserialize)]
#[serde(untagged)]
enum Statuses {
    One(String),
    Several(Vec<String>),
}

impl Statuses {
    fn into_vec(self) -> Vec<String> {
        match self {
            Statuses::One(status) => vec![status],
            Statuses::Several(statuses) => statuses,
        }
    }
}

fn statuses_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({
        "description": "Statut : `brouillon`, `emise`, `envoyee` ou `payee`, ou une liste de statuts (l'un ou l'autre). Impayé : [\"emise\", \"envoyee\"]. Liste vide ou absent : tous les statuts.",
        "anyOf": [
            { "type": "string", "enum": ["brouillon", "emise", "envoyee", "payee"] },
            {
                "type": "array",
                "items": { "type": "string", "enum": ["brouillon", "emise", "envoyee", "payee"] },
                "uniqueItems": true
            }
        ]
    })
}

/// `factures`: the arguments of `GET /invoices`, `status` possibly a list.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct InvoicesArgs {
    /// Client facturé : l'`id` d'une ligne de l'outil `clients` (identifiant
    /// `client_id`, par ex. « CLI-000105 »). Un identifiant inconnu donne une
    /// liste vide.
    #[serde(default)]
    client: Option<String>,
    #[serde(default)]
    #[schemars(schema_with = "statuses_schema")]
    status: Option<Statuses>,
    /// Créées à partir de ce jour inclus (AAAA-MM-JJ).
    #[serde(default)]
    #[schemars(extend("format" = "date"))]
    since: Option<String>,
    /// Créées jusqu'à ce jour inclus (AAAA-MM-JJ).
    #[serde(default)]
    #[schemars(extend("format" = "date"))]
    until: Option<String>,
    /// Lignes par page, de 1 à 200 (50 par défaut).
    #[serde(default)]
    #[schemars(with = "Option<i64>", range(min = 1, max = 200))]
    limit: Option<serde_json::Number>,
    /// Page demandée, à partir de 1.
    #[serde(default)]
    #[schemars(with = "Option<i64>", range(min = 1))]
    page: Option<serde_json::Number>,
}

/// `enregistrer_reglement`: the invoice and the body of `POST /invoices/{id}/payment`.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct PaymentArgs {
    /// Identifiant (UUID) de la facture ou de l'avoir (outil `factures`).
    #[schemars(length(min = 1))]
    id: String,
    /// Jour du règlement (AAAA-MM-JJ) ; aujourd'hui par défaut. Ni avant
    /// l'émission, ni dans le futur.
    #[serde(default)]
    #[schemars(extend("format" = "date"))]
    paid_on: Option<String>,
    /// Montant réglé en euros, au plus le reste à payer ; absent : tout le reste.
    #[serde(default)]
    #[schemars(extend("exclusiveMinimum" = 0))]
    amount: Option<f64>,
    /// Mode de règlement.
    #[serde(default)]
    #[schemars(extend("enum" = ["virement", "cheque", "prelevement", "especes", "carte", null]))]
    method: Option<String>,
    /// Référence (numéro de chèque, libellé du virement), 100 caractères au plus.
    #[serde(default)]
    #[schemars(length(max = 100))]
    reference: Option<String>,
}

/// `creer_avoir`: the invoice and the body of `POST /invoices/{id}/credit-notes`.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct CreditNoteArgs {
    /// Identifiant (UUID) de la facture émise à créditer (outil `factures`).
    #[schemars(length(min = 1))]
    id: String,
    /// Lignes à créditer (avoir partiel), mêmes règles que les lignes de
    /// facture, à des taux de TVA présents sur la facture ; absentes : tout ce
    /// qui reste à créditer.
    #[serde(default)]
    #[schemars(length(min = 1, max = 200))]
    lines: Option<Vec<LineBody>>,
}

#[tool_router(router = billing_tools, vis = "pub(in crate::api::mcp)")]
impl LiftdeskMcp {
    /// Cherche les clients de l'agence (syndics, bailleurs, sociétés…) par nom, e-mail,
    /// identifiant, SIREN ou SIRET : chaque mot de `q` doit figurer, accents et casse ignorés
    /// (« dupont syndic » trouve « Syndic Dupont »). À appeler d'abord pour transformer « le
    /// client X » en son identifiant `id`, que prennent `factures` (argument `client`),
    /// `creer_facture` (`clientId`) et `creer_contact` (`parentId`). Réponse paginée `{total, page, limit, results}`, par ordre
    /// alphabétique ; chaque client : `id`, `name`, `status` (`Prospect` ou `Client`), `siren`,
    /// `email`, `phone`, `archived` (un client archivé est listé mais ne peut plus être
    /// facturé), `link`, `url`. Plusieurs résultats : demander lequel, ou affiner `q`.
    #[tool(
        name = "clients",
        input_schema = args::schema::<ClientsArgs>(),
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn clients(
        &self,
        arguments: JsonObject,
        Extension(parts): Extension<Parts>,
    ) -> ToolAnswer {
        answer(
            async {
                let caller = caller_of(&parts)?;
                let args: ClientsArgs = args::parse(arguments)?;
                let query = ClientListQuery {
                    q: args.q,
                    limit: query_text(args.limit),
                    page: query_text(args.page),
                };
                clients::client_list(&self.state, &caller, query).await
            }
            .await,
        )
    }

    /// Les factures et avoirs de l'agence, des plus récents aux plus anciens, filtrés et
    /// paginés : `{total, page, limit, results}` (`total` compte toutes les pages). Pour « les
    /// factures impayées du client X » : l'identifiant du client par l'outil `clients`, puis
    /// `client` = cet identifiant et `status` = ["emise", "envoyee"]. Statuts : `brouillon` (en
    /// préparation, sans numéro, pas encore due), `emise` (numérotée, due, pas encore envoyée),
    /// `envoyee` (envoyée au client, en attente de règlement), `payee` (réglée, close) ; impayé
    /// = `emise` ou `envoyee`, et une échéance `dueOn` passée signale un retard. `nature` :
    /// `facture`, ou `avoir` (annule tout ou partie d'une facture : ce n'est pas une somme due
    /// par le client). Montants en euros (`totalExclTax` HT, `totalInclTax` TTC), dates
    /// AAAA-MM-JJ ; `since`/`until` portent sur le jour de création. Détail d'une pièce
    /// (lignes, TVA, avoirs, devis) : `facture`.
    #[tool(
        name = "factures",
        input_schema = args::schema::<InvoicesArgs>(),
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn invoices(
        &self,
        arguments: JsonObject,
        Extension(parts): Extension<Parts>,
    ) -> ToolAnswer {
        answer(
            async {
                let caller = caller_of(&parts)?;
                let args: InvoicesArgs = args::parse(arguments)?;
                let filter = ListInput {
                    client: args.client,
                    statuses: args.status.map(Statuses::into_vec).unwrap_or_default(),
                    since: args.since,
                    until: args.until,
                    overdue: false,
                    ..ListInput::default()
                };
                let paging = PageQuery {
                    limit: query_text(args.limit),
                    page: query_text(args.page),
                };
                invoices::invoice_list(&self.state, &caller, filter, paging).await
            }
            .await,
        )
    }

    /// Une facture ou un avoir de l'agence par son identifiant (UUID, l'`id` d'une ligne de
    /// `factures`) : statut et son libellé, client, acheteur (nom, adresse, SIREN), dates
    /// (AAAA-MM-JJ : création, émission, échéance, règlement), lignes, TVA par taux, totaux HT
    /// et TTC en euros, facture créditée (pour un avoir), avoirs (pour une facture), devis
    /// facturé. Hors de l'agence ou inconnu : erreur 404 « Facture introuvable. ».
    #[tool(
        name = "facture",
        input_schema = args::schema::<InvoiceArg>(),
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn invoice(
        &self,
        arguments: JsonObject,
        Extension(parts): Extension<Parts>,
    ) -> ToolAnswer {
        answer(
            async {
                let caller = caller_of(&parts)?;
                let InvoiceArg { id } = args::parse(arguments)?;
                invoices::invoice_read(&self.state, &caller, &InvoiceId::new(id)).await
            }
            .await,
        )
    }

    /// La facture électronique d'une facture ou d'un avoir émis (UUID, l'`id` d'une ligne de
    /// `factures`) : `{fileName, xml}`, le XML CII (UN/CEFACT D16B) au profil Factur-X EN 16931
    /// avec les règles françaises de la réforme, celui que porte le PDF de la pièce
    /// (`factur-x.xml`), à transmettre à la plateforme agréée de l'agence. Un brouillon n'en a
    /// pas : erreur 409. Hors de l'agence ou inconnu : erreur 404 « Facture introuvable. ».
    #[tool(
        name = "facture_electronique",
        input_schema = args::schema::<InvoiceArg>(),
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn invoice_facturx(
        &self,
        arguments: JsonObject,
        Extension(parts): Extension<Parts>,
    ) -> ToolAnswer {
        answer(
            async {
                let caller = caller_of(&parts)?;
                let InvoiceArg { id } = args::parse(arguments)?;
                invoices::invoice_facturx_file(&self.state, &caller, &InvoiceId::new(id)).await
            }
            .await,
        )
    }

    /// Crée une facture au statut `brouillon` (sans numéro) pour un client de l'agence.
    /// `clientId` : l'`id` du client donné par `clients` (un client archivé est refusé). Puis
    /// `lines` (1 à 200 lignes `{label, quantity, unitPrice, vatRate}`, mêmes règles que les
    /// lignes de `creer_devis`), ou `quoteId` (un devis accepté, dont les lignes sont reprises),
    /// ou les deux (les lignes données, le devis seulement lié : acompte, facture partielle).
    /// Réponse `{id, ok, link, url}` de la facture ; elle reçoit son numéro à l'émission
    /// (`emettre_facture`). Un refus (422) donne la raison en français ; rien n'est créé.
    #[tool(
        name = "creer_facture",
        input_schema = args::schema::<InvoiceBody>(),
        annotations(read_only_hint = false, destructive_hint = false, open_world_hint = false)
    )]
    async fn create_invoice(
        &self,
        arguments: JsonObject,
        Extension(parts): Extension<Parts>,
    ) -> ToolAnswer {
        answer(
            async {
                let caller = caller_of(&parts)?;
                let body: InvoiceBody = args::parse(arguments)?;
                invoices::invoice_create(&self.state, &caller, body).await
            }
            .await,
        )
    }

    /// Émet une facture ou un avoir brouillon (`brouillon` → `emise`) : numéro définitif
    /// (`FA-AAAA-NNNNNN`, `AV-AAAA-NNNNNN`, sans trou), émission aujourd'hui, échéance à 30
    /// jours, acheteur figé. Irréversible : une pièce émise ne se modifie plus et se corrige
    /// par un avoir (`creer_avoir`). Refus 422 si la pièce n'est pas un brouillon.
    #[tool(
        name = "emettre_facture",
        input_schema = args::schema::<InvoiceArg>(),
        annotations(read_only_hint = false, destructive_hint = true, idempotent_hint = false, open_world_hint = false)
    )]
    async fn issue_invoice(
        &self,
        arguments: JsonObject,
        Extension(parts): Extension<Parts>,
    ) -> ToolAnswer {
        answer(
            async {
                let caller = caller_of(&parts)?;
                let InvoiceArg { id } = args::parse(arguments)?;
                invoices::invoice_issue(&self.state, &caller, &InvoiceId::new(id)).await
            }
            .await,
        )
    }

    /// Envoie une facture ou un avoir émis au client (`emise` → `envoyee`) ; sur une pièce
    /// déjà envoyée, c'est une relance (statut inchangé). Avec `contactIds`, la pièce part par
    /// e-mail, PDF joint, aux contacts choisis du client (`mail` dans la réponse : statut du
    /// message après son premier essai) ; sans, l'envoi est fait par un autre moyen. Un
    /// brouillon doit d'abord être émis (`emettre_facture`) : sinon refus 422.
    #[tool(
        name = "envoyer_facture",
        input_schema = args::schema::<SendArg>(),
        annotations(read_only_hint = false, destructive_hint = false, open_world_hint = false)
    )]
    async fn send_invoice(
        &self,
        arguments: JsonObject,
        Extension(parts): Extension<Parts>,
    ) -> ToolAnswer {
        answer(
            async {
                let caller = caller_of(&parts)?;
                let (id, body) = args::parse::<SendArg>(arguments)?.into_parts();
                mail::invoice_send(&self.state, &caller, &InvoiceId::new(id), Some(body)).await
            }
            .await,
        )
    }

    /// Enregistre un règlement, complet ou partiel, d'une facture émise ou envoyée (pour un
    /// avoir : un remboursement). `amount` : montant en euros, au plus le reste à payer (total
    /// TTC − avoirs émis − règlements déjà reçus, `balance` de l'outil `facture`) ; absent :
    /// tout le reste. `paidOn` : jour du règlement (AAAA-MM-JJ), aujourd'hui par défaut, ni
    /// avant l'émission ni dans le futur. `method` : `virement`, `cheque`, `prelevement`,
    /// `especes` ou `carte` ; `reference` : numéro de chèque, libellé du virement. La pièce
    /// passe à `payee` (définitif ; « Soldé » pour un avoir) quand il ne reste rien à payer.
    /// Refus 422 pour un brouillon, une pièce soldée ou un montant au-delà du reste à payer.
    #[tool(
        name = "enregistrer_reglement",
        input_schema = args::schema::<PaymentArgs>(),
        annotations(read_only_hint = false, destructive_hint = true, idempotent_hint = false, open_world_hint = false)
    )]
    async fn record_payment(
        &self,
        arguments: JsonObject,
        Extension(parts): Extension<Parts>,
    ) -> ToolAnswer {
        answer(
            async {
                let caller = caller_of(&parts)?;
                let PaymentArgs {
                    id,
                    paid_on,
                    amount,
                    method,
                    reference,
                } = args::parse(arguments)?;
                let body = Some(PaymentBody {
                    paid_on,
                    amount,
                    method,
                    reference,
                });
                invoices::invoice_payment(&self.state, &caller, &InvoiceId::new(id), body).await
            }
            .await,
        )
    }

    /// Établit un avoir sur une facture émise, émis aussitôt avec son numéro `AV-…` : sans
    /// `lines`, pour tout ce qui reste à créditer ; avec `lines`, avoir partiel (lignes
    /// `{label, quantity, unitPrice, vatRate}` à des taux de TVA présents sur la facture).
    /// Réservé aux administrateurs (sinon 403). Refus 422 : facture brouillon, avoir, déjà
    /// entièrement créditée, montant au-delà du reste. Réponse : `{id, ok, link, url}` de
    /// l'avoir.
    #[tool(
        name = "creer_avoir",
        input_schema = args::schema::<CreditNoteArgs>(),
        annotations(read_only_hint = false, destructive_hint = true, idempotent_hint = false, open_world_hint = false)
    )]
    async fn create_credit_note(
        &self,
        arguments: JsonObject,
        Extension(parts): Extension<Parts>,
    ) -> ToolAnswer {
        answer(
            async {
                let caller = caller_of(&parts)?;
                let CreditNoteArgs { id, lines } = args::parse(arguments)?;
                let body = lines.map(|lines| CreditNoteBody { lines: Some(lines) });
                invoices::credit_note_create(&self.state, &caller, &InvoiceId::new(id), body).await
            }
            .await,
        )
    }

    /// Un devis de l'agence par son identifiant (UUID : l'`id` rendu par `creer_devis`, ou
    /// `quote.id` d'une facture) : numéro `DV-…`, statut (`brouillon`, `envoye`, `accepte`,
    /// `refuse`) et son libellé, origine, objet, équipement, lignes, TVA par taux, totaux HT et
    /// TTC en euros, dates d'envoi, d'acceptation et de refus (UTC). Aucun outil ne liste les
    /// devis. Hors de l'agence ou inconnu : erreur 404 « Devis introuvable. ».
    #[tool(
        name = "devis",
        input_schema = args::schema::<QuoteId>(),
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn quote(&self, arguments: JsonObject, Extension(parts): Extension<Parts>) -> ToolAnswer {
        answer(
            async {
                let caller = caller_of(&parts)?;
                let QuoteId { id } = args::parse(arguments)?;
                quotes::quote_read(&self.state, &caller, &id).await
            }
            .await,
        )
    }

    /// Ouvre un devis au statut `brouillon` sur un équipement de l'agence (« un devis pour les
    /// galets de porte de cet ascenseur »). `equipmentId` : l'identifiant (UUID) de
    /// l'équipement, donné par les outils d'équipement ou de planning (`equipmentId`).
    /// `origin` : `reserve` (réserve de contrôle technique), `panne`, `technicien` (demande du
    /// technicien) ou `client` (demande du client). `object` : l'objet en une phrase, 3 à 300
    /// caractères, sans retour à la ligne. `rows` : 1 à 200 lignes `{label, quantity,
    /// unitPrice, vatRate}` — `label` obligatoire ; `quantity` > 0, trois décimales au plus ;
    /// `unitPrice` prix unitaire HT en euros, ≥ 0, deux décimales au plus ; `vatRate` TVA en
    /// pour cent, 20 si absent, sinon 10, 5.5, 2.1 ou 0 ; une ligne de main-d'œuvre est une
    /// ligne comme une autre (heures × taux horaire). Réponse `{id, ok, link, url}` du devis,
    /// numéroté `DV-AAAA-NNNNN` (le lire avec `devis`). Un refus (422) donne la raison en
    /// français (« Ligne 2 : … ») et rien n'est créé.
    #[tool(
        name = "creer_devis",
        input_schema = args::schema::<QuoteBody>(),
        annotations(read_only_hint = false, destructive_hint = false, open_world_hint = false)
    )]
    async fn create_quote(
        &self,
        arguments: JsonObject,
        Extension(parts): Extension<Parts>,
    ) -> ToolAnswer {
        answer(
            async {
                let caller = caller_of(&parts)?;
                let body: QuoteBody = args::parse(arguments)?;
                quotes::quote_create(&self.state, &caller, body).await
            }
            .await,
        )
    }

    /// Envoie un devis au client (`brouillon` → `envoye`) ; sur un devis déjà envoyé, c'est
    /// une relance (date du premier envoi gardée). Avec `contactIds`, le devis part par
    /// e-mail, PDF joint, aux contacts choisis du client de l'appareil (`mail` dans la
    /// réponse) ; sans, l'envoi est fait par un autre moyen. Refus 422 pour un devis accepté
    /// ou refusé.
    #[tool(
        name = "envoyer_devis",
        input_schema = args::schema::<SendArg>(),
        annotations(read_only_hint = false, destructive_hint = false, open_world_hint = false)
    )]
    async fn send_quote(
        &self,
        arguments: JsonObject,
        Extension(parts): Extension<Parts>,
    ) -> ToolAnswer {
        answer(
            async {
                let caller = caller_of(&parts)?;
                let (id, body) = args::parse::<SendArg>(arguments)?.into_parts();
                mail::quote_send(&self.state, &caller, &id, Some(body)).await
            }
            .await,
        )
    }

    /// Enregistre l'acceptation du devis par le client (`brouillon` ou `envoye` → `accepte`),
    /// définitive ; l'événement `devis.accepte` part vers les abonnés. Un devis accepté peut
    /// ensuite être facturé (`creer_facture` avec `quoteId`). Refus 422 pour un devis déjà
    /// accepté ou refusé, et pour un devis expiré (`expired`) : le renouveler d'abord
    /// (`renouveler_devis`).
    #[tool(
        name = "accepter_devis",
        input_schema = args::schema::<QuoteId>(),
        annotations(read_only_hint = false, destructive_hint = true, idempotent_hint = false, open_world_hint = false)
    )]
    async fn accept_quote(
        &self,
        arguments: JsonObject,
        Extension(parts): Extension<Parts>,
    ) -> ToolAnswer {
        self.move_quote(arguments, &parts, QuoteAction::Accept)
            .await
    }

    /// Enregistre le refus du devis par le client (`brouillon` ou `envoye` → `refuse`),
    /// définitif : si le client se ravise, il faut un nouveau devis. Refus 422 pour un devis
    /// déjà accepté ou refusé.
    #[tool(
        name = "refuser_devis",
        input_schema = args::schema::<QuoteId>(),
        annotations(read_only_hint = false, destructive_hint = true, idempotent_hint = false, open_world_hint = false)
    )]
    async fn refuse_quote(
        &self,
        arguments: JsonObject,
        Extension(parts): Extension<Parts>,
    ) -> ToolAnswer {
        self.move_quote(arguments, &parts, QuoteAction::Refuse)
            .await
    }

    /// Renouvelle la validité d'un devis en attente de réponse (`brouillon` ou `envoye`) :
    /// son dernier jour de validité (`validUntil`) devient aujourd'hui + 30 jours, le statut
    /// ne change pas. Refus 422 pour un devis déjà accepté ou refusé.
    #[tool(
        name = "renouveler_devis",
        input_schema = args::schema::<QuoteId>(),
        annotations(read_only_hint = false, destructive_hint = false, idempotent_hint = true, open_world_hint = false)
    )]
    async fn renew_quote(
        &self,
        arguments: JsonObject,
        Extension(parts): Extension<Parts>,
    ) -> ToolAnswer {
        self.move_quote(arguments, &parts, QuoteAction::Renew).await
    }
}

impl LiftdeskMcp {
    async fn move_quote(
        &self,
        arguments: JsonObject,
        parts: &Parts,
        action: QuoteAction,
    ) -> ToolAnswer {
        answer(
            async {
                let caller = caller_of(parts)?;
                let QuoteId { id } = args::parse(arguments)?;
                quotes::quote_act(&self.state, &caller, &id, action).await
            }
            .await,
        )
    }
}
