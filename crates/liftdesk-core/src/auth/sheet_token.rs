//! Single-use equipment sheet tokens: `{sheet_id}.{hex HMAC-SHA256}`, the
//! MAC binding the sheet id to its agency and equipment, with a server
//! secret kept in the data directory (`sheet-secret.key`, 32 random bytes
//! from the OS, mode 0600, created on first use). Verification is in
//! constant time (`Mac::verify_slice`).

use crate::domain::id::{AgencyId, EquipmentId};
use std::path::Path;

use hmac::{Hmac, Mac};
use sha2::Sha256;

pub const SECRET_FILE: &str = "sheet-secret.key";
pub const SECRET_BYTES: usize = crate::auth::secret::KEY_BYTES;

pub type SheetSecret = crate::auth::secret::Key;

/// Reads the secret of the data directory, creating it (0600) on first use.
pub fn load_or_create_secret(data_dir: &Path) -> std::io::Result<SheetSecret> {
    crate::auth::secret::load_or_create_key_file(&data_dir.join(SECRET_FILE))
}

/// 32 random bytes from the OS.
pub fn random_secret() -> std::io::Result<SheetSecret> {
    crate::auth::secret::random_key()
}

fn mac(
    secret: &SheetSecret,
    sheet_id: &str,
    agency_id: &AgencyId,
    equipment_id: &EquipmentId,
) -> Hmac<Sha256> {
    // HMAC accepts keys of any length: this cannot fail.
    let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(secret)
        .unwrap_or_else(|_| unreachable!("HMAC accepte toute longueur de clé"));
    mac.update(format!("fiche\n{sheet_id}\n{agency_id}\n{equipment_id}").as_bytes());
    mac
}

/// The token of a sheet.
pub fn sign(
    secret: &SheetSecret,
    sheet_id: &str,
    agency_id: &AgencyId,
    equipment_id: &EquipmentId,
) -> String {
    let tag = mac(secret, sheet_id, agency_id, equipment_id)
        .finalize()
        .into_bytes();
    let hex: String = tag.iter().map(|b| format!("{b:02x}")).collect();
    format!("{sheet_id}.{hex}")
}

/// The sheet id a token names (not yet verified).
pub fn sheet_id_of(token: &str) -> Option<&str> {
    let (id, tag) = token.split_once('.')?;
    (!id.is_empty() && id.len() <= 64 && tag.len() == 64).then_some(id)
}

/// Whether the token is the sheet's own, in constant time.
pub fn verify(
    secret: &SheetSecret,
    token: &str,
    sheet_id: &str,
    agency_id: &AgencyId,
    equipment_id: &EquipmentId,
) -> bool {
    let Some((id, tag_hex)) = token.split_once('.') else {
        return false;
    };
    if id != sheet_id || tag_hex.len() != 64 {
        return false;
    }
    let mut tag = [0u8; 32];
    for (i, byte) in tag.iter_mut().enumerate() {
        match u8::from_str_radix(tag_hex.get(2 * i..2 * i + 2).unwrap_or("zz"), 16) {
            Ok(value) => *byte = value,
            Err(_) => return false,
        }
    }
    mac(secret, sheet_id, agency_id, equipment_id)
        .verify_slice(&tag)
        .is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_verifies_only_for_its_sheet_and_equipment() {
        let secret = [7u8; 32];
        let a1 = AgencyId::new("a1");
        let token = sign(&secret, "s1", &a1, &EquipmentId::new("e1"));
        assert_eq!(sheet_id_of(&token), Some("s1"));
        assert!(verify(&secret, &token, "s1", &a1, &EquipmentId::new("e1")));
        assert!(!verify(&secret, &token, "s1", &a1, &EquipmentId::new("e2")));
        assert!(!verify(&secret, &token, "s2", &a1, &EquipmentId::new("e1")));
        assert!(!verify(
            &[8u8; 32],
            &token,
            "s1",
            &a1,
            &EquipmentId::new("e1")
        ));
        let mut forged = token.clone();
        forged.pop();
        forged.push('0');
        assert!(
            !verify(&secret, &forged, "s1", &a1, &EquipmentId::new("e1")) || token.ends_with('0')
        );
        assert!(!verify(
            &secret,
            "s1.zz",
            "s1",
            &a1,
            &EquipmentId::new("e1")
        ));
    }

    #[test]
    fn the_secret_is_created_once_with_mode_0600() {
        let dir = std::env::temp_dir().join(format!("liftdesk-secret-{}", crate::store::new_id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let first = load_or_create_secret(&dir).expect("secret");
        let second = load_or_create_secret(&dir).expect("secret");
        assert_eq!(first, second);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(dir.join(SECRET_FILE))
                .expect("metadata")
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
