//! `LIFTDESK_PORT`: a port forced from the environment (tests, a second
//! installation), which wins over `settings.json`. Binding, the fallback to a
//! free port and its French message are the core's
//! (`liftdesk::server::bind_with_fallback`).

/// `$LIFTDESK_PORT` if set (0 = any free port), else none: the settings' port.
pub fn env_override() -> anyhow::Result<Option<u16>> {
    parse(std::env::var("LIFTDESK_PORT").ok().as_deref())
}

fn parse(value: Option<&str>) -> anyhow::Result<Option<u16>> {
    match value.map(str::trim) {
        Some(value) if !value.is_empty() => value.parse().map(Some).map_err(|_| {
            anyhow::anyhow!(
                "LIFTDESK_PORT invalide : « {value} » (attendu : un numéro de port entre 0 et 65535)."
            )
        }),
        _ => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_environment_port_is_optional_and_zero_means_any() {
        assert_eq!(parse(None).unwrap(), None);
        assert_eq!(parse(Some(" ")).unwrap(), None);
        assert_eq!(parse(Some("0")).unwrap(), Some(0));
        assert_eq!(parse(Some(" 9123 ")).unwrap(), Some(9123));
        let err = parse(Some("huit")).unwrap_err().to_string();
        assert!(err.contains("LIFTDESK_PORT invalide"), "{err}");
    }
}
