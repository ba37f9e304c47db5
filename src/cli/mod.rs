//! The admin command line: `liftdesk [--data-dir DIR] COMMAND`. Every command
//! but `serve` prints one JSON object on stdout and exits 0; a refusal prints
//! a French error on stderr and exits non-zero.

mod usage;

use crate::domain::id::{AgencyId, CredentialId, OrganizationId};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use serde_json::{Value, json};

use crate::auth::rate_limit::RateLimit;
use crate::backup;
use crate::config;
use crate::demo::{self, DemoSize};
use crate::domain::identity::{IdentityField, IdentityInput};
use crate::logging;
use crate::network::{self, Network};
use crate::principal::Principal;
use crate::server;
use crate::services::installation;
use crate::state::AppState;
use crate::store::Database;
use crate::webhooks::{self, Probe, RetrySchedule, WebhookSettings};
use liftdesk_core::error::AppError;

/// A flag also settable from the environment: `1`, `true`, `oui`… or `0`.
fn parse_flag(text: &str) -> Result<bool, String> {
    if crate::webhooks::is_true(text) {
        Ok(true)
    } else if matches!(
        text.trim().to_lowercase().as_str(),
        "" | "0" | "false" | "no" | "non" | "off"
    ) {
        Ok(false)
    } else {
        Err(format!("« {text} » n'est ni 1 ni 0"))
    }
}

