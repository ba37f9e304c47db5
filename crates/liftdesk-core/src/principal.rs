//! `Principal`: who acts (an account, through a staff session, an API token
//! or the MCP server; or a partner's key), in which agency, through which
//! front door; and
//! `Capability`, what an operation asks of it. Every authorization rule of an
//! account (administrators only, the operator changes nothing, who submits a
//! survey, who edits the rota, who credits an invoice) is decided here, in
//! [`Principal::require`], and nowhere else.

use crate::domain::id::{AgencyId, CredentialId};
use crate::error::{AppError, AppResult};
use crate::store::accounts::{AccountRow, Role};
use crate::store::agencies::AgencyRow;
use crate::store::audit::Actor;

/// The front door a request came through: it words the refusals that depend
/// on how the agency is chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Door {
    /// The REST API v2 (API token, `X-Service-Agency`).
    Rest,
    /// The MCP server (API token, `X-Service-Agency`).
    Mcp,
    /// The staff web application (session cookie, the agency chosen on screen).
    App,
    /// The partner workflow API (a partner key, the agency in each body).
    Partner,
    /// The call-center API (a call-center key, the agency the key's).
    CallCenter,
    /// The admin command line, on the data directory (no account).
    Cli,
}

/// The refusal of an agency the partner key is not attributed to.
pub const PARTNER_AGENCY_REFUSED: &str = "Cette agence n'est pas attribuée à cette clé partenaire.";

/// The account or key that acts, its agency and the door it came through.
#[derive(Debug, Clone)]
pub struct Principal {
    /// Who acts, for the audit log: the API token, the staff member, the
    /// partner key or the call-center key.
    pub actor: Actor,
    /// The account that acts; `None` for a partner or call-center key.
    pub account: Option<AccountRow>,
    /// Where the request acts: `X-Service-Agency` or the agency chosen on
    /// screen, else the account's default agency.
    pub agency: Option<AgencyRow>,
    /// Every agency the account works in (the partner key is attributed to).
    pub scope: Vec<AgencyRow>,
    pub door: Door,
}

