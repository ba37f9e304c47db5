// The UI is embedded from ui/dist; make sure the folder exists so the crate
// builds before the UI does (the server then says the UI is not built).
fn main() {
    let dist = std::path::Path::new("ui/dist");
    if !dist.exists() {
        let _ = std::fs::create_dir_all(dist);
    }
    println!("cargo:rerun-if-changed=ui/dist");
}
