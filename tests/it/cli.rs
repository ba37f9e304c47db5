//! The admin CLI's exact contract: every command, good and bad input.

use crate::common;

use common::*;
use liftdesk::auth::secret;
use serde_json::Value;

fn assert_uuid(text: &str) {
    assert!(uuid::Uuid::parse_str(text).is_ok(), "not a UUID: {text}");
}

fn assert_refused(out: &std::process::Output, needle: &str) {
    assert!(!out.status.success(), "should have failed");
    assert!(out.stdout.is_empty(), "nothing on stdout on failure");
    let err = stderr_of(out);
    assert!(err.starts_with("Erreur : "), "French error expected: {err}");
    assert!(err.contains(needle), "expected « {needle} » in: {err}");
}

fn keys(value: &Value) -> Vec<String> {
    let mut keys: Vec<String> = value.as_object().expect("object").keys().cloned().collect();
    keys.sort();
    keys
}

#[test]
fn init_creates_an_organization_each_time_and_refuses_a_used_email() {
    let dir = tempfile::tempdir().expect("dir");
    let first = cli_json(
        dir.path(),
        &[
            "init",
            "--organization",
            "Ascenseurs A",
            "--agency",
            "Lyon",
            "--admin-email",
            "a@exemple.fr",
            "--admin-password",
            "motdepasse1",
        ],
    );
    assert_eq!(keys(&first), ["accountId", "agencyId", "organizationId"]);
    for key in ["accountId", "agencyId", "organizationId"] {
        assert_uuid(str_of(&first, key));
    }
    let second = cli_json(
        dir.path(),
        &[
            "init",
            "--organization",
            "Ascenseurs B",
            "--agency",
            "Lille",
            "--admin-email",
            "b@exemple.fr",
            "--admin-password",
            "motdepasse1",
            "--admin-name",
            "Bernard",
        ],
    );
    assert_ne!(first["organizationId"], second["organizationId"]);

    // The same email, in another case, is refused and nothing is created.
    let out = run_cli(
        dir.path(),
        &[
            "init",
            "--organization",
            "C",
            "--agency",
            "Nice",
            "--admin-email",
            "A@Exemple.fr",
            "--admin-password",
            "motdepasse1",
        ],
    );
    assert_refused(&out, "déjà utilisée");
    let conn = open_db(dir.path());
    let orgs: i64 = conn
        .query_row("SELECT COUNT(*) FROM organizations", [], |r| r.get(0))
        .expect("count");
    assert_eq!(orgs, 2, "a refused init writes nothing");

    let conn_role: String = conn
        .query_row(
            "SELECT role FROM accounts WHERE id = ?1",
            [str_of(&first, "accountId")],
            |r| r.get(0),
        )
        .expect("role");
    assert_eq!(conn_role, "org_admin");
}

