//! Password hashing with Argon2id (the crate's recommended parameters).

use argon2::Argon2;
use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};

use crate::error::AppError;

/// Shortest password accepted for a staff account.
pub const MIN_PASSWORD_LENGTH: usize = 8;

pub fn check_strength(password: &str) -> Result<(), AppError> {
    if password.chars().count() < MIN_PASSWORD_LENGTH {
        return Err(AppError::unprocessable(format!(
            "Le mot de passe doit comporter au moins {MIN_PASSWORD_LENGTH} caractères."
        )));
    }
    Ok(())
}

pub fn hash(password: &str) -> anyhow::Result<String> {
    let salt = SaltString::generate(&mut OsRng);
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|err| anyhow::anyhow!("hachage du mot de passe impossible : {err}"))
}

/// False for a wrong password and for an unreadable stored hash.
pub fn verify(password: &str, stored_hash: &str) -> bool {
    match PasswordHash::new(stored_hash) {
        Ok(parsed) => Argon2::default()
            .verify_password(password.as_bytes(), &parsed)
            .is_ok(),
        Err(_) => false,
    }
}

/// A hash to verify against when the email is unknown, so that sign-in takes
/// the same time whether or not the account exists.
pub fn decoy_hash() -> &'static str {
    static DECOY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DECOY.get_or_init(|| hash("liftdesk-decoy-password").unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_then_verify() {
        let stored = hash("correct horse").expect("hash");
        assert!(stored.starts_with("$argon2id$"));
        assert!(verify("correct horse", &stored));
        assert!(!verify("wrong horse", &stored));
        assert!(!verify("correct horse", "not a hash"));
    }
}