#[derive(Parser, Debug)]
#[command(
    name = "liftdesk",
    version,
    about = "Liftdesk : back-office de maintenance d'ascenseurs (administration et serveur)",
    disable_help_subcommand = true
)]
pub struct Cli {
    /// Dossier de données (la base est DIR/liftdesk.db) ; par défaut le dossier de données du système.
    #[arg(long, global = true, env = "LIFTDESK_DATA_DIR", value_name = "DIR")]
    pub data_dir: Option<PathBuf>,
    /// Base PostgreSQL partagée par les serveurs de l'agence (postgresql://utilisateur:motdepasse@hôte:port/base) ; sans elle, la base SQLite du dossier de données.
    #[arg(
        long,
        global = true,
        env = "LIFTDESK_DATABASE_URL",
        value_name = "URL",
        hide_env_values = true
    )]
    pub database: Option<String>,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Crée une organisation cliente, sa première agence et son administrateur.
    Init {
        /// Nom de l'organisation (la société de maintenance).
        #[arg(long, value_name = "NOM")]
        organization: String,
        /// Nom de sa première agence.
        #[arg(long, value_name = "NOM")]
        agency: String,
        /// Adresse e-mail de l'administrateur (son identifiant de connexion).
        #[arg(long, value_name = "EMAIL")]
        admin_email: String,
        /// Mot de passe de l'administrateur (8 caractères au moins).
        #[arg(long, value_name = "MOT_DE_PASSE")]
        admin_password: String,
        /// Nom affiché de l'administrateur (facultatif).
        #[arg(long, value_name = "NOM")]
        admin_name: Option<String>,
        /// SIRET de la première agence (14 chiffres), imprimé sur ses factures (facultatif).
        #[arg(long, value_name = "SIRET")]
        siret: Option<String>,
        /// Adresse postale de la première agence, imprimée sur ses factures (facultatif).
        #[arg(long, value_name = "ADRESSE")]
        address: Option<String>,
        /// Numéro de TVA intracommunautaire de la première agence (FR, clé,
        /// SIREN), exigé pour émettre une pièce qui facture de la TVA (facultatif).
        #[arg(long, value_name = "NUMÉRO")]
        vat_number: Option<String>,
    },
    /// Agences.
    Agency {
        #[command(subcommand)]
        action: AgencyAction,
    },
    /// Comptes du personnel.
    User {
        #[command(subcommand)]
        action: UserAction,
    },
    /// Compte de service de l'opérateur du service.
    Operator {
        #[command(subcommand)]
        action: OperatorAction,
    },
    /// Jetons d'API (svc_agent_…).
    Token {
        #[command(subcommand)]
        action: TokenAction,
    },
    /// Clés des centres d'appels (svc_…).
    CallCenterKey {
        #[command(subcommand)]
        action: CallCenterKeyAction,
    },
    /// Clés des partenaires (en-tête x-api-key).
    PartnerKey {
        #[command(subcommand)]
        action: PartnerKeyAction,
    },
    /// Installe une organisation de démonstration et affiche ses identifiants.
    Demo {
        /// « small » : une organisation de démonstration ; « large » : 50 000 appareils et 1 000 000 de factures (bancs d'essai).
        #[arg(long, value_enum, value_name = "TAILLE", default_value_t = SizeArg::Small)]
        size: SizeArg,
        /// Graine du tirage des données : la même graine donne les mêmes données.
        #[arg(long, value_name = "GRAINE", default_value_t = 1)]
        seed: u64,
    },
    /// Lance le serveur (API et interface web).
    Serve {
        /// Adresse d'écoute ; le port 0 prend un port libre.
        #[arg(long, value_name = "ADRESSE:PORT", default_value = config::DEFAULT_BIND)]
        bind: String,
        /// Sur un dossier de données vide, installe d'abord la démonstration.
        #[arg(long)]
        demo: bool,
        /// Adresse publique du serveur pour les liens `url` ; par défaut l'adresse d'écoute.
        #[arg(long, value_name = "URL", env = "LIFTDESK_PUBLIC_URL")]
        public_url: Option<String>,
        /// Appels par minute et par jeton ou clé, avec une rafale ; par défaut « 600/100 ».
        #[arg(long, value_name = "LIMITE", env = "LIFTDESK_RATE_LIMIT", value_parser = RateLimit::parse)]
        rate_limit: Option<RateLimit>,
        /// Accepte des destinataires de webhooks en http:// sur une adresse locale (127.0.0.1, ::1, localhost) : intégrations locales et tests ; sans valeur : 1.
        #[arg(long, value_name = "0_OU_1", env = "LIFTDESK_INSECURE_WEBHOOKS", value_parser = parse_flag, num_args = 0..=1, default_missing_value = "1", default_value = "0")]
        insecure_webhooks: bool,
        /// Délais des nouveaux essais d'un webhook en échec, puis abandon, en s, m, h ou d ; par défaut « 1m,5m,30m,2h,12h ».
        #[arg(long, value_name = "DELAIS", env = "LIFTDESK_WEBHOOK_RETRY_SCHEDULE", value_parser = RetrySchedule::parse)]
        webhook_retry_schedule: Option<RetrySchedule>,
        /// Durée pendant laquelle un envoi de webhook est réservé au serveur qui l'envoie ; passé ce délai (serveur arrêté en plein envoi), un autre serveur de la même base le reprend ; de 15 s à 1 h, par défaut « 1m ».
        #[arg(long, value_name = "DELAI", env = "LIFTDESK_WEBHOOK_CLAIM", value_parser = webhooks::parse_claim)]
        webhook_claim: Option<std::time::Duration>,
        /// Sonde de connectivité : « route », « off », « tcp://hôte:port » ou une adresse http(s):// ; par défaut « route ».
        #[arg(long, value_name = "SONDE", env = "LIFTDESK_CONNECTIVITY_PROBE", value_parser = Probe::parse)]
        connectivity_probe: Option<Probe>,
        /// Dossier des journaux (fichiers quotidiens, les 14 derniers gardés) ; par défaut, journaux sur la sortie d'erreur seulement.
        #[arg(long, env = "LIFTDESK_LOG_DIR", value_name = "DIR")]
        log_dir: Option<PathBuf>,
        /// Dossier des sauvegardes quotidiennes (les 14 dernières gardées) ; par défaut celui des réglages.
        #[arg(long, env = "LIFTDESK_BACKUP_DIR", value_name = "DIR")]
        backup_dir: Option<PathBuf>,
        /// Certificat TLS (PEM, chaîne complète) : le serveur parle HTTPS lui-même ; avec --tls-key.
        #[arg(
            long,
            env = "LIFTDESK_TLS_CERT",
            value_name = "FICHIER",
            requires = "tls_key"
        )]
        tls_cert: Option<PathBuf>,
        /// Clé privée du certificat TLS (PEM) ; avec --tls-cert.
        #[arg(
            long,
            env = "LIFTDESK_TLS_KEY",
            value_name = "FICHIER",
            requires = "tls_cert"
        )]
        tls_key: Option<PathBuf>,
        /// Adresses IP du proxy TLS placé devant le serveur (nginx, Caddy), séparées par des virgules : le serveur peut alors écouter sur le réseau en HTTP, ses cookies sont « Secure », et l'en-tête X-Forwarded-For n'est cru que de ces adresses.
        #[arg(long, env = "LIFTDESK_BEHIND_PROXY", value_name = "ADRESSES_IP", value_parser = network::parse_proxies)]
        behind_proxy: Option<network::Proxies>,
    },
    /// Sauvegarde la base dans un fichier (cohérente même serveur en marche ; pg_dump sur PostgreSQL).
    Backup {
        /// Fichier de sauvegarde à écrire.
        #[arg(long, value_name = "FICHIER")]
        to: PathBuf,
    },
    /// Restaure une sauvegarde (serveur arrêté) ; la base actuelle est mise de côté (pg_restore sur PostgreSQL).
    Restore {
        /// Fichier de sauvegarde à restaurer.
        #[arg(long, value_name = "FICHIER")]
        from: PathBuf,
    },
    /// Copie la base SQLite du dossier de données (aucun serveur dessus) dans une base PostgreSQL neuve : toutes les lignes, leurs identifiants, les compteurs, les webhooks en attente, le journal ; la numérotation continue sans trou.
    Migrate {
        /// Base PostgreSQL de destination (postgresql://UTILISATEUR:MOT_DE_PASSE@HÔTE:PORT/BASE), sans installation Liftdesk.
        #[arg(long, value_name = "URL")]
        to: String,
    },
}

