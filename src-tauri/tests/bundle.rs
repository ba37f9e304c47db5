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

fn conf() -> serde_json::Value {
    let text =
        std::fs::read_to_string(manifest_dir().join("tauri.conf.json")).expect("tauri.conf.json");
    serde_json::from_str(&text).expect("valid JSON")
}

/// The window and tray icon is the first PNG listed (tauri-codegen): the largest.
#[test]
fn the_first_png_is_the_largest() {
    let icons = listed_icons();
    let first = icons.iter().find(|i| i.ends_with(".png")).expect("a PNG");
    assert!(first.ends_with("icon.png"), "{first}");
}

#[test]
fn png_icons_cover_the_hicolor_sizes_and_match_their_names() {
    let mut sizes = Vec::new();
    for icon in listed_icons().iter().filter(|i| i.ends_with(".png")) {
        let bytes = std::fs::read(manifest_dir().join(icon)).expect("icon");
        let width = u32::from_be_bytes(bytes[16..20].try_into().unwrap());
        let height = u32::from_be_bytes(bytes[20..24].try_into().unwrap());
        assert_eq!(width, height, "{icon} is not square");
        let name = Path::new(icon).file_stem().unwrap().to_str().unwrap();
        if let Some((w, rest)) = name.split_once('x') {
            let scale = if rest.ends_with("@2x") { 2 } else { 1 };
            assert_eq!(width, w.parse::<u32>().unwrap() * scale, "{icon}");
        }
        sizes.push(width);
    }
    for size in [16, 24, 32, 48, 64, 128, 256, 512] {
        assert!(sizes.contains(&size), "{size}px icon missing: {sizes:?}");
    }
}

#[test]
fn the_debian_package_is_described_in_french() {
    let conf = conf();
    let bundle = &conf["bundle"];
    let targets: Vec<&str> = bundle["targets"]
        .as_array()
        .expect("bundle.targets")
        .iter()
        .filter_map(|t| t.as_str())
        .collect();
    assert!(
        targets.contains(&"deb") && targets.contains(&"appimage"),
        "{targets:?}"
    );
    assert!(bundle["publisher"].as_str().is_some_and(|p| !p.is_empty()));
    assert!(
        bundle["shortDescription"]
            .as_str()
            .is_some_and(|d| d.contains("ascenseurs"))
    );
    // The bundler adds libwebkit2gtk-4.1-0, libgtk-3-0 and (tray-icon)
    // libayatana-appindicator3-1 itself: listing them again duplicates them.
    let deb = &bundle["linux"]["deb"];
    assert!(deb.get("depends").is_none(), "{deb}");
    let template = deb["desktopTemplate"].as_str().expect("desktopTemplate");
    let desktop = std::fs::read_to_string(manifest_dir().join(template)).expect("desktop file");
    assert!(desktop.contains("Categories=Office;Utility;"), "{desktop}");
    assert!(desktop.contains("Comment=Appels de panne"), "{desktop}");
}

#[test]
fn the_bundled_page_csp_allows_only_its_own_files_and_tauri_ipc() {
    let csp = &conf()["app"]["security"]["csp"];
    let directives = csp.as_object().expect("CSP as directives");
    for (name, value) in directives {
        let value = value.as_str().expect("directive text");
        for source in value.split_whitespace() {
            assert!(
                matches!(
                    source,
                    "'self'" | "'none'" | "data:" | "ipc:" | "http://ipc.localhost"
                ),
                "{name}: {source} is more than the bundled page needs"
            );
        }
    }
    assert_eq!(directives["default-src"], "'self'");
    assert_eq!(directives["object-src"], "'none'");
    assert_eq!(directives["frame-ancestors"], "'none'");
}
