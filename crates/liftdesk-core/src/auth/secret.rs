//! Secrets (tokens, keys, session cookies) and their fingerprints.

use sha2::{Digest, Sha256};

/// `svc_agent_` + 32 characters: opens the REST API v2 and the MCP server.
pub const API_TOKEN_PREFIX: &str = "svc_agent_";
/// `svc_` + 32 characters: opens the call-center API of one agency.
pub const CALL_CENTER_KEY_PREFIX: &str = "svc_";
/// `svc_partner_` + 32 characters: the partner workflow API's `x-api-key`.
pub const PARTNER_KEY_PREFIX: &str = "svc_partner_";
/// Length of the random part of every key and token.
pub const SECRET_LENGTH: usize = 32;

const ALPHABET: &[u8; 62] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/// `length` alphanumeric characters from the operating system's random
/// generator, without modulo bias (bytes of 248 and above are redrawn).
pub fn random_alphanumeric(length: usize) -> Result<String, getrandom::Error> {
    let mut out = String::with_capacity(length);
    let mut buf = [0u8; 64];
    while out.len() < length {
        getrandom::fill(&mut buf)?;
        for &byte in &buf {
            if out.len() == length {
                break;
            }
            if usize::from(byte) < ALPHABET.len() * 4 {
                out.push(char::from(ALPHABET[usize::from(byte) % ALPHABET.len()]));
            }
        }
    }
    Ok(out)
}

/// A new secret: the prefix followed by 32 random alphanumeric characters.
pub fn generate(prefix: &str) -> anyhow::Result<String> {
    let random = random_alphanumeric(SECRET_LENGTH)
        .map_err(|err| anyhow::anyhow!("générateur aléatoire du système indisponible : {err}"))?;
    Ok(format!("{prefix}{random}"))
}

/// SHA-256 of the secret, lowercase hex: the only form a secret is stored in.
pub fn fingerprint(secret: &str) -> String {
    fingerprint_bytes(secret.as_bytes())
}

/// SHA-256 of `bytes`, lowercase hex (a key file's fingerprint).
pub fn fingerprint_bytes(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let digest = Sha256::digest(bytes);
    // Computed at every authenticated request: no formatting machinery.
    let mut hex = String::with_capacity(64);
    for byte in digest {
        hex.push(char::from(DIGITS[usize::from(byte >> 4)]));
        hex.push(char::from(DIGITS[usize::from(byte & 0x0f)]));
    }
    hex
}

/// Whether `text` has the shape `prefix` + 32 alphanumeric characters.
pub fn has_shape(text: &str, prefix: &str) -> bool {
    text.strip_prefix(prefix).is_some_and(|rest| {
        rest.len() == SECRET_LENGTH && rest.bytes().all(|b| b.is_ascii_alphanumeric())
    })
}

/// Length of the server's own keys (sheet links, webhook secrets at rest).
pub const KEY_BYTES: usize = 32;
pub type Key = [u8; KEY_BYTES];

/// 32 random bytes from the OS.
pub fn random_key() -> std::io::Result<Key> {
    let mut key = [0u8; KEY_BYTES];
    getrandom::fill(&mut key).map_err(std::io::Error::other)?;
    Ok(key)
}

/// Reads a key file of the data directory, creating it (mode 0600, 32
/// random bytes) on first use; a file of another length is an error, never
/// silently replaced (what it protects would become unreadable).
pub fn load_or_create_key_file(path: &std::path::Path) -> std::io::Result<Key> {
    use std::io::Write;
    let from_bytes = |bytes: Vec<u8>| {
        Key::try_from(bytes.as_slice()).map_err(|_| {
            std::io::Error::other(format!(
                "la clé {} n'a pas {KEY_BYTES} octets",
                path.display()
            ))
        })
    };
    if let Ok(bytes) = std::fs::read(path) {
        return from_bytes(bytes);
    }
    let key = random_key()?;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    match options.open(path) {
        Ok(mut file) => {
            file.write_all(&key)?;
            file.sync_all()?;
            Ok(key)
        }
        // Created meanwhile by another process: use that one.
        Err(err) if err.kind() == std::io::ErrorKind::AlreadyExists => {
            from_bytes(std::fs::read(path)?)
        }
        Err(err) => Err(err),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_secrets_have_the_documented_shape() {
        let token = generate(API_TOKEN_PREFIX).expect("random");
        assert!(has_shape(&token, API_TOKEN_PREFIX), "{token}");
        let key = generate(CALL_CENTER_KEY_PREFIX).expect("random");
        assert_eq!(key.len(), 4 + 32);
        assert!(has_shape(&key, CALL_CENTER_KEY_PREFIX));
        assert_ne!(generate(API_TOKEN_PREFIX).expect("random"), token);
    }

    #[test]
    fn fingerprint_is_sha256_hex() {
        assert_eq!(
            fingerprint("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn shape_check_refuses_other_forms() {
        assert!(!has_shape("svc_agent_short", API_TOKEN_PREFIX));
        assert!(!has_shape(
            &format!("svc_agent_{}", "é".repeat(16)),
            API_TOKEN_PREFIX
        ));
        assert!(!has_shape(
            &format!("svc_{}", "a".repeat(33)),
            CALL_CENTER_KEY_PREFIX
        ));
    }
}