#[derive(Subcommand, Debug)]
pub enum AgencyAction {
    /// Crée une agence dans une organisation.
    Create {
        /// Identifiant de l'organisation (donné par `liftdesk init`).
        #[arg(long, value_name = "ID")]
        organization: String,
        /// Nom de l'agence.
        #[arg(long, value_name = "NOM")]
        name: String,
        /// Identifiant de l'agence dans l'API v1, pour les intégrations qui le connaissent.
        #[arg(long = "v1-id", value_name = "ID")]
        v1_id: Option<String>,
    },
    /// Renomme une agence.
    Rename {
        /// Identifiant de l'agence.
        #[arg(long, value_name = "ID")]
        agency: String,
        /// Nouveau nom de l'agence.
        #[arg(long, value_name = "NOM")]
        name: String,
    },
    /// Archive une agence : elle sort du périmètre de tous les comptes, ses clés et abonnements webhook s'arrêtent ; son historique reste.
    Archive {
        /// Identifiant de l'agence.
        #[arg(long, value_name = "ID")]
        agency: String,
    },
    /// Réactive une agence archivée (ses clés et abonnements révoqués le restent).
    Restore {
        /// Identifiant de l'agence.
        #[arg(long, value_name = "ID")]
        agency: String,
    },
    /// Affiche l'identité de l'agence imprimée sur ses documents ; les champs donnés la modifient (une valeur vide efface).
    Identity {
        /// Identifiant de l'agence.
        #[arg(long, value_name = "ID")]
        agency: String,
        #[command(flatten)]
        fields: Box<IdentityArgs>,
    },
}