#[test]
fn init_refuses_bad_input_in_french() {
    let dir = tempfile::tempdir().expect("dir");
    let missing = run_cli(
        dir.path(),
        &[
            "init",
            "--organization",
            "A",
            "--agency",
            "B",
            "--admin-password",
            "motdepasse1",
        ],
    );
    assert_eq!(missing.status.code(), Some(2));
    assert_refused(&missing, "argument obligatoire manquant : --admin-email");
    let weak = run_cli(
        dir.path(),
        &[
            "init",
            "--organization",
            "A",
            "--agency",
            "B",
            "--admin-email",
            "x@y.fr",
            "--admin-password",
            "court",
        ],
    );
    assert_refused(&weak, "au moins 8 caractères");
    let bad_email = run_cli(
        dir.path(),
        &[
            "init",
            "--organization",
            "A",
            "--agency",
            "B",
            "--admin-email",
            "pas-un-email",
            "--admin-password",
            "motdepasse1",
        ],
    );
    assert_refused(&bad_email, "n'est pas valide");
    let blank = run_cli(
        dir.path(),
        &[
            "init",
            "--organization",
            "  ",
            "--agency",
            "B",
            "--admin-email",
            "x@y.fr",
            "--admin-password",
            "motdepasse1",
        ],
    );
    assert_refused(&blank, "Le nom de l'organisation est obligatoire");
    let unknown = run_cli(dir.path(), &["frobnicate"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert_refused(&unknown, "commande inconnue : « frobnicate »");
}

#[test]
fn agency_create_with_and_without_v1_id() {
    let dir = tempfile::tempdir().expect("dir");
    let org = init_org(dir.path(), "Org", "admin@org.fr");
    let plain = cli_json(
        dir.path(),
        &[
            "agency",
            "create",
            "--organization",
            &org.organization_id,
            "--name",
            "Agence Sud",
        ],
    );
    assert_eq!(keys(&plain), ["id"]);
    assert_uuid(str_of(&plain, "id"));
    let v1 = cli_json(
        dir.path(),
        &[
            "agency",
            "create",
            "--organization",
            &org.organization_id,
            "--name",
            "Agence Nord",
            "--v1-id",
            "V1-77",
        ],
    );
    let conn = open_db(dir.path());
    let stored: Option<String> = conn
        .query_row(
            "SELECT v1_id FROM agencies WHERE id = ?1",
            [str_of(&v1, "id")],
            |r| r.get(0),
        )
        .expect("agency");
    assert_eq!(stored.as_deref(), Some("V1-77"));

    assert_refused(
        &run_cli(
            dir.path(),
            &[
                "agency",
                "create",
                "--organization",
                &org.organization_id,
                "--name",
                "Agence Est",
                "--v1-id",
                "V1-77",
            ],
        ),
        "déjà attribué",
    );
    assert_refused(
        &run_cli(
            dir.path(),
            &[
                "agency",
                "create",
                "--organization",
                "0190a0a0-0000-7000-8000-000000000000",
                "--name",
                "X",
            ],
        ),
        "Organisation introuvable",
    );
    assert_refused(
        &run_cli(
            dir.path(),
            &["agency", "create", "--organization", &org.organization_id],
        ),
        "--name",
    );
}

#[test]
fn user_create_with_roles_agencies_and_technician() {
    let dir = tempfile::tempdir().expect("dir");
    let org = init_org(dir.path(), "Org", "admin@org.fr");
    let second = cli_json(
        dir.path(),
        &[
            "agency",
            "create",
            "--organization",
            &org.organization_id,
            "--name",
            "Seconde",
        ],
    );
    let second_id = str_of(&second, "id").to_owned();
    let user = cli_json(
        dir.path(),
        &[
            "user",
            "create",
            "--email",
            "Tech@Org.fr",
            "--name",
            "Karim Tech",
            "--password",
            "motdepasse1",
            "--agency",
            &second_id,
            "--agency",
            &org.agency_id,
            "--admin",
            "--performs-surveys",
            "--technician",
        ],
    );
    assert_eq!(keys(&user), ["id"]);
    let id = str_of(&user, "id");
    let conn = open_db(dir.path());
    let (email, role, surveys, default_agency): (String, String, bool, String) = conn
        .query_row(
            "SELECT email, role, performs_surveys, default_agency_id FROM accounts WHERE id = ?1",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )
        .expect("account");
    assert_eq!(email, "tech@org.fr");
    assert_eq!(role, "agency_admin");
    assert!(surveys);
    assert_eq!(
        default_agency, second_id,
        "the first --agency is the default one"
    );
    let agencies: i64 = conn
        .query_row(
            "SELECT COUNT(*) FROM account_agencies WHERE account_id = ?1",
            [id],
            |r| r.get(0),
        )
        .expect("count");
    assert_eq!(agencies, 2);
    let technician: (String, String) = conn
        .query_row(
            "SELECT name, agency_id FROM technicians WHERE account_id = ?1",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .expect("technician record");
    assert_eq!(technician, ("Karim Tech".to_owned(), second_id.clone()));

    let member = cli_json(
        dir.path(),
        &[
            "user",
            "create",
            "--email",
            "m@org.fr",
            "--name",
            "M",
            "--password",
            "motdepasse1",
            "--agency",
            &org.agency_id,
        ],
    );
    let member_role: String = conn
        .query_row(
            "SELECT role FROM accounts WHERE id = ?1",
            [str_of(&member, "id")],
            |r| r.get(0),
        )
        .expect("role");
    assert_eq!(member_role, "member");
    let no_tech: i64 = conn
        .query_row(
            "SELECT COUNT(*) FROM technicians WHERE account_id = ?1",
            [str_of(&member, "id")],
            |r| r.get(0),
        )
        .expect("count");
    assert_eq!(no_tech, 0);

    // Refusals.
    let other = init_org(dir.path(), "Autre", "admin@autre.fr");
    assert_refused(
        &run_cli(
            dir.path(),
            &[
                "user",
                "create",
                "--email",
                "x@org.fr",
                "--name",
                "X",
                "--password",
                "motdepasse1",
                "--agency",
                &org.agency_id,
                "--agency",
                &other.agency_id,
            ],
        ),
        "même organisation",
    );
    assert_refused(
        &run_cli(
            dir.path(),
            &[
                "user",
                "create",
                "--email",
                "m@org.fr",
                "--name",
                "X",
                "--password",
                "motdepasse1",
                "--agency",
                &org.agency_id,
            ],
        ),
        "déjà utilisée",
    );
    assert_refused(
        &run_cli(
            dir.path(),
            &[
                "user",
                "create",
                "--email",
                "y@org.fr",
                "--name",
                "Y",
                "--password",
                "motdepasse1",
                "--agency",
                "0190a0a0-0000-7000-8000-000000000000",
            ],
        ),
        "Agence introuvable",
    );
    assert_refused(
        &run_cli(
            dir.path(),
            &[
                "user",
                "create",
                "--email",
                "z@org.fr",
                "--name",
                "Z",
                "--password",
                "motdepasse1",
            ],
        ),
        "--agency",
    );
}

#[test]
fn operator_create_makes_the_service_account() {
    let dir = tempfile::tempdir().expect("dir");
    let op = cli_json(
        dir.path(),
        &[
            "operator",
            "create",
            "--email",
            "ops@service.fr",
            "--name",
            "Opérateur",
            "--password",
            "motdepasse1",
        ],
    );
    let second = cli_json(
        dir.path(),
        &[
            "operator",
            "create",
            "--email",
            "ops2@service.fr",
            "--name",
            "Opérateur 2",
            "--password",
            "motdepasse1",
        ],
    );
    let conn = open_db(dir.path());
    let (role, default_agency): (String, Option<String>) = conn
        .query_row(
            "SELECT role, default_agency_id FROM accounts WHERE id = ?1",
            [str_of(&op, "id")],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .expect("account");
    assert_eq!(role, "operator");
    assert_eq!(default_agency, None);
    let operator_orgs: i64 = conn
        .query_row(
            "SELECT COUNT(*) FROM organizations WHERE kind = 'operator'",
            [],
            |r| r.get(0),
        )
        .expect("count");
    assert_eq!(
        operator_orgs, 1,
        "both service accounts belong to the one operator organization"
    );
    assert_ne!(op["id"], second["id"]);
    assert_refused(
        &run_cli(
            dir.path(),
            &[
                "operator",
                "create",
                "--email",
                "ops@service.fr",
                "--name",
                "X",
                "--password",
                "motdepasse1",
            ],
        ),
        "déjà utilisée",
    );
}

#[test]
fn tokens_and_keys_have_their_forms_and_only_fingerprints_are_stored() {
    let dir = tempfile::tempdir().expect("dir");
    let org = init_org(dir.path(), "Org", "admin@org.fr");
    let token = cli_json(
        dir.path(),
        &[
            "token",
            "create",
            "--email",
            "ADMIN@org.fr",
            "--name",
            "Zapier",
        ],
    );
    assert_eq!(keys(&token), ["id", "token"]);
    let token_text = str_of(&token, "token").to_owned();
    assert!(secret::has_shape(&token_text, "svc_agent_"), "{token_text}");
    assert_eq!(token_text.len(), "svc_agent_".len() + 32);

    let key = cli_json(
        dir.path(),
        &[
            "call-center-key",
            "create",
            "--agency",
            &org.agency_id,
            "--name",
            "Astreinte Plus",
        ],
    );
    assert_eq!(keys(&key), ["id", "key"]);
    let key_text = str_of(&key, "key").to_owned();
    assert!(
        key_text.starts_with("svc_") && key_text.len() == 36,
        "{key_text}"
    );
    assert!(key_text[4..].bytes().all(|b| b.is_ascii_alphanumeric()));

    let partner = cli_json(
        dir.path(),
        &[
            "partner-key",
            "create",
            "--name",
            "GMAO",
            "--agency",
            &org.agency_id,
        ],
    );
    assert_eq!(keys(&partner), ["id", "key"]);
    let partner_text = str_of(&partner, "key").to_owned();
    assert!(
        secret::has_shape(&partner_text, "svc_partner_"),
        "{partner_text}"
    );

    // Each secret is stored as its SHA-256 fingerprint and nowhere in clear.
    let conn = open_db(dir.path());
    for (id, secret_text) in [
        (str_of(&token, "id"), token_text.as_str()),
        (str_of(&key, "id"), key_text.as_str()),
        (str_of(&partner, "id"), partner_text.as_str()),
    ] {
        let stored: String = conn
            .query_row(
                "SELECT fingerprint FROM credentials WHERE id = ?1",
                [id],
                |r| r.get(0),
            )
            .expect("credential");
        assert_eq!(stored, secret::fingerprint(secret_text));
    }
    drop(conn);
    let raw = common::engine::raw_bytes(dir.path());
    for secret_text in [&token_text, &key_text, &partner_text, &org.admin_token] {
        let needle = secret_text.as_bytes();
        assert!(
            !raw.windows(needle.len()).any(|w| w == needle),
            "a secret is in the database file in clear"
        );
    }
    let password = b"motdepasse-solide";
    assert!(
        !raw.windows(password.len()).any(|w| w == password),
        "a password is in the database file in clear"
    );

    // The call center exists and the key names it; the partner key has its agency.
    let conn = open_db(dir.path());
    let center: String = conn
        .query_row(
            "SELECT cc.name FROM credentials c JOIN call_centers cc ON cc.id = c.call_center_id WHERE c.id = ?1",
            [str_of(&key, "id")],
            |r| r.get(0),
        )
        .expect("center");
    assert_eq!(center, "Astreinte Plus");
    let attributed: String = conn
        .query_row(
            "SELECT agency_id FROM partner_key_agencies WHERE credential_id = ?1",
            [str_of(&partner, "id")],
            |r| r.get(0),
        )
        .expect("attribution");
    assert_eq!(attributed, org.agency_id);
}

#[test]
fn credential_commands_refuse_bad_input() {
    let dir = tempfile::tempdir().expect("dir");
    let org = init_org(dir.path(), "Org", "admin@org.fr");
    assert_refused(
        &run_cli(
            dir.path(),
            &["token", "create", "--email", "nobody@org.fr", "--name", "X"],
        ),
        "Aucun compte",
    );
    assert_refused(
        &run_cli(
            dir.path(),
            &["token", "create", "--email", "admin@org.fr", "--name", " "],
        ),
        "obligatoire",
    );
    let unknown_agency = "0190a0a0-0000-7000-8000-000000000000";
    assert_refused(
        &run_cli(
            dir.path(),
            &[
                "call-center-key",
                "create",
                "--agency",
                unknown_agency,
                "--name",
                "C",
            ],
        ),
        "Agence introuvable",
    );
    assert_refused(
        &run_cli(
            dir.path(),
            &[
                "partner-key",
                "create",
                "--name",
                "P",
                "--agency",
                unknown_agency,
            ],
        ),
        "Agence introuvable",
    );
    assert_refused(
        &run_cli(dir.path(), &["partner-key", "create", "--name", "P"]),
        "--agency",
    );
    assert_refused(
        &run_cli(
            dir.path(),
            &["call-center-key", "create", "--agency", &org.agency_id],
        ),
        "--name",
    );
}

#[test]
fn token_revoke_is_immediate_and_once() {
    let dir = tempfile::tempdir().expect("dir");
    let _org = init_org(dir.path(), "Org", "admin@org.fr");
    let token = cli_json(
        dir.path(),
        &["token", "create", "--email", "admin@org.fr", "--name", "X"],
    );
    let id = str_of(&token, "id");
    let revoked = cli_json(dir.path(), &["token", "revoke", "--id", id]);
    assert_eq!(revoked, serde_json::json!({ "id": id }));
    let conn = open_db(dir.path());
    let at: Option<String> = conn
        .query_row(
            "SELECT revoked_at FROM credentials WHERE id = ?1",
            [id],
            |r| r.get(0),
        )
        .expect("credential");
    assert!(at.is_some());
    assert_refused(
        &run_cli(dir.path(), &["token", "revoke", "--id", id]),
        "déjà révoqué",
    );
    assert_refused(
        &run_cli(dir.path(), &["token", "revoke", "--id", "inconnu"]),
        "introuvable",
    );
}

#[test]
fn data_dir_comes_from_the_environment_when_not_given() {
    let dir = tempfile::tempdir().expect("dir");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_liftdesk"))
        .args([
            "init",
            "--organization",
            "Env",
            "--agency",
            "A",
            "--admin-email",
            "env@org.fr",
            "--admin-password",
            "motdepasse1",
        ])
        .env("LIFTDESK_DATA_DIR", dir.path())
        .output()
        .expect("run");
    assert!(out.status.success(), "{}", stderr_of(&out));
    assert!(
        db_path(dir.path()).exists(),
        "the database is DIR/liftdesk.db"
    );
}

/// `serve` with one refused option value, given on the command line or by
/// its environment variable. The bind address is unusable so that a value
/// wrongly accepted ends the server at once instead of leaving it running.
fn serve_with(dir: &std::path::Path, args: &[&str], env: &[(&str, &str)]) -> std::process::Output {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_liftdesk"));
    command
        .arg("--data-dir")
        .arg(dir)
        .args(["serve", "--bind", "adresse-impossible"])
        .args(args)
        .env_remove("LIFTDESK_DATA_DIR")
        .env_remove("LIFTDESK_RATE_LIMIT")
        .env_remove("LIFTDESK_INSECURE_WEBHOOKS")
        .env_remove("LIFTDESK_WEBHOOK_RETRY_SCHEDULE")
        .env_remove("LIFTDESK_CONNECTIVITY_PROBE");
    for (name, value) in env {
        command.env(name, value);
    }
    command.output().expect("run liftdesk")
}

/// Exit 2, nothing on stdout, exactly this one French line; none of
/// clap's English.
fn assert_usage_error(out: &std::process::Output, line: &str) {
    assert_eq!(out.status.code(), Some(2), "{}", stderr_of(out));
    assert!(out.stdout.is_empty(), "nothing on stdout on failure");
    let err = stderr_of(out);
    assert_eq!(err, format!("Erreur : {line} Voir « liftdesk --help ».\n"));
    for english in [
        "error:",
        "invalid value",
        "invalid digit",
        "For more information",
        "Usage:",
        "a value is required",
    ] {
        assert!(
            !err.contains(english),
            "clap's English « {english} »: {err}"
        );
    }
}

/// The option (as clap shows it, with its value name) refused with the
/// validator's own reason, which quotes the value.
fn assert_value_refused(out: &std::process::Output, option: &str, reason: &str) {
    assert_usage_error(out, &format!("valeur invalide pour {option} : {reason}."));
}

#[test]
fn a_refused_serve_option_value_gives_the_validators_french_reason() {
    let dir = tempfile::tempdir().expect("dir");
    let cases: [(&[&str], &str, &str); 7] = [
        (
            &["--rate-limit", "abc"],
            "--rate-limit <LIMITE>",
            "« abc » n'est pas une limite valide (exemple : 600 ou 600/100)",
        ),
        (
            &["--rate-limit", "600/0"],
            "--rate-limit <LIMITE>",
            "« 600/0 » n'est pas une limite valide (exemple : 600 ou 600/100)",
        ),
        (
            &["--webhook-retry-schedule", "5x"],
            "--webhook-retry-schedule <DELAIS>",
            "délai « 5x » illisible : un nombre suivi de s, m, h ou d (par exemple 1m,5m,30m,2h,12h)",
        ),
        (
            &["--webhook-retry-schedule", "8d"],
            "--webhook-retry-schedule <DELAIS>",
            "délai « 8d » hors limites (de 1 s à 7 jours)",
        ),
        (
            &["--connectivity-probe", "ftp://x"],
            "--connectivity-probe <SONDE>",
            "sonde « ftp://x » illisible : route, off, tcp://hôte:port ou une adresse http(s)://",
        ),
        (
            &["--connectivity-probe", "tcp://hote-sans-port"],
            "--connectivity-probe <SONDE>",
            "sonde « tcp://hote-sans-port » illisible : route, off, tcp://hôte:port ou une adresse http(s)://",
        ),
        (
            &["--insecure-webhooks=peut-etre"],
            "--insecure-webhooks [<0_OU_1>]",
            "« peut-etre » n'est ni 1 ni 0",
        ),
    ];
    for (args, option, reason) in cases {
        assert_value_refused(&serve_with(dir.path(), args, &[]), option, reason);
    }
    // The same validators refuse a value given by the environment.
    assert_value_refused(
        &serve_with(dir.path(), &[], &[("LIFTDESK_RATE_LIMIT", "beaucoup")]),
        "--rate-limit <LIMITE>",
        "« beaucoup » n'est pas une limite valide (exemple : 600 ou 600/100)",
    );
    assert_value_refused(
        &serve_with(dir.path(), &[], &[("LIFTDESK_INSECURE_WEBHOOKS", "oui!")]),
        "--insecure-webhooks [<0_OU_1>]",
        "« oui! » n'est ni 1 ni 0",
    );
    // A reason that does not quote the whole value follows it.
    assert_usage_error(
        &serve_with(dir.path(), &["--webhook-retry-schedule", "1m,8d"], &[]),
        "valeur invalide pour --webhook-retry-schedule <DELAIS> : « 1m,8d » : délai « 8d » hors limites (de 1 s à 7 jours).",
    );
    let many = vec!["1m"; 21].join(",");
    assert_usage_error(
        &serve_with(dir.path(), &["--webhook-retry-schedule", &many], &[]),
        &format!(
            "valeur invalide pour --webhook-retry-schedule <DELAIS> : « {many} » : au plus 20 délais de nouvel essai."
        ),
    );
    // clap's own number parser speaks English: said again in French.
    assert_usage_error(
        &run_cli(dir.path(), &["demo", "--seed", "abc"]),
        "valeur invalide pour --seed <GRAINE> : « abc » : un nombre entier positif est attendu (chiffres seulement).",
    );
    assert_usage_error(
        &run_cli(dir.path(), &["demo", "--seed", "99999999999999999999999"]),
        "valeur invalide pour --seed <GRAINE> : « 99999999999999999999999 » : nombre hors des limites acceptées.",
    );
    // An enumerated value (no validator of ours) lists the possible ones.
    assert_usage_error(
        &run_cli(dir.path(), &["demo", "--size", "enorme"]),
        "valeur invalide pour --size <TAILLE> : « enorme » (valeurs possibles : small, large).",
    );
    // An option left without its value.
    assert_usage_error(
        &serve_with(dir.path(), &["--rate-limit"], &[]),
        "l'argument --rate-limit <LIMITE> attend une valeur.",
    );
    // Nothing was started nor created by a refused command line.
    assert!(!db_path(dir.path()).exists());
}

/// The help of `liftdesk` and of every command under it (found from the
/// « Commandes » of each help, not listed here): in French, each option
/// with its description, none of clap's English frame.
#[test]
fn every_help_is_in_french_and_describes_every_option() {
    let dir = tempfile::tempdir().expect("dir");
    let mut pending: Vec<Vec<String>> = vec![Vec::new()];
    let mut seen = 0;
    while let Some(path) = pending.pop() {
        let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
        args.push("--help");
        let out = run_cli(dir.path(), &args);
        assert_eq!(out.status.code(), Some(0), "{path:?}: {}", stderr_of(&out));
        let help = String::from_utf8(out.stdout).expect("utf-8");
        seen += 1;
        let usage = format!("Utilisation : liftdesk {}", path.join(" "));
        assert!(help.contains(usage.trim_end()), "{path:?}:\n{help}");
        for english in [
            "Usage:",
            "Commands:",
            "Print help",
            "Print version",
            "[env:",
            "[default:",
            "[possible values:",
            "<COMMAND>",
            "<NAME>",
            "<PASSWORD>",
            "<ORGANIZATION>",
            "<AGENCY>",
        ] {
            assert!(
                !help.contains(english),
                "{path:?}: « {english} » in\n{help}"
            );
        }
        let mut section = "";
        let mut lines = help.lines().peekable();
        while let Some(line) = lines.next() {
            if !line.starts_with(' ') && line.ends_with(':') {
                section = line;
                continue;
            }
            let entry = line.trim_start();
            if entry.is_empty() || line == entry {
                continue;
            }
            // « -h, --help  Affiche cette aide », « init  Crée … »: a name,
            // two spaces or more, then the description; or, when the texts
            // are long, the name alone and its description on the next
            // line, indented further.
            let (name, description) = match entry.split_once("  ") {
                Some(inline) => inline,
                None => {
                    let next = lines.next().unwrap_or_default();
                    let indent = |l: &str| l.len() - l.trim_start().len();
                    assert!(
                        indent(next) > indent(line),
                        "{path:?}: « {entry} » has no description"
                    );
                    (entry, next)
                }
            };
            assert!(!description.trim().is_empty(), "{path:?}: « {entry} »");
            if section == "Commandes:" {
                let mut sub = path.clone();
                sub.push(name.trim().to_owned());
                pending.push(sub);
            }
        }
    }
    // liftdesk, its 12 commands and the 12 actions under them.
    assert_eq!(seen, 25);
    let out = run_cli(dir.path(), &["demo", "--help"]);
    let help = String::from_utf8(out.stdout).expect("utf-8");
    assert!(help.contains("--size <TAILLE>"), "{help}");
    assert!(help.contains("(par défaut : small)"), "{help}");
    assert!(help.contains("(par défaut : 1)"), "{help}");
    let out = run_cli(dir.path(), &["serve", "--help"]);
    let help = String::from_utf8(out.stdout).expect("utf-8");
    assert!(help.contains("(variable LIFTDESK_RATE_LIMIT)"), "{help}");
    assert!(
        help.contains(&format!(
            "(par défaut : {})",
            liftdesk::config::DEFAULT_BIND
        )),
        "{help}"
    );
    assert!(help.contains("-h, --help"), "{help}");
    // The password's stated minimum is the one enforced.
    let minimum = format!(
        "({} caractères au moins)",
        liftdesk::auth::password::MIN_PASSWORD_LENGTH
    );
    for command in [
        &["init", "--help"][..],
        &["user", "create", "--help"],
        &["operator", "create", "--help"],
    ] {
        let out = run_cli(dir.path(), command);
        let help = String::from_utf8(out.stdout).expect("utf-8");
        assert!(help.contains(&minimum), "{command:?}: {help}");
    }
    // Nothing was created by asking for help.
    assert!(!db_path(dir.path()).exists());
}
