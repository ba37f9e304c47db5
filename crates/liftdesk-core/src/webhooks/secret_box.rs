//! Signing secrets at rest. A webhook secret must be readable to sign (it is
//! a signing key, not a password), so it is stored encrypted with
//! ChaCha20-Poly1305 under a key of the data directory (`webhook-secret.key`,
//! 32 random bytes, mode 0600): a copy of the database alone reveals no
//! secret. The subscription id is the associated data, so a ciphertext moved
//! to another row does not decrypt.

use std::path::Path;

use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{ChaCha20Poly1305, Key, Nonce};

use crate::auth::secret;

pub const KEY_FILE: &str = "webhook-secret.key";
const NONCE_BYTES: usize = 12;

pub struct SecretBox {
    cipher: ChaCha20Poly1305,
}

impl std::fmt::Debug for SecretBox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SecretBox(..)")
    }
}

impl SecretBox {
    pub fn new(key: &secret::Key) -> Self {
        Self {
            cipher: ChaCha20Poly1305::new(Key::from_slice(key)),
        }
    }

    /// The key of the data directory, created on first use.
    pub fn load(data_dir: &Path) -> std::io::Result<Self> {
        Ok(Self::new(&secret::load_or_create_key_file(
            &data_dir.join(KEY_FILE),
        )?))
    }

    /// The key of the store's data directory; should it be unreadable, None
    /// and the cause logged (what needs it is then refused, nothing else).
    pub fn of_store(store: &crate::store::Store) -> Option<Self> {
        match Self::load(store.data_dir()) {
            Ok(secrets) => Some(secrets),
            Err(err) => {
                tracing::error!(error = %err, "clé des secrets du dossier de données illisible");
                None
            }
        }
    }

    /// `nonce ‖ ciphertext` of the secret, bound to the subscription.
    pub fn seal(&self, subscription_id: &str, plain: &str) -> anyhow::Result<Vec<u8>> {
        let mut nonce = [0u8; NONCE_BYTES];
        getrandom::fill(&mut nonce)
            .map_err(|err| anyhow::anyhow!("générateur aléatoire indisponible : {err}"))?;
        let sealed = self
            .cipher
            .encrypt(
                Nonce::from_slice(&nonce),
                Payload {
                    msg: plain.as_bytes(),
                    aad: subscription_id.as_bytes(),
                },
            )
            .map_err(|_| anyhow::anyhow!("chiffrement du secret impossible"))?;
        let mut out = nonce.to_vec();
        out.extend_from_slice(&sealed);
        Ok(out)
    }

    /// The secret, or None if the blob was not sealed with this key for
    /// this subscription.
    pub fn open(&self, subscription_id: &str, sealed: &[u8]) -> Option<String> {
        if sealed.len() <= NONCE_BYTES {
            return None;
        }
        let (nonce, ciphertext) = sealed.split_at(NONCE_BYTES);
        let plain = self
            .cipher
            .decrypt(
                Nonce::from_slice(nonce),
                Payload {
                    msg: ciphertext,
                    aad: subscription_id.as_bytes(),
                },
            )
            .ok()?;
        String::from_utf8(plain).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seals_and_opens_only_with_its_key_and_subscription() {
        let sealed_box = SecretBox::new(&[3u8; 32]);
        let sealed = sealed_box.seal("sub-1", "whsec_abc").expect("seal");
        assert!(
            !sealed.windows(9).any(|w| w == b"whsec_abc"),
            "not in clear"
        );
        assert_eq!(
            sealed_box.open("sub-1", &sealed).as_deref(),
            Some("whsec_abc")
        );
        assert_eq!(sealed_box.open("sub-2", &sealed), None);
        assert_eq!(SecretBox::new(&[4u8; 32]).open("sub-1", &sealed), None);
        assert_eq!(sealed_box.open("sub-1", &sealed[..10]), None);
        let again = sealed_box.seal("sub-1", "whsec_abc").expect("seal");
        assert_ne!(sealed, again, "a fresh nonce each time");
    }
}
