//! `Principal`: who acts (the account, through a staff session, an API token
//! or the MCP server), in which agency, through which front door; and
//! `Capability`, what an operation asks of it. Every authorization rule of an
//! account (administrators only, the operator changes nothing, who submits a
//! survey, who edits the rota, who credits an invoice) is decided here, in
//! [`Principal::require`], and nowhere else.

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
}

/// The account that acts, its agency and the door it came through.
#[derive(Debug, Clone)]
pub struct Principal {
    /// Who acts, for the audit log: the API token or the staff member.
    pub actor: Actor,
    pub account: AccountRow,
    /// Where the request acts: `X-Service-Agency` or the agency chosen on
    /// screen, else the account's default agency.
    pub agency: Option<AgencyRow>,
    /// Every agency the account works in.
    pub scope: Vec<AgencyRow>,
    pub door: Door,
}

/// What an operation asks of the principal.
#[derive(Debug, Clone, Copy)]
pub enum Capability<'a> {
    /// An administrator of the agency (or of its organization); the text
    /// names the act in the refusal (« Créer une clé partenaire »).
    Administer(&'a str),
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
            })
        })
    }

    /// The acting agency's id (see [`Principal::agency`]).
    pub fn agency_id(&self) -> AppResult<&str> {
        self.agency().map(|agency| agency.id.as_str())
    }

    /// 403 unless the account may do what `capability` names.
    pub fn require(&self, capability: Capability<'_>) -> AppResult<()> {
        check(&self.account, capability)
    }

    /// Whether the account may do what `capability` names.
    pub fn can(&self, capability: Capability<'_>) -> bool {
        check(&self.account, capability).is_ok()
    }
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
        Capability::EditRota if !admin => check_role(
            role,
            performs_surveys,
            Capability::Administer("Modifier les astreintes et les absences des techniciens"),
        ),
        Capability::CreditInvoice if !admin => Err(AppError::forbidden(
            "Seul un administrateur peut établir un avoir.",
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
            id: "a".to_owned(),
            organization_id: "o".to_owned(),
            name: None,
            email: "a@b.fr".to_owned(),
            position: None,
            active: true,
            performs_surveys,
            default_agency_id: None,
            role,
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
            account: account(Role::Member, false),
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
}
