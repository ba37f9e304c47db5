//! `/api/v2/contracts`: maintenance contracts (the draft, its read, its
//! life: activate, terminate, expire) and `/api/v2/price-indexes`: the
//! values of the price indexes their yearly revision reads. The rules are
//! in `services::contracts` and `domain::contract`.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::extract::{ApiPath, ApiQuery};
use crate::api::json::ApiJson;
use crate::api::pdf::{PdfBinary, PdfResponse};
use crate::api::wire::contracts::*;
use crate::api::wire::{Created, Page, PageQuery};
use crate::auth::api_token::ApiCaller;
use crate::domain::contract::ContractAction;
use crate::error::{AppResult, ErrorBody};
use crate::services::contracts as service;
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_contracts, create_contract))
        .routes(routes!(get_contract, replace_contract, delete_contract))
        .routes(routes!(get_contract_pdf))
        .routes(routes!(get_contract_response_times))
        .routes(routes!(get_contract_annual_report))
        .routes(routes!(activate_contract))
        .routes(routes!(terminate_contract))
        .routes(routes!(expire_contract))
        .routes(routes!(list_index_values, record_index_value))
}

fn created(created: Created) -> (StatusCode, Json<Created>) {
    (StatusCode::CREATED, Json(created))
}

/// Crée un contrat d'entretien au statut `brouillon`, numéroté
/// `CT-AAAA-NNNNN` dans l'agence : son client, ses appareils, sa durée et sa
/// reconduction, son prix annuel et sa facturation, sa révision par indice,
/// ses délais d'intervention. Un champ refusé est nommé dans la raison (422).
#[utoipa::path(
    post,
    path = "/contracts",
    tag = "Contrats",
    request_body = ContractBody,
    responses(
        (status = 201, description = "Contrat créé (brouillon)", body = Created,
            links(("GetContract" = (operation_id = "get_contract", parameters(("id" = "$response.body#/id")))), ("ActivateContract" = (operation_id = "activate_contract", parameters(("id" = "$response.body#/id")))))),
        (status = 413, description = "Corps trop volumineux", body = ErrorBody),
        (status = 422, description = "Saisie refusée : client ou appareil hors de l'agence, archivé ou d'un autre client ; durée, délai, prix, taux, indice ou date invalide", body = ErrorBody),
    )
)]
async fn create_contract(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiJson(body): ApiJson<ContractBody>,
) -> AppResult<(StatusCode, Json<Created>)> {
    contract_create(&state, &caller, body).await.map(created)
}

/// Un contrat de l'agence : ses appareils, ses dates (période en cours,
/// dernier jour de préavis, dernier jour couvert), son prix, ses
/// obligations périodiques, ses délais et les actions possibles.
#[utoipa::path(
    get,
    path = "/contracts/{id}",
    tag = "Contrats",
    params(("id" = String, Path, description = "Identifiant du contrat")),
    responses(
        (status = 200, description = "Le contrat", body = ContractView,
            links(("ActivateContract" = (operation_id = "activate_contract", parameters(("id" = "$response.body#/id")))), ("TerminateContract" = (operation_id = "terminate_contract", parameters(("id" = "$response.body#/id")))))),
        (status = 404, description = "Contrat introuvable dans l'agence", body = ErrorBody),
    )
)]
async fn get_contract(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(id): ApiPath<String>,
) -> AppResult<Json<ContractView>> {
    contract_read(&state, &caller, &id).await.map(Json)
}

/// Les délais d'intervention tenus par le contrat sur une période : chaque
/// appel reçu sur l'un de ses appareils pendant qu'il les couvrait, avec ses
/// échéances (arrivée, remise en service ; personne bloquée d'abord, à toute
/// heure ; hors heures ouvrées non couvertes, à la reprise), ses retards et
/// la pénalité prévue par heure de retard commencée, puis les totaux.
#[utoipa::path(
    get,
    path = "/contracts/{id}/response-times",
    tag = "Contrats",
    params(("id" = String, Path, description = "Identifiant du contrat"), ResponseQuery),
    responses(
        (status = 200, description = "Le rapport des délais", body = ResponseReportOut),
        (status = 400, description = "Paramètre manquant ou inconnu", body = ErrorBody),
        (status = 404, description = "Contrat introuvable dans l'agence", body = ErrorBody),
        (status = 422, description = "Jour invalide, période à l'envers ou de plus de 366 jours", body = ErrorBody),
    )
)]
async fn get_contract_response_times(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(id): ApiPath<String>,
    ApiQuery(query): ApiQuery<ResponseQuery>,
) -> AppResult<Json<ResponseReportOut>> {
    response_report(&state, &caller, &id, query).await.map(Json)
}