/// The identity's fields of `liftdesk agency identity`: each one given
/// replaces the recorded one (an empty text erases it).
#[derive(clap::Args, Debug)]
pub struct IdentityArgs {
    /// Raison sociale (par défaut le nom de l'organisation).
    #[arg(long, value_name = "TEXTE")]
    legal_name: Option<String>,
    /// Forme juridique (SAS, SARL…).
    #[arg(long, value_name = "TEXTE")]
    legal_form: Option<String>,
    /// Capital social en euros (50000 ou 50 000,50).
    #[arg(long, value_name = "MONTANT")]
    share_capital: Option<String>,
    /// Ville du registre du commerce (RCS).
    #[arg(long, value_name = "VILLE")]
    rcs_city: Option<String>,
    /// SIRET de l'agence (14 chiffres, clé vérifiée).
    #[arg(long, value_name = "SIRET")]
    siret: Option<String>,
    /// Numéro de TVA intracommunautaire (FR, clé, SIREN).
    #[arg(long, value_name = "NUMÉRO")]
    vat_number: Option<String>,
    /// Adresse du siège social : la rue (ou l'adresse entière sur une ligne,
    /// « 3 quai Saint-Antoine, 69002 Lyon », découpée s'il n'y a ni code
    /// postal ni ville).
    #[arg(long, value_name = "ADRESSE")]
    head_office_address: Option<String>,
    /// Complément d'adresse du siège social.
    #[arg(long, value_name = "COMPLÉMENT")]
    head_office_complement: Option<String>,
    /// Code postal du siège social (5 chiffres).
    #[arg(long, value_name = "CODE")]
    head_office_postal_code: Option<String>,
    /// Ville du siège social.
    #[arg(long, value_name = "VILLE")]
    head_office_city: Option<String>,
    /// Adresse postale de l'agence : la rue (ou l'adresse entière sur une
    /// ligne, découpée s'il n'y a ni code postal ni ville).
    #[arg(long, value_name = "ADRESSE")]
    address: Option<String>,
    /// Complément d'adresse de l'agence.
    #[arg(long, value_name = "COMPLÉMENT")]
    address_complement: Option<String>,
    /// Code postal de l'agence (5 chiffres).
    #[arg(long, value_name = "CODE")]
    postal_code: Option<String>,
    /// Ville de l'agence.
    #[arg(long, value_name = "VILLE")]
    city: Option<String>,
    /// Téléphone.
    #[arg(long, value_name = "NUMÉRO")]
    phone: Option<String>,
    /// Adresse e-mail de l'agence.
    #[arg(long, value_name = "EMAIL")]
    email: Option<String>,
    /// IBAN du compte où régler les factures.
    #[arg(long, value_name = "IBAN")]
    iban: Option<String>,
    /// BIC de la banque.
    #[arg(long, value_name = "BIC")]
    bic: Option<String>,
    /// Assureur de la responsabilité professionnelle (nom et adresse).
    #[arg(long, value_name = "TEXTE")]
    insurer: Option<String>,
    /// Numéro de police d'assurance.
    #[arg(long, value_name = "NUMÉRO")]
    insurance_policy: Option<String>,
    /// Couverture géographique de l'assurance.
    #[arg(long, value_name = "TEXTE")]
    insurance_area: Option<String>,
    /// Option pour le paiement de la TVA d'après les débits (1 ou 0).
    #[arg(long, value_name = "1|0", value_parser = parse_flag)]
    vat_on_debits: Option<bool>,
    /// Série de numérotation des factures de l'agence (1 à 6 lettres ou
    /// chiffres, « PO » : FA-PO-2026-000001), propre à l'agence dans
    /// l'organisation.
    #[arg(long, value_name = "SÉRIE")]
    invoice_series: Option<String>,
    /// Adresse de facturation électronique de l'agence dans l'annuaire
    /// (commence par son SIREN : 732829320_LYON) ; vide : son SIREN.
    #[arg(long, value_name = "ADRESSE")]
    electronic_address: Option<String>,
}

#[derive(Subcommand, Debug)]
pub enum UserAction {
    /// Crée un compte ; la première agence est l'agence par défaut.
    Create {
        /// Adresse e-mail (l'identifiant de connexion).
        #[arg(long, value_name = "EMAIL")]
        email: String,
        /// Nom affiché.
        #[arg(long, value_name = "NOM")]
        name: String,
        /// Mot de passe (8 caractères au moins).
        #[arg(long, value_name = "MOT_DE_PASSE")]
        password: String,
        /// Identifiant d'une agence du compte ; à répéter pour plusieurs agences.
        #[arg(long = "agency", value_name = "ID", required = true)]
        agencies: Vec<String>,
        /// Administrateur de ses agences.
        #[arg(long)]
        admin: bool,
        /// Réalise des relevés d'appareils.
        #[arg(long)]
        performs_surveys: bool,
        /// Crée aussi la fiche technicien.
        #[arg(long)]
        technician: bool,
    },
    /// Donne au compte un mot de passe provisoire, affiché une fois (il choisira le sien à sa prochaine connexion) ; ses sessions et jetons d'API prennent fin.
    ResetPassword {
        /// Adresse e-mail du compte.
        #[arg(long, value_name = "EMAIL")]
        email: String,
    },
}

