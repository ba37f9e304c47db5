// The migrations are embedded by refinery's macro, which cargo does not
// watch: rebuild the crate when one is added or changed.
fn main() {
    println!("cargo:rerun-if-changed=migrations");
}