/// Le contrat en PDF : les parties, les appareils et les clauses du
/// contrat (objet, prestations obligatoires de l'article R134-2 du Code de
/// la construction et de l'habitation, étendue, délais d'intervention,
/// pénalités, durée, reconduction et résiliation, prix, facturation et
/// révision, obligations du client), puis deux cadres de signature ;
/// « Projet de contrat » tant qu'il est en brouillon. Fichier
/// `<numéro>.pdf`, affiché dans le navigateur.
#[utoipa::path(
    get,
    path = "/contracts/{id}/pdf",
    tag = "Contrats",
    params(("id" = String, Path, description = "Identifiant du contrat")),
    responses(
        (status = 200, description = "Le document PDF", content_type = "application/pdf", body = PdfBinary,
            headers(("Content-Disposition" = String, description = "`inline; filename=\"CT-2027-00001.pdf\"`"))),
        (status = 404, description = "Contrat introuvable dans l'agence", body = ErrorBody),
    )
)]
async fn get_contract_pdf(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(id): ApiPath<String>,
) -> AppResult<PdfResponse> {
    contract_pdf_file(&state, &caller, &id)
        .await
        .map(PdfResponse)
}

/// Le rapport annuel que le contrat doit au propriétaire, en PDF : pour
/// chaque appareil, les visites d'entretien faites (dates), les
/// obligations périodiques faites (câbles, parachute, nettoyage), les
/// pannes avec leur cause et leur durée, et le taux de disponibilité sur la
/// partie de l'année couverte. Fichier `rapport-<numéro>-<année>.pdf`.
#[utoipa::path(
    get,
    path = "/contracts/{id}/annual-report",
    tag = "Contrats",
    params(("id" = String, Path, description = "Identifiant du contrat"), AnnualReportQuery),
    responses(
        (status = 200, description = "Le rapport annuel en PDF", content_type = "application/pdf", body = PdfBinary,
            headers(("Content-Disposition" = String, description = "`inline; filename=\"rapport-CT-2027-00001-2027.pdf\"`"))),
        (status = 400, description = "Paramètre inconnu", body = ErrorBody),
        (status = 404, description = "Contrat introuvable dans l'agence", body = ErrorBody),
        (status = 422, description = "Année invalide, ou que le contrat ne couvrait pas", body = ErrorBody),
    )
)]
async fn get_contract_annual_report(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(id): ApiPath<String>,
    ApiQuery(query): ApiQuery<AnnualReportQuery>,
) -> AppResult<PdfResponse> {
    annual_report_file(&state, &caller, &id, query)
        .await
        .map(PdfResponse)
}

/// Remplace ce que dit un contrat en brouillon (tous les champs sont
/// redonnés, comme à la création). Un contrat en vigueur ou terminé ne se
/// modifie plus (422) : ce que le client a signé reste tel quel.
#[utoipa::path(
    put,
    path = "/contracts/{id}",
    tag = "Contrats",
    params(("id" = String, Path, description = "Identifiant du contrat")),
    request_body = ContractBody,
    responses(
        (status = 200, description = "Le contrat modifié", body = ContractView),
        (status = 404, description = "Contrat introuvable dans l'agence", body = ErrorBody),
        (status = 413, description = "Corps trop volumineux", body = ErrorBody),
        (status = 422, description = "Contrat qui n'est plus un brouillon, ou saisie refusée", body = ErrorBody),
    )
)]
async fn replace_contract(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(id): ApiPath<String>,
    ApiJson(body): ApiJson<ContractBody>,
) -> AppResult<Json<ContractView>> {
    contract_replace(&state, &caller, &id, body).await.map(Json)
}

