//! Imports of spreadsheets: `POST /api/v2/imports/files` (upload, with its
//! own body limit), `GET /api/v2/imports/{fileId}` (the file, the targets
//! with their fields and suggested mappings, where its check and import
//! stand), `POST /api/v2/imports/{fileId}/check` and
//! `POST /api/v2/imports/{fileId}/import`.

use axum::Json;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::StatusCode;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::extract::ApiPath;
use crate::api::json::ApiJson;
use crate::api::wire::imports::*;
use crate::auth::api_token::ApiCaller;
use crate::domain::id::ImportId;
use crate::error::{AppResult, ErrorBody};
use crate::services::imports::progress::RunKind;
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    let upload = OpenApiRouter::new()
        .routes(routes!(upload_file))
        .layer(DefaultBodyLimit::max(UPLOAD_BODY_MAX_BYTES));
    OpenApiRouter::new()
        .merge(upload)
        .routes(routes!(import_file))
        .routes(routes!(check_import))
        .routes(routes!(run_import))
}

/// Envoyer un fichier à importer.
///
/// Un fichier `.csv` ou `.xlsx` d'au plus 32 Mio (une fois décodé), en
/// base64. Un classeur xlsx est lu sur sa première feuille ; un CSV en UTF-8
/// (avec ou sans BOM), UTF-16 avec BOM ou Windows-1252, séparé par `;`, `,`
/// ou une tabulation (reconnu sur la ligne d'en-tête), valeurs entre
/// guillemets pouvant contenir des retours à la ligne. La première ligne non
/// vide est l'en-tête ; au plus 100 000 lignes de données et 200 colonnes.
/// Les cellules sont lues comme un tableur les montre : nombres sans `.0`
/// final (séparateur décimal : le point), dates `AAAA-MM-JJ`.
///
/// Rien n'est importé à cette étape : le fichier est gardé 24 heures pour
/// la vérification (`POST /imports/{fileId}/check`) et l'import
/// (`POST /imports/{fileId}/import`), puis supprimé.
#[utoipa::path(
    post,
    path = "/imports/files",
    tag = "Imports",
    request_body(content = UploadBody, description = "Le fichier, en base64"),
    responses(
        (status = 201, description = "Fichier lu et gardé 24 heures", body = UploadedFile,
            links(
                ("lireFichier" = (
                    operation_id = "import_file",
                    parameters(("fileId" = "$response.body#/fileId")),
                    description = "Le fichier, ses cibles et la correspondance proposée"
                )),
                ("verifierFichier" = (
                    operation_id = "check_import",
                    parameters(("fileId" = "$response.body#/fileId")),
                    description = "Vérifier l'import du fichier"
                ))
            )
        ),
        (status = 413, description = "Fichier de plus de 32 Mio, ou classeur .xlsx de plus de 256 Mio une fois décompressé", body = ErrorBody),
        (status = 422, description = "Extension autre que .csv ou .xlsx, contenu qui n'est pas du base64, fichier illisible, feuille vide (sans en-tête ou sans ligne de données), colonne sans nom ou en double, plus de 100 000 lignes ou de 200 colonnes", body = ErrorBody),
    )
)]
async fn upload_file(
    State(state): State<AppState>,
    caller: ApiCaller,
    UploadJson(body): UploadJson,
) -> AppResult<(StatusCode, Json<UploadedFile>)> {
    Ok((
        StatusCode::CREATED,
        Json(file_upload(&state, &caller, body).await?),
    ))
}

/// Lire un fichier envoyé et suivre son import.
///
/// Le fichier (nom, colonnes, lignes, expiration) et, suivis pendant qu'ils
/// tournent, sa vérification et son import en cours ou derniers : lignes
/// traitées sur le total, comptes, statut. Un assistant d'import peut
/// l'interroger toutes les secondes pendant `POST /imports/{fileId}/import`
/// pour afficher une barre de progression. Un fichier expiré répond 404.
#[utoipa::path(
    get,
    path = "/imports/{fileId}",
    tag = "Imports",
    params(("fileId" = String, Path, description = "Identifiant du fichier (`fileId` de l'envoi)")),
    responses(
        (status = 200, description = "Le fichier et son suivi", body = ImportFileView),
        (status = 404, description = "Fichier inconnu dans l'agence, ou expiré", body = ErrorBody),
    )
)]
async fn import_file(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(file_id): ApiPath<ImportId>,
) -> AppResult<Json<ImportFileView>> {
    Ok(Json(import_file_view(&state, &caller, file_id).await?))
}