#[derive(Subcommand, Debug)]
pub enum OperatorAction {
    /// Crée le compte de service de l'opérateur.
    Create {
        /// Adresse e-mail (l'identifiant de connexion).
        #[arg(long, value_name = "EMAIL")]
        email: String,
        /// Nom affiché.
        #[arg(long, value_name = "NOM")]
        name: String,
        /// Mot de passe (8 caractères au moins).
        #[arg(long, value_name = "MOT_DE_PASSE")]
        password: String,
    },
}

#[derive(Subcommand, Debug)]
pub enum TokenAction {
    /// Crée un jeton d'API, nommé d'après l'outil qui le recevra.
    Create {
        /// Adresse e-mail du compte dont le jeton prend les droits.
        #[arg(long, value_name = "EMAIL")]
        email: String,
        /// Nom du jeton : l'outil qui le recevra.
        #[arg(long, value_name = "NOM")]
        name: String,
    },
    /// Révoque un jeton ou une clé.
    Revoke {
        /// Identifiant du jeton ou de la clé (donné à sa création).
        #[arg(long, value_name = "ID")]
        id: String,
    },
}

#[derive(Subcommand, Debug)]
pub enum CallCenterKeyAction {
    /// Crée une clé pour un centre d'appels de l'agence.
    Create {
        /// Identifiant de l'agence.
        #[arg(long, value_name = "ID")]
        agency: String,
        /// Nom du centre d'appels.
        #[arg(long, value_name = "NOM")]
        name: String,
    },
}

#[derive(Subcommand, Debug)]
pub enum PartnerKeyAction {
    /// Crée une clé de partenaire attribuée aux agences données.
    Create {
        /// Nom du partenaire.
        #[arg(long, value_name = "NOM")]
        name: String,
        /// Identifiant d'une agence attribuée ; à répéter pour plusieurs agences.
        #[arg(long = "agency", value_name = "ID", required = true)]
        agencies: Vec<String>,
    },
}

#[derive(Copy, Clone, Debug, ValueEnum)]
pub enum SizeArg {
    Small,
    Large,
}

/// Entry point of the `liftdesk` binary.
pub fn main() -> ExitCode {
    let cli = match usage::parse() {
        Ok(cli) => cli,
        Err(err) => return usage::report(err),
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            // With its causes: « seeding …: appel …: <the refusal> ».
            let _ = writeln!(std::io::stderr(), "Erreur : {err:#}");
            ExitCode::FAILURE
        }
    }
}

fn print_json(value: &Value) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    writeln!(out, "{value}")?;
    out.flush()?;
    Ok(())
}

/// French text of a refusal (internal causes included: this is the admin's own terminal).
fn describe(err: AppError) -> anyhow::Error {
    match err {
        AppError::Internal(cause) => cause,
        other => anyhow::anyhow!(other.to_string()),
    }
}