/// Supprime un contrat en brouillon (jamais signé). Un contrat en vigueur
/// se résilie ; un contrat terminé reste (422).
#[utoipa::path(
    delete,
    path = "/contracts/{id}",
    tag = "Contrats",
    params(("id" = String, Path, description = "Identifiant du contrat")),
    responses(
        (status = 204, description = "Brouillon supprimé"),
        (status = 404, description = "Contrat introuvable dans l'agence", body = ErrorBody),
        (status = 422, description = "Contrat qui n'est plus un brouillon", body = ErrorBody),
    )
)]
async fn delete_contract(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(id): ApiPath<String>,
) -> AppResult<StatusCode> {
    contract_delete(&state, &caller, &id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Met en vigueur un brouillon (`brouillon` → `actif`). Chaque appareil doit
/// être non archivé et sous aucun autre contrat à partir du début de
/// celui-ci (409 sinon : un autre contrat actif, ou résilié mais couvrant
/// encore l'appareil). Les appareils prennent le numéro du contrat
/// (`contractNumber`, `maintenanceContract` = `parc`) et son intervalle de
/// visites, que le plan d'entretien suit.
#[utoipa::path(
    post,
    path = "/contracts/{id}/activate",
    tag = "Contrats",
    params(("id" = String, Path, description = "Identifiant du contrat")),
    responses(
        (status = 201, description = "Contrat en vigueur", body = Created,
            links(("GetContract" = (operation_id = "get_contract", parameters(("id" = "$response.body#/id")))))),
        (status = 404, description = "Contrat introuvable dans l'agence", body = ErrorBody),
        (status = 409, description = "Un appareil est déjà couvert par un autre contrat", body = ErrorBody),
        (status = 422, description = "Transition refusée par le statut, ou appareil archivé", body = ErrorBody),
    )
)]
async fn activate_contract(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(id): ApiPath<String>,
) -> AppResult<(StatusCode, Json<Created>)> {
    contract_act(&state, &caller, &id, ContractAction::Activate, None)
        .await
        .map(created)
}

/// Résilie un contrat en vigueur (`actif` → `resilie`) sur un préavis : il
/// couvre ses appareils, et se facture, jusqu'à son dernier jour (`endsOn`
/// de la réponse de `GET`) : la fin de la période en cours si le préavis
/// est donné au plus tard `noticeMonths` mois avant elle, la fin de la
/// suivante sinon, ou un jour antérieur convenu avec le client.
#[utoipa::path(
    post,
    path = "/contracts/{id}/terminate",
    tag = "Contrats",
    params(("id" = String, Path, description = "Identifiant du contrat")),
    request_body = TerminationBody,
    responses(
        (status = 201, description = "Contrat résilié", body = Created,
            links(("GetContract" = (operation_id = "get_contract", parameters(("id" = "$response.body#/id")))))),
        (status = 404, description = "Contrat introuvable dans l'agence", body = ErrorBody),
        (status = 413, description = "Corps trop volumineux", body = ErrorBody),
        (status = 422, description = "Transition refusée par le statut ; motif manquant ; préavis dans le futur ; dernier jour avant le préavis ou le début, ou après la fin que le préavis donne", body = ErrorBody),
    )
)]
async fn terminate_contract(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(id): ApiPath<String>,
    ApiJson(body): ApiJson<TerminationBody>,
) -> AppResult<(StatusCode, Json<Created>)> {
    contract_act(&state, &caller, &id, ContractAction::Terminate, Some(body))
        .await
        .map(created)
}

/// Constate l'échéance d'un contrat sans reconduction tacite dont la
/// période est passée (`actif` → `echu`). Un contrat reconduit tacitement
/// ne prend fin que par une résiliation (422).
#[utoipa::path(
    post,
    path = "/contracts/{id}/expire",
    tag = "Contrats",
    params(("id" = String, Path, description = "Identifiant du contrat")),
    responses(
        (status = 201, description = "Contrat échu", body = Created,
            links(("GetContract" = (operation_id = "get_contract", parameters(("id" = "$response.body#/id")))))),
        (status = 404, description = "Contrat introuvable dans l'agence", body = ErrorBody),
        (status = 422, description = "Transition refusée par le statut ; contrat reconduit tacitement ou qui court encore", body = ErrorBody),
    )
)]
async fn expire_contract(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(id): ApiPath<String>,
) -> AppResult<(StatusCode, Json<Created>)> {
    contract_act(&state, &caller, &id, ContractAction::Expire, None)
        .await
        .map(created)
}

