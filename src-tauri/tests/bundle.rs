//! The desktop bundle's static inputs: every icon listed in tauri.conf.json
//! exists, and each PNG is RGBA (Tauri's `generate_context!` refuses others).
//! Being an integration test also makes `cargo test --workspace` build the
//! `liftdesk-desktop` binary that the desktop test drives.

use std::path::Path;

fn manifest_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn listed_icons() -> Vec<String> {
    let text =
        std::fs::read_to_string(manifest_dir().join("tauri.conf.json")).expect("tauri.conf.json");
    let conf: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
    conf["bundle"]["icon"]
        .as_array()
        .expect("bundle.icon list")
        .iter()
        .filter_map(|v| v.as_str().map(str::to_owned))
        .collect()
}

#[test]
fn every_listed_icon_exists_and_pngs_are_rgba() {
    let icons = listed_icons();
    assert!(
        icons.iter().any(|i| i.ends_with(".png")),
        "PNG icons expected: {icons:?}"
    );
    assert!(
        icons.iter().any(|i| i.ends_with(".ico")) && icons.iter().any(|i| i.ends_with(".icns"))
    );
    for icon in &icons {
        let bytes =
            std::fs::read(manifest_dir().join(icon)).unwrap_or_else(|e| panic!("{icon}: {e}"));
        if icon.ends_with(".png") {
            assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "{icon} is not a PNG");
            assert_eq!(&bytes[12..16], b"IHDR");
            // IHDR: width, height, bit depth, then colour type 6 = RGBA.
            assert_eq!(bytes[25], 6, "{icon} is not RGBA");
        }
    }
}

#[test]
fn the_identity_is_liftdesk() {
    let text =
        std::fs::read_to_string(manifest_dir().join("tauri.conf.json")).expect("tauri.conf.json");
    let conf: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
    assert_eq!(conf["productName"], "Liftdesk");
    assert_eq!(conf["identifier"], "fr.liftdesk.app");
}