pub fn run(cli: Cli) -> anyhow::Result<()> {
    let data_dir = config::resolve_data_dir(cli.data_dir)?;
    let database = Database::of(&data_dir, cli.database.as_deref());
    if let Command::Serve {
        bind,
        demo,
        public_url,
        rate_limit,
        insecure_webhooks,
        webhook_retry_schedule,
        webhook_claim,
        connectivity_probe,
        log_dir,
        backup_dir,
        tls_cert,
        tls_key,
        behind_proxy,
    } = cli.command
    {
        let tls = tls_cert.zip(tls_key);
        let network = Network {
            https: tls.is_some() || behind_proxy.is_some(),
            proxies: behind_proxy.map(|p| p.0).unwrap_or_default(),
        };
        let defaults = WebhookSettings::default();
        let webhooks = WebhookSettings {
            insecure_loopback: insecure_webhooks,
            retry_schedule: webhook_retry_schedule.unwrap_or(defaults.retry_schedule),
            probe: connectivity_probe.unwrap_or(defaults.probe),
            claim: webhook_claim.unwrap_or(defaults.claim),
        };
        return serve(
            &database,
            &bind,
            demo,
            public_url,
            rate_limit.unwrap_or_default(),
            webhooks,
            log_dir,
            backup_dir,
            Listening { network, tls },
        );
    }
    init_logging("warn");
    if let Command::Restore { from } = &cli.command {
        let _lock = config::lock_data_dir(&data_dir)?;
        let restored = backup::restore_from(&database, from)?;
        return print_json(&json!({
            "restoredFrom": from,
            "database": database.shown(),
            "aside": restored.aside,
            "schemaVersion": restored.schema_version,
        }));
    }
    if let Command::Migrate { to } = &cli.command {
        return migrate(&database, to);
    }
    if let Command::Backup { to } = &cli.command {
        // The file as it is: a backup never migrates an older database.
        let written = backup::backup_database(&database, to)?;
        let check = backup::check_backup(&written.path)?;
        return print_json(&json!({
            "path": written.path,
            "bytes": written.bytes,
            "schemaVersion": check.schema_version,
        }));
    }
    let store = server::open_database(&database)?;
    // Whoever runs the command line on the data directory administers the
    // installation: the operations below check it, and the audit names it.
    let cli_principal = Principal::command_line();
    let p = &cli_principal;
    let output = match cli.command {
        Command::Init {
            organization,
            agency,
            admin_email,
            admin_password,
            admin_name,
            siret,
            address,
            vat_number,
        } => {
            let seller =
                (siret.is_some() || address.is_some() || vat_number.is_some()).then(|| {
                    IdentityInput {
                        siret,
                        address,
                        vat_number,
                        ..IdentityInput::default()
                    }
                });
            let out = installation::init_organization(
                &store,
                p,
                &installation::Init {
                    organization: &organization,
                    agency: &agency,
                    admin_email: &admin_email,
                    admin_name: admin_name.as_deref(),
                    admin_password: &admin_password,
                    seller: seller.as_ref(),
                },
            )
            .map_err(describe)?;
            json!({ "organizationId": out.organization_id, "agencyId": out.agency_id, "accountId": out.account_id })
        }
        Command::Agency {
            action: AgencyAction::Identity { agency, fields },
        } => {
            let IdentityArgs {
                legal_name,
                legal_form,
                share_capital,
                rcs_city,
                siret,
                vat_number,
                head_office_address,
                head_office_complement,
                head_office_postal_code,
                head_office_city,
                address,
                address_complement,
                postal_code,
                city,
                phone,
                email,
                iban,
                bic,
                insurer,
                insurance_policy,
                insurance_area,
                vat_on_debits,
                invoice_series,
                electronic_address,
            } = *fields;
            use IdentityField as F;
            let given = [
                (F::LegalName, legal_name),
                (F::LegalForm, legal_form),
                (F::ShareCapital, share_capital),
                (F::RcsCity, rcs_city),
                (F::Siret, siret),
                (F::VatNumber, vat_number),
                (F::HeadOfficeAddress, head_office_address),
                (F::HeadOfficeComplement, head_office_complement),
                (F::HeadOfficePostalCode, head_office_postal_code),
                (F::HeadOfficeCity, head_office_city),
                (F::Address, address),
                (F::AddressComplement, address_complement),
                (F::PostalCode, postal_code),
                (F::City, city),
                (F::Phone, phone),
                (F::Email, email),
                (F::Iban, iban),
                (F::Bic, bic),
                (F::Insurer, insurer),
                (F::InsurancePolicy, insurance_policy),
                (F::InsuranceArea, insurance_area),
                (F::InvoiceSeries, invoice_series),
                (F::ElectronicAddress, electronic_address),
            ];
            let patch = installation::IdentityPatch {
                fields: given
                    .into_iter()
                    .filter_map(|(field, text)| text.map(|text| (field, text)))
                    .collect(),
                vat_on_debits,
            };
            let view = installation::agency_identity(&store, p, &AgencyId::new(agency), patch)
                .map_err(describe)?;
            let mut shown = serde_json::to_value(IdentityInput::of(&view.identity))?;
            if let Some(object) = shown.as_object_mut() {
                let missing: Vec<&str> = view.missing_to_issue.iter().map(|f| f.as_str()).collect();
                object.insert("agencyId".to_owned(), json!(view.agency_id.as_str()));
                object.insert("siren".to_owned(), json!(view.identity.siren()));
                object.insert("missingToIssue".to_owned(), json!(missing));
                object.insert("updatedAt".to_owned(), json!(view.updated_at));
            }
            shown
        }
        Command::Agency {
            action:
                AgencyAction::Create {
                    organization,
                    name,
                    v1_id,
                },
        } => {
            let organization = OrganizationId::new(organization);
            let id = installation::create_agency(&store, p, &organization, &name, v1_id.as_deref())
                .map_err(describe)?;
            json!({ "id": id })
        }
        Command::Agency {
            action: AgencyAction::Rename { agency, name },
        } => {
            let entry = installation::rename_agency(&store, p, &AgencyId::new(agency), &name)
                .map_err(describe)?;
            agency_json(&entry, None)
        }
        Command::Agency {
            action: AgencyAction::Archive { agency },
        } => {
            let (entry, stopped) = installation::archive_agency(&store, p, &AgencyId::new(agency))
                .map_err(describe)?;
            agency_json(&entry, Some(stopped))
        }
        Command::Agency {
            action: AgencyAction::Restore { agency },
        } => {
            let entry = installation::restore_agency(&store, p, &AgencyId::new(agency))
                .map_err(describe)?;
            agency_json(&entry, None)
        }
        Command::User {
            action:
                UserAction::Create {
                    email,
                    name,
                    password,
                    agencies,
                    admin,
                    performs_surveys,
                    technician,
                },
        } => {
            let id = installation::create_user(
                &store,
                p,
                &installation::NewUser {
                    email: &email,
                    name: &name,
                    password: &password,
                    agency_ids: &agencies,
                    admin,
                    performs_surveys,
                    technician,
                },
            )
            .map_err(describe)?;
            json!({ "id": id })
        }
        Command::User {
            action: UserAction::ResetPassword { email },
        } => {
            let (id, password) =
                installation::reset_password(&store, p, &email).map_err(describe)?;
            json!({ "id": id, "temporaryPassword": password.0 })
        }
        Command::Operator {
            action:
                OperatorAction::Create {
                    email,
                    name,
                    password,
                },
        } => {
            let id = installation::create_operator(&store, p, &email, &name, &password)
                .map_err(describe)?;
            json!({ "id": id })
        }
        Command::Token {
            action: TokenAction::Create { email, name },
        } => {
            let issued =
                installation::issue_api_token(&store, p, &email, &name).map_err(describe)?;
            json!({ "id": issued.id, "token": issued.secret })
        }
        Command::Token {
            action: TokenAction::Revoke { id },
        } => {
            let id = CredentialId::new(id);
            installation::revoke_credential(&store, p, &id).map_err(describe)?;
            json!({ "id": id })
        }
        Command::CallCenterKey {
            action: CallCenterKeyAction::Create { agency, name },
        } => {
            let issued = installation::issue_call_center_key(
                &store,
                p,
                &AgencyId::new(agency.as_str()),
                &name,
            )
            .map_err(describe)?;
            json!({ "id": issued.id, "key": issued.secret })
        }
        Command::PartnerKey {
            action: PartnerKeyAction::Create { name, agencies },
        } => {
            let issued =
                installation::issue_partner_key(&store, p, &name, &agencies).map_err(describe)?;
            json!({ "id": issued.id, "key": issued.secret })
        }
        Command::Demo { size, seed } => {
            let size = match size {
                SizeArg::Small => DemoSize::Small,
                SizeArg::Large => DemoSize::Large,
            };
            let creds = demo::install(&store, size, seed, store.now()).map_err(describe)?;
            serde_json::to_value(&creds)?
        }
        Command::Serve { .. }
        | Command::Restore { .. }
        | Command::Backup { .. }
        | Command::Migrate { .. } => {
            unreachable!("handled above")
        }
    };
    print_json(&output)
}