/// Vérifier un fichier avant de l'importer.
///
/// Joue l'import entier dans une transaction annulée à la fin : rien n'est
/// écrit, et la réponse dit exactement ce que ferait l'import, ligne par
/// ligne (création, mise à jour avec les champs changés, ou refus avec ses
/// raisons en français, colonne nommée). Les règles sont celles du service :
/// identité d'équipement (`PATCH /equipment/{id}/identity`), données
/// techniques du catalogue (`PATCH /equipment/{id}`), clients et contacts de
/// l'API partenaire (`/update_client` : SIREN, SIRET, e-mail, statut,
/// catégories), contrats de `POST /contracts` (mêmes règles, mêmes phrases ;
/// un appareil dans une seule ligne du fichier, et sous aucun autre contrat
/// qui n'a pas pris fin, brouillon compris), valeurs d'indices de
/// `POST /price-indexes` (mêmes règles, mêmes phrases ; le mois d'un indice
/// dans une seule ligne du fichier). Une cellule vide ne change rien.
///
/// Correspondance : équipements retrouvés par numéro (espaces et casse
/// ignorés), sinon par `externalId` ; clients par `client_id`, sinon SIRET,
/// sinon SIREN, sinon nom ; contacts par client puis nom, sinon e-mail ;
/// chaque ligne de contrats crée un brouillon (client par `client_id` ou
/// nom, appareils par numéro) ; une valeur d'indice est retrouvée par son
/// indice et son mois (mois `AAAA-MM`, `MM/AAAA` ou « janvier 2026 »,
/// « janv. 2026 » ; valeur `128,5`) : déjà enregistrée, elle est corrigée.
///
/// Pendant la vérification, les autres écritures de l'agence attendent
/// qu'elle se termine ; son avancement se suit avec `GET /imports/{fileId}`.
#[utoipa::path(
    post,
    path = "/imports/{fileId}/check",
    tag = "Imports",
    params(("fileId" = String, Path, description = "Identifiant du fichier (`fileId` de l'envoi)")),
    request_body(content = RunBody, description = "La cible et la correspondance des colonnes"),
    responses(
        (status = 200, description = "Ce que ferait l'import, ligne par ligne", body = ImportReport),
        (status = 403, description = "Cible `contracts` ou `price_indexes` : le compte ne modifie rien (compte de service de l'opérateur)", body = ErrorBody),
        (status = 404, description = "Fichier inconnu dans l'agence, ou expiré", body = ErrorBody),
        (status = 409, description = "Une vérification ou un import de ce fichier est déjà en cours", body = ErrorBody),
        (status = 413, description = "Corps de requête trop volumineux", body = ErrorBody),
        (status = 422, description = "Cible inconnue ; correspondance qui nomme une colonne absente du fichier ou un champ inconnu, donne un champ à deux colonnes, ou n'associe pas les champs nécessaires à la cible", body = ErrorBody),
    )
)]
async fn check_import(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(file_id): ApiPath<ImportId>,
    ApiJson(body): ApiJson<RunBody>,
) -> AppResult<Json<ImportReport>> {
    Ok(Json(
        import_pass(&state, &caller, file_id, body, RunKind::Verification).await?,
    ))
}

/// Importer un fichier.
///
/// La même passe que la vérification, enregistrée en UNE transaction :
/// toutes les lignes acceptées sont écrites, ou aucune (une erreur, un arrêt
/// du serveur au milieu ne laissent rien à moitié écrit) ; les lignes
/// refusées sont rapportées avec leurs raisons. Importer de nouveau le même
/// fichier met à jour au lieu de dupliquer. Réservé à un administrateur de
/// l'agence. L'avancement (lignes traitées sur le total) se suit pendant
/// l'import avec `GET /imports/{fileId}` ; les autres écritures de l'agence
/// attendent qu'il se termine.
///
/// Cible `contracts` : tout ou rien. Tant qu'une ligne est refusée, rien
/// n'est importé (422, les lignes refusées nommées) ; sinon chaque ligne
/// crée un contrat en brouillon, que `POST /contracts/{id}/activate` met
/// en vigueur. Importer de nouveau le même fichier est refusé : ses
/// appareils sont déjà sous contrat.
///
/// Cible `price_indexes` : tout ou rien aussi. Chaque ligne enregistre la
/// valeur d'un indice pour un mois comme `POST /price-indexes` (même
/// journal) ; un mois déjà enregistré est corrigé (`mise_a_jour`, journal
/// `correction`), ou laissé tel quel s'il a déjà cette valeur.
#[utoipa::path(
    post,
    path = "/imports/{fileId}/import",
    tag = "Imports",
    params(("fileId" = String, Path, description = "Identifiant du fichier (`fileId` de l'envoi)")),
    request_body(content = RunBody, description = "La cible et la correspondance des colonnes"),
    responses(
        (status = 200, description = "Import enregistré : comptes et identifiants, ligne par ligne", body = ImportReport),
        (status = 403, description = "Réservé à un administrateur de l'agence (ou agence hors du périmètre)", body = ErrorBody),
        (status = 404, description = "Fichier inconnu dans l'agence, ou expiré", body = ErrorBody),
        (status = 409, description = "Une vérification ou un import de ce fichier est déjà en cours", body = ErrorBody),
        (status = 413, description = "Corps de requête trop volumineux", body = ErrorBody),
        (status = 422, description = "Cible inconnue ; correspondance qui nomme une colonne absente du fichier ou un champ inconnu, donne un champ à deux colonnes, ou n'associe pas les champs nécessaires à la cible ; cible `contracts` ou `price_indexes` dont une ligne au moins est refusée (rien n'est importé)", body = ErrorBody),
    )
)]
async fn run_import(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(file_id): ApiPath<ImportId>,
    ApiJson(body): ApiJson<RunBody>,
) -> AppResult<Json<ImportReport>> {
    Ok(Json(
        import_pass(&state, &caller, file_id, body, RunKind::Import).await?,
    ))
}
