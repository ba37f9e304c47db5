//! clap's usage errors, said in French.

use std::io::Write;
use std::process::ExitCode;

use clap::error::{ContextKind, ContextValue, ErrorKind};

fn context(err: &clap::Error, kind: ContextKind) -> String {
    match err.get(kind) {
        Some(ContextValue::String(s)) => s.clone(),
        Some(ContextValue::Strings(list)) => list.join(", "),
        Some(other) => other.to_string(),
        None => String::new(),
    }
}

/// The reason of a refused value: our validators' own French text; the
/// standard library's number parsers (clap's for `--seed`) speak English,
/// so their reasons are said again in French.
fn french_reason(source: &(dyn std::error::Error + 'static)) -> String {
    use std::num::IntErrorKind;
    if let Some(err) = source.downcast_ref::<std::num::ParseIntError>() {
        return match err.kind() {
            IntErrorKind::PosOverflow | IntErrorKind::NegOverflow => {
                "nombre hors des limites acceptées".to_owned()
            }
            IntErrorKind::Empty => "un nombre entier est attendu".to_owned(),
            _ => "un nombre entier positif est attendu (chiffres seulement)".to_owned(),
        };
    }
    if source.is::<std::num::ParseFloatError>() {
        return "un nombre est attendu".to_owned();
    }
    if source.is::<std::str::ParseBoolError>() {
        return "true ou false est attendu".to_owned();
    }
    source.to_string()
}

/// The help's frame in French: clap's own says `Usage:`.
const HELP_TEMPLATE: &str =
    "{before-help}{about-with-newline}\nUtilisation : {usage}\n\n{all-args}{after-help}";

/// Parses the command line with the help in French (see [`french`]).
pub fn parse() -> Result<super::Cli, clap::Error> {
    use clap::{CommandFactory, FromArgMatches};
    let mut command = french(super::Cli::command(), true);
    let matches = command.try_get_matches_from_mut(std::env::args_os())?;
    super::Cli::from_arg_matches(&matches).map_err(|err| err.format(&mut command))
}

/// The command and its subcommands with their help in French: headings,
/// the help and version flags, and what clap appends to an option's text
/// (`[default: …]`, `[env: …]`, `[possible values: …]`) said in the text.
pub fn french(command: clap::Command, root: bool) -> clap::Command {
    use clap::{Arg, ArgAction};
    let mut command = command
        .help_template(HELP_TEMPLATE)
        .subcommand_help_heading("Commandes")
        .subcommand_value_name("COMMANDE")
        .disable_help_flag(true)
        .arg(
            Arg::new("aide")
                .short('h')
                .long("help")
                .action(ArgAction::Help)
                .help("Affiche cette aide"),
        );
    if root {
        command = command.disable_version_flag(true).arg(
            Arg::new("version")
                .short('V')
                .long("version")
                .action(ArgAction::Version)
                .help("Affiche la version"),
        );
    }
    command
        .mut_args(|arg| {
            // A flag (--admin, --help…) shows nothing clap would append;
            // `--insecure-webhooks` is a flag that also takes a value.
            if !arg.get_action().takes_values() && arg.get_num_args().is_none() {
                return arg;
            }
            let mut notes = Vec::new();
            let defaults: Vec<String> = arg
                .get_default_values()
                .iter()
                .map(|v| v.to_string_lossy().into_owned())
                .collect();
            if !defaults.is_empty() {
                notes.push(format!("par défaut : {}", defaults.join(", ")));
            }
            if let Some(env) = arg.get_env() {
                notes.push(format!("variable {}", env.to_string_lossy()));
            }
            let help = arg.get_help().map(ToString::to_string).unwrap_or_default();
            let help = if notes.is_empty() {
                help
            } else {
                format!("{help} ({})", notes.join(" ; "))
            };
            arg.help(help)
                .hide_default_value(true)
                .hide_env(true)
                .hide_possible_values(true)
        })
        .mut_subcommands(|sub| french(sub, false))
}

/// Prints help and version as clap does; every other error in French (exit 2).
pub fn report(err: clap::Error) -> ExitCode {
    match err.kind() {
        ErrorKind::DisplayHelp
        | ErrorKind::DisplayVersion
        | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = err.print();
            return if err.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
        _ => {}
    }
    let arg = context(&err, ContextKind::InvalidArg);
    let value = context(&err, ContextKind::InvalidValue);
    let message = match err.kind() {
        ErrorKind::MissingRequiredArgument => format!("argument obligatoire manquant : {arg}."),
        ErrorKind::MissingSubcommand => "commande manquante.".to_owned(),
        ErrorKind::InvalidSubcommand => format!(
            "commande inconnue : « {} ».",
            context(&err, ContextKind::InvalidSubcommand)
        ),
        ErrorKind::UnknownArgument => format!("argument inconnu : « {arg} »."),
        ErrorKind::InvalidValue => {
            let valid = context(&err, ContextKind::ValidValue);
            if value.is_empty() && valid.is_empty() {
                format!("l'argument {arg} attend une valeur.")
            } else if valid.is_empty() {
                format!("valeur invalide pour {arg} : « {value} ».")
            } else {
                format!("valeur invalide pour {arg} : « {value} » (valeurs possibles : {valid}).")
            }
        }
        ErrorKind::ValueValidation => match std::error::Error::source(&err).map(french_reason) {
            // The reason already quotes the value: not twice.
            Some(reason) if reason.contains(&format!("« {value} »")) => {
                format!("valeur invalide pour {arg} : {reason}.")
            }
            Some(reason) => format!("valeur invalide pour {arg} : « {value} » : {reason}."),
            None => format!("valeur invalide pour {arg} : « {value} »."),
        },
        ErrorKind::ArgumentConflict => format!("argument incompatible avec un autre : {arg}."),
        ErrorKind::TooManyValues | ErrorKind::WrongNumberOfValues => {
            format!("nombre de valeurs incorrect pour {arg}.")
        }
        ErrorKind::NoEquals => format!("l'argument {arg} attend une valeur."),
        _ => "ligne de commande invalide.".to_owned(),
    };
    let _ = writeln!(
        std::io::stderr(),
        "Erreur : {message} Voir « liftdesk --help »."
    );
    ExitCode::from(2)
}
