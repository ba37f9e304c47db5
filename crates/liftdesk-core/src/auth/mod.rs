//! The secrets of credentials, as the operations make and check them:
//! random secrets and their SHA-256 fingerprints (`secret`), argon2
//! passwords (`password`), the signed links of the lift-sheet pages
//! (`sheet_token`). Who calls, and through which credential, is the front
//! doors' (the root crate's `auth`).

pub mod password;
pub mod secret;
pub mod shared_keys;
pub mod sheet_token;