/// `liftdesk migrate --to URL`: the data directory's SQLite database
/// copied into an empty PostgreSQL database (`store::transfer`), the
/// directory locked meanwhile (no server writes during the copy).
fn migrate(database: &Database, to: &str) -> anyhow::Result<()> {
    let Database::Sqlite(path) = database else {
        anyhow::bail!(
            "« migrate » copie la base SQLite du dossier de données : retirez --database (ou LIFTDESK_DATABASE_URL) ; la base PostgreSQL de destination se donne par --to."
        );
    };
    let to = to.trim();
    if !(to.starts_with("postgresql://") || to.starts_with("postgres://")) {
        anyhow::bail!(
            "--to attend l'adresse d'une base PostgreSQL (postgresql://UTILISATEUR:MOT_DE_PASSE@HÔTE:PORT/BASE)."
        );
    }
    let data_dir = database.data_dir();
    let _lock = config::lock_data_dir(data_dir)?;
    if !path.exists() {
        anyhow::bail!(
            "Aucune base Liftdesk dans {} : rien à copier.",
            path.display()
        );
    }
    let source = server::open_database(database)?;
    let target = crate::store::Store::connect(&Database::of(data_dir, Some(to)))?;
    let transfer = crate::store::transfer::sqlite_to_postgres(&source, &target)?;
    print_json(&json!({
        "from": source.shown(),
        "to": target.shown(),
        "tables": transfer.tables.len(),
        "rows": transfer.rows,
    }))
}