/// What an operation asks of the principal.
#[derive(Debug, Clone, Copy)]
pub enum Capability<'a> {
    /// An administrator of the agency (or of its organization); the text
    /// names the act in the refusal (« Créer une clé partenaire »).
    Administer(&'a str),
    /// An administrator of the whole organization (not of one agency); the
    /// text names the act (« Créer une agence »).
    AdministerOrganization(&'a str),
    /// Any change to the agency's records: the service operator's account
    /// only reads.
    Change,
    /// Submitting a survey: an account that performs surveys, or an
    /// administrator.
    SubmitSurvey,
    /// Editing the standby rota and the technicians' absences.
    EditRota,
    /// Crediting an issued invoice.
    CreditInvoice,
    /// Administering the installation (organizations, agencies, accounts
    /// and keys created from the command line): the command line only.
    Install,
}

impl Principal {
    /// The agency the request acts in; 400 when there is none, worded for
    /// the door (the header to send, or the agency to choose on screen).
    pub fn agency(&self) -> AppResult<&AgencyRow> {
        self.agency.as_ref().ok_or_else(|| {
            AppError::bad_request(match self.door {
                Door::App => "Ce compte n'agit dans aucune agence : choisissez-en une.",
                Door::Rest | Door::Mcp => {
                    "Indiquez l'agence où agir dans l'en-tête X-Service-Agency."
                }
                Door::Partner => "Le champ « agency_id » est obligatoire.",
                Door::CallCenter => "Cette clé de centre d'appels n'agit dans aucune agence.",
                Door::Cli => "Indiquez l'agence où agir.",
            })
        })
    }

    /// The acting agency's id (see [`Principal::agency`]).
    pub fn agency_id(&self) -> AppResult<&AgencyId> {
        self.agency().map(|agency| &agency.id)
    }

    /// [`Principal::record`] of `action` on many objects of one type (each
    /// id with its detail), in a few statements.
    pub fn record_all(
        &self,
        tx: &crate::store::Tx,
        object_type: &str,
        action: &str,
        objects: &[(&str, serde_json::Value)],
    ) -> AppResult<()> {
        let agency_id = self.agency_id()?.as_str();
        let entries: Vec<crate::store::audit::AuditEntry<'_>> = objects
            .iter()
            .map(|(object_id, detail)| crate::store::audit::AuditEntry {
                agency_id: Some(agency_id),
                actor: &self.actor,
                action,
                object_type,
                object_id: Some(object_id),
                detail: Some(detail.clone()),
            })
            .collect();
        Ok(crate::store::audit::record_all(tx, &entries)?)
    }

    /// One audit entry for what the principal did in its agency to the
    /// object `object_type`/`object_id`, in the caller's transaction.
    pub fn record(
        &self,
        tx: &crate::store::Tx,
        object_type: &str,
        object_id: &str,
        action: &str,
        detail: serde_json::Value,
    ) -> AppResult<()> {
        Ok(crate::store::audit::record(
            tx,
            crate::store::audit::AuditEntry {
                agency_id: Some(self.agency_id()?.as_str()),
                actor: &self.actor,
                action,
                object_type,
                object_id: Some(object_id),
                detail: Some(detail),
            },
        )?)
    }

    /// The principal acting in `agency_id`, one of its scope: a partner key
    /// names the agency in each call (403 for an agency it is not
    /// attributed to, before anything is read or written).
    pub fn in_agency(&self, agency_id: &AgencyId) -> AppResult<Self> {
        let agency = scope_agency(&self.scope, agency_id.as_str(), self.door)?;
        Ok(Self {
            agency: Some(agency),
            ..self.clone()
        })
    }

    /// The account that acts: 403 for a key (what it asks is an account's).
    pub fn account(&self) -> AppResult<&AccountRow> {
        self.account.as_ref().ok_or_else(|| {
            AppError::forbidden("Cette opération est réservée à un compte du personnel.")
        })
    }

    /// The command line (`Door::Cli`): whoever runs it on the data
    /// directory administers the installation; the audit names `Actor::Cli`.
    pub fn command_line() -> Self {
        Self {
            actor: Actor::Cli,
            account: None,
            agency: None,
            scope: Vec::new(),
            door: Door::Cli,
        }
    }

    /// The command line acting in one agency (`--agency`): what it does
    /// there is the agency's own work, done by whoever administers the
    /// installation.
    pub fn command_line_in(agency: AgencyRow) -> Self {
        Self {
            agency: Some(agency.clone()),
            scope: vec![agency],
            ..Self::command_line()
        }
    }

    /// Liftdesk itself acting in one agency: the demo's installation writes
    /// the agency's history through the operations this way (the command
    /// line's rights; the audit names `Actor::System`).
    pub fn system_in(agency: AgencyRow) -> Self {
        Self {
            actor: Actor::System,
            ..Self::command_line_in(agency)
        }
    }

    /// A staff member acting on screen in one agency (`Door::App`).
    pub fn staff_in(account: AccountRow, agency: AgencyRow) -> Self {
        Self {
            actor: Actor::Account(account.id.clone()),
            account: Some(account),
            agency: Some(agency.clone()),
            scope: vec![agency],
            door: Door::App,
        }
    }

    /// The call-center key acting in its agency (`Door::CallCenter`).
    pub fn call_center_key(credential_id: CredentialId, agency: AgencyRow) -> Self {
        Self {
            actor: Actor::CallCenterKey(credential_id),
            account: None,
            agency: Some(agency.clone()),
            scope: vec![agency],
            door: Door::CallCenter,
        }
    }

    /// The call-center key that acts: 403 for anyone else (a call opened by
    /// a center names the key that sent it).
    pub fn call_center_credential(&self) -> AppResult<&CredentialId> {
        match &self.actor {
            Actor::CallCenterKey(id) => Ok(id),
            _ => Err(AppError::forbidden(
                "Cette opération est réservée à une clé de centre d'appels.",
            )),
        }
    }

    /// 403 unless the principal may do what `capability` names.
    pub fn require(&self, capability: Capability<'_>) -> AppResult<()> {
        if self.door == Door::Cli {
            return Ok(());
        }
        match &self.account {
            Some(account) => check(account, capability),
            // A partner or call-center key changes its agencies' records as
            // its API allows, and nothing an administrator does.
            None => match capability {
                Capability::Change => Ok(()),
                _ => check_role(Role::Member, false, capability),
            },
        }
    }

    /// Whether the principal may do what `capability` names.
    pub fn can(&self, capability: Capability<'_>) -> bool {
        self.require(capability).is_ok()
    }
}

impl Door {
    /// The refusal of an agency outside the caller's scope, worded for the
    /// door.
    pub fn outside_scope(self) -> &'static str {
        match self {
            Door::Partner => PARTNER_AGENCY_REFUSED,
            Door::CallCenter => "Cette agence n'est pas celle de cette clé.",
            Door::Cli => "Agence inconnue.",
            Door::Rest | Door::Mcp => "Cette agence est hors du périmètre de ce compte.",
            Door::App => "Cette agence n'est pas dans le périmètre de votre compte.",
        }
    }
}