/// Filtres et pagination de la liste des contrats.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct ContractQuery {
    /// Statut : `brouillon`, `actif`, `resilie` ou `echu` (autre valeur : 422).
    #[param(inline, value_type = Option<ContractStatusCode>)]
    pub status: Option<String>,
    /// Le client (`client_id`).
    pub client_id: Option<String>,
    /// Un appareil couvert (son identifiant).
    pub equipment_id: Option<String>,
    /// Un fragment du numéro du contrat ou du nom du client, sans tenir
    /// compte de la casse (100 caractères au plus).
    #[param(max_length = 100)]
    pub q: Option<String>,
    /// Lignes par page, de 1 à 200 (50 par défaut).
    #[param(value_type = Option<i64>, minimum = 1, maximum = 200)]
    pub limit: Option<String>,
    /// Page demandée, à partir de 1.
    #[param(value_type = Option<i64>, minimum = 1, maximum = 4294967295_i64)]
    pub page: Option<String>,
}

/// Les contrats de l'agence, du numéro le plus récent au plus ancien,
/// filtrés par statut, client, appareil ou texte, paginés ; chacun avec sa
/// période en cours et son dernier jour de préavis.
#[utoipa::path(
    get,
    path = "/contracts",
    tag = "Contrats",
    params(ContractQuery),
    responses(
        (status = 200, description = "Une page de contrats", body = Page<ContractListEntry>,
            links(("GetContract" = (operation_id = "get_contract", parameters(("id" = "$response.body#/results/0/id")))))),
        (status = 400, description = "Recherche trop longue", body = ErrorBody),
        (status = 422, description = "Statut inconnu, `limit` ou `page` hors bornes", body = ErrorBody),
    )
)]
async fn list_contracts(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiQuery(query): ApiQuery<ContractQuery>,
) -> AppResult<Page<ContractListEntry>> {
    let filter = service::ListInput {
        status: query.status,
        client_id: query.client_id,
        equipment_id: query.equipment_id,
        q: query.q,
    };
    let paging = PageQuery {
        limit: query.limit,
        page: query.page,
    };
    contract_list(&state, &caller, filter, paging).await
}

/// Filtre des valeurs d'indices.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct IndexQuery {
    /// Un indice seulement (`BT48`…) : lettres, chiffres, `-`, `_` ou `.`
    /// (autre caractère : 422).
    #[param(max_length = 30, pattern = "^[A-Za-z0-9._-]*$")]
    pub index: Option<String>,
}

/// Les valeurs des indices de révision saisies dans l'agence, par indice
/// puis du mois le plus récent au plus ancien.
#[utoipa::path(
    get,
    path = "/price-indexes",
    tag = "Contrats",
    params(IndexQuery),
    responses(
        (status = 200, description = "Les valeurs", body = Vec<IndexValueView>),
        (status = 422, description = "Code d'indice invalide", body = ErrorBody),
    )
)]
async fn list_index_values(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiQuery(query): ApiQuery<IndexQuery>,
) -> AppResult<Json<Vec<IndexValueView>>> {
    index_value_list(&state, &caller, query.index)
        .await
        .map(Json)
}

/// Enregistre la valeur d'un indice pour un mois (publiée par l'INSEE :
/// `BT48`, `ICHT-IME`…), ou la corrige. La révision annuelle d'un contrat
/// lit la dernière valeur connue au jour de son anniversaire.
#[utoipa::path(
    post,
    path = "/price-indexes",
    tag = "Contrats",
    request_body = IndexValueBody,
    responses(
        (status = 201, description = "Valeur enregistrée", body = IndexValueView),
        (status = 413, description = "Corps trop volumineux", body = ErrorBody),
        (status = 422, description = "Code d'indice, mois ou valeur invalide", body = ErrorBody),
    )
)]
async fn record_index_value(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiJson(body): ApiJson<IndexValueBody>,
) -> AppResult<(StatusCode, Json<IndexValueView>)> {
    index_value_record(&state, &caller, body)
        .await
        .map(|view| (StatusCode::CREATED, Json(view)))
}