fn init_logging(default_level: &str) {
    let _ = logging::init_with_filter(None, default_level);
}

/// How `serve` is reached: HTTPS by itself (certificate and key files) or
/// not, TLS proxies in front.
struct Listening {
    network: Network,
    tls: Option<(PathBuf, PathBuf)>,
}

#[allow(clippy::too_many_arguments)]
fn serve(
    database: &Database,
    bind: &str,
    with_demo: bool,
    public_url: Option<String>,
    rate_limit: RateLimit,
    webhooks: WebhookSettings,
    log_dir: Option<PathBuf>,
    backup_dir: Option<PathBuf>,
    listening: Listening,
) -> anyhow::Result<()> {
    // rmcp logs every stateless request at info: only its warnings.
    logging::init(log_dir.as_deref())?;
    let data_dir = database.data_dir();
    // Held until the server stops: `liftdesk restore` waits for that.
    let _lock = config::lock_data_dir(data_dir)?;
    let store = server::open_database(database)?;
    // On a database other servers share: the same keys as theirs.
    crate::auth::shared_keys::check(&store)?;
    if with_demo {
        demo::seed_if_empty(&store, data_dir)?;
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(bind)
            .await
            .map_err(|err| anyhow::anyhow!("Impossible d'écouter sur {bind} : {err}"))?;
        let address = listener.local_addr()?;
        network::check_listening(address, &listening.network)?;
        let tls = match &listening.tls {
            Some((cert, key)) => Some(network::tls_config(cert, key).await?),
            None => None,
        };
        let base_url = if tls.is_some() {
            format!("https://{address}")
        } else {
            server::base_url_of(&listener)?
        };
        let public = public_url
            .map(|u| u.trim_end_matches('/').to_owned())
            .unwrap_or_else(|| base_url.clone());
        let mut state = AppState::with_rate_limit(store, public, rate_limit)
            .with_webhook_settings(webhooks)
            .with_network(listening.network);
        if let Some(dir) = log_dir {
            state = state.with_log_dir(dir);
        }
        if let Some(dir) = backup_dir {
            state = state.with_backup_dir(dir);
        }
        // The first line on stdout: scripts wait for it, so it comes only
        // once the listener accepts connections.
        print_line(&base_url)?;
        tracing::info!(%base_url, data_dir = %data_dir.display(), "Liftdesk à l'écoute");
        server::serve_over(listener, state, server::shutdown_signal(), tls).await
    })
}

fn print_line(line: &str) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    writeln!(out, "{line}")?;
    out.flush()?;
    Ok(())
}

/// An agency as `liftdesk agency rename|archive|restore` prints it, with
/// what archiving stopped.
fn agency_json(
    entry: &crate::services::agencies::AgencyEntry,
    stopped: Option<crate::services::agencies::Stopped>,
) -> Value {
    let record = &entry.record;
    let mut shown = json!({
        "id": record.agency.id.as_str(),
        "name": record.agency.name,
        "archivedAt": record.archived_at,
    });
    if let (Some(stopped), Some(object)) = (stopped, shown.as_object_mut()) {
        object.insert(
            "stopped".to_owned(),
            json!({
                "callCenterKeys": stopped.call_center_keys,
                "partnerKeys": stopped.partner_keys,
                "webhookSubscriptions": stopped.webhook_subscriptions,
            }),
        );
    }
    shown
}