/// The agency `agency_id` of `scope`: 403 worded for the door otherwise.
/// The one check of an agency a caller names (`X-Service-Agency`, the
/// screen's agency switcher, a partner's `agency_id`).
pub fn scope_agency(scope: &[AgencyRow], agency_id: &str, door: Door) -> AppResult<AgencyRow> {
    scope
        .iter()
        .find(|a| a.id == agency_id)
        .cloned()
        .ok_or_else(|| match door {
            // The command line administers every agency: one it does not
            // find does not exist, as `installation::command_line_in_agency`
            // answers.
            Door::Cli => AppError::not_found(door.outside_scope()),
            _ => AppError::forbidden(door.outside_scope()),
        })
}

/// The agency a caller acts in when it names none: the one its session chose
/// (`chosen`), else the account's default agency, else the first of its
/// scope; the service operator's account names its agency on the REST API
/// and MCP each time (no first agency for it there).
pub fn default_agency(
    account: &AccountRow,
    scope: &[AgencyRow],
    chosen: Option<&str>,
    door: Door,
) -> Option<AgencyRow> {
    let in_scope = |id: &str| scope.iter().find(|a| a.id == id);
    chosen
        .and_then(in_scope)
        .or_else(|| account.default_agency_id.as_deref().and_then(in_scope))
        .or_else(|| {
            scope.first().filter(|_| {
                !(account.role == Role::Operator && matches!(door, Door::Rest | Door::Mcp))
            })
        })
        .cloned()
}

/// The one authorization rule of an account: 403 with the French reason
/// unless `account` may do what `capability` names.
pub fn check(account: &AccountRow, capability: Capability<'_>) -> AppResult<()> {
    check_role(account.role, account.performs_surveys, capability)
}

/// [`check`] for a role known without its account row (`performs_surveys`:
/// whether the account performs surveys).
pub fn check_role(role: Role, performs_surveys: bool, capability: Capability<'_>) -> AppResult<()> {
    let admin = role.is_admin();
    match capability {
        Capability::Administer(what) if !admin => Err(AppError::forbidden(format!(
            "{what} est réservé à un administrateur de l'agence."
        ))),
        Capability::AdministerOrganization(what) if role != Role::OrgAdmin => {
            Err(AppError::forbidden(format!(
                "{what} est réservé à un administrateur de l'organisation."
            )))
        }
        Capability::EditRota if !admin => check_role(
            role,
            performs_surveys,
            Capability::Administer("Modifier les astreintes et les absences des techniciens"),
        ),
        Capability::CreditInvoice if !admin => Err(AppError::forbidden(
            "Seul un administrateur peut établir un avoir.",
        )),
        Capability::Install => Err(AppError::forbidden(
            "Cette opération se fait en ligne de commande, sur la machine de l'installation.",
        )),
        Capability::Change if role == Role::Operator => Err(AppError::forbidden(
            "Le compte de service de l'opérateur consulte les agences mais n'y modifie rien.",
        )),
        Capability::SubmitSurvey => match role {
            Role::Operator => Err(AppError::forbidden(
                "Le compte de service de l'opérateur consulte les agences mais n'y soumet pas de relevé.",
            )),
            Role::OrgAdmin | Role::AgencyAdmin => Ok(()),
            Role::Member if performs_surveys => Ok(()),
            Role::Member => Err(AppError::forbidden(
                "Soumettre un relevé est réservé aux comptes qui réalisent des relevés et aux administrateurs : ce compte ne réalise pas de relevés.",
            )),
        },
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn account(role: Role, performs_surveys: bool) -> AccountRow {
        AccountRow {
            id: crate::domain::id::AccountId::new("a"),
            organization_id: crate::domain::id::OrganizationId::new("o"),
            name: None,
            email: "a@b.fr".to_owned(),
            position: None,
            active: true,
            performs_surveys,
            default_agency_id: None,
            role,
            must_change_password: false,
        }
    }

    fn allowed(role: Role, performs: bool, capability: Capability<'_>) -> bool {
        check(&account(role, performs), capability).is_ok()
    }

    fn refusal(role: Role, capability: Capability<'_>) -> (u16, String) {
        let err = check(&account(role, false), capability).expect_err("refused");
        (err.status().as_u16(), err.public_message())
    }

    #[test]
    fn surveyors_and_administrators_may_submit() {
        assert!(allowed(Role::Member, true, Capability::SubmitSurvey));
        assert!(!allowed(Role::Member, false, Capability::SubmitSurvey));
        assert!(allowed(Role::AgencyAdmin, false, Capability::SubmitSurvey));
        assert!(allowed(Role::OrgAdmin, false, Capability::SubmitSurvey));
        assert!(!allowed(Role::Operator, true, Capability::SubmitSurvey));
        assert_eq!(refusal(Role::Member, Capability::SubmitSurvey).0, 403);
    }

    #[test]
    fn administrators_only_and_the_operator_reads() {
        for capability in [
            Capability::Administer("Créer une clé partenaire"),
            Capability::EditRota,
            Capability::CreditInvoice,
        ] {
            assert!(allowed(Role::AgencyAdmin, false, capability));
            assert!(allowed(Role::OrgAdmin, false, capability));
            assert!(!allowed(Role::Member, true, capability));
        }
        assert_eq!(
            refusal(
                Role::Member,
                Capability::Administer("Créer une clé partenaire")
            ),
            (
                403,
                "Créer une clé partenaire est réservé à un administrateur de l'agence.".to_owned()
            )
        );
        assert_eq!(
            refusal(Role::Member, Capability::CreditInvoice).1,
            "Seul un administrateur peut établir un avoir."
        );
        assert!(allowed(Role::Member, false, Capability::Change));
        assert_eq!(
            refusal(Role::Operator, Capability::Change).1,
            "Le compte de service de l'opérateur consulte les agences mais n'y modifie rien."
        );
    }

    #[test]
    fn the_missing_agency_is_worded_for_the_door() {
        let principal = |door| Principal {
            actor: Actor::System,
            account: Some(account(Role::Member, false)),
            agency: None,
            scope: Vec::new(),
            door,
        };
        let message = |door| {
            principal(door)
                .agency()
                .expect_err("no agency")
                .public_message()
        };
        assert_eq!(
            message(Door::App),
            "Ce compte n'agit dans aucune agence : choisissez-en une."
        );
        assert_eq!(
            message(Door::Rest),
            "Indiquez l'agence où agir dans l'en-tête X-Service-Agency."
        );
    }

    #[test]
    fn a_partner_key_acts_in_its_agencies_and_administers_nothing() {
        let key = Principal {
            actor: Actor::PartnerKey(CredentialId::new("k")),
            account: None,
            agency: None,
            scope: vec![agency("a1")],
            door: Door::Partner,
        };
        let acting = key.in_agency(&AgencyId::new("a1")).expect("attributed");
        assert_eq!(acting.agency_id().expect("agency"), "a1");
        assert!(acting.can(Capability::Change));
        assert!(!acting.can(Capability::Administer("Créer une clé partenaire")));
        assert!(!acting.can(Capability::CreditInvoice));
        let refused = key
            .in_agency(&AgencyId::new("a2"))
            .expect_err("not attributed");
        assert_eq!(refused.status().as_u16(), 403);
        assert_eq!(refused.public_message(), PARTNER_AGENCY_REFUSED);
        assert_eq!(
            key.account().expect_err("no account").status().as_u16(),
            403
        );
    }

    fn agency(id: &str) -> AgencyRow {
        AgencyRow {
            id: AgencyId::new(id),
            name: "Agence".to_owned(),
            organization_id: crate::domain::id::OrganizationId::new("o"),
            organization_name: "Organisation".to_owned(),
            v1_id: None,
        }
    }

    #[test]
    fn only_the_command_line_administers_the_installation() {
        let cli = Principal::command_line();
        assert!(cli.can(Capability::Install));
        assert!(cli.can(Capability::Administer("Créer une agence")));
        assert_eq!(cli.actor, Actor::Cli);
        for role in [
            Role::OrgAdmin,
            Role::AgencyAdmin,
            Role::Member,
            Role::Operator,
        ] {
            let err = check(&account(role, true), Capability::Install).expect_err("refused");
            assert_eq!(err.status().as_u16(), 403);
            assert_eq!(
                err.public_message(),
                "Cette opération se fait en ligne de commande, sur la machine de l'installation."
            );
        }
        let key = Principal::call_center_key(CredentialId::new("k"), agency("a1"));
        assert!(!key.can(Capability::Install));
    }

    #[test]
    fn a_call_center_key_acts_in_its_agency_only() {
        let key = Principal::call_center_key(CredentialId::new("k"), agency("a1"));
        assert_eq!(key.agency_id().expect("its agency"), "a1");
        assert_eq!(key.call_center_credential().expect("a key"), "k");
        assert!(key.can(Capability::Change));
        assert!(!key.can(Capability::CreditInvoice));
        assert!(key.account().is_err());
        let err = key
            .in_agency(&AgencyId::new("a2"))
            .expect_err("not its agency");
        assert_eq!(err.status().as_u16(), 403);
        assert_eq!(
            err.public_message(),
            "Cette agence n'est pas celle de cette clé."
        );
        let cli = Principal::command_line();
        let err = cli.call_center_credential().expect_err("not a key");
        assert_eq!(err.status().as_u16(), 403);
    }

    #[test]
    fn an_agency_is_named_within_the_scope_or_taken_by_default() {
        let scope = vec![agency("a1"), agency("a2")];
        assert_eq!(
            scope_agency(&scope, "a2", Door::Rest).map(|a| a.id).ok(),
            Some(AgencyId::new("a2"))
        );
        for (door, message) in [
            (
                Door::Rest,
                "Cette agence est hors du périmètre de ce compte.",
            ),
            (
                Door::App,
                "Cette agence n'est pas dans le périmètre de votre compte.",
            ),
            (Door::Partner, PARTNER_AGENCY_REFUSED),
        ] {
            let refusal = scope_agency(&scope, "ailleurs", door).expect_err("outside");
            assert_eq!(
                (refusal.status().as_u16(), refusal.public_message()),
                (403, message.to_owned())
            );
        }
        let refusal = scope_agency(&scope, "ailleurs", Door::Cli).expect_err("unknown");
        assert_eq!(
            (refusal.status().as_u16(), refusal.public_message()),
            (404, "Agence inconnue.".to_owned())
        );

        let mut member = account(Role::Member, false);
        let chosen = |account: &AccountRow, chosen: Option<&str>, door| {
            default_agency(account, &scope, chosen, door).map(|a| a.id.into_string())
        };
        // The session's choice, else the default agency, else the first.
        assert_eq!(chosen(&member, None, Door::App).as_deref(), Some("a1"));
        member.default_agency_id = Some("a2".to_owned());
        assert_eq!(chosen(&member, None, Door::Rest).as_deref(), Some("a2"));
        assert_eq!(
            chosen(&member, Some("a1"), Door::App).as_deref(),
            Some("a1")
        );
        assert_eq!(
            chosen(&member, Some("ailleurs"), Door::App).as_deref(),
            Some("a2")
        );
        // The service operator names its agency on the REST API and MCP.
        let operator = account(Role::Operator, false);
        assert_eq!(chosen(&operator, None, Door::Rest), None);
        assert_eq!(chosen(&operator, None, Door::Mcp), None);
        assert_eq!(chosen(&operator, None, Door::App).as_deref(), Some("a1"));
    }
}
