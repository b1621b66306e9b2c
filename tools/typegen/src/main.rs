//! `cargo run -p cirrus-typegen`: rewrites every generated file from the Rust types
//! (js/generated/, src/generated/schema.rs) and names the ones that changed.

fn main() {
    let changed = cirrus_typegen::write();
    if changed.is_empty() {
        println!("typegen: every generated file is up to date");
    } else {
        println!("typegen: rewrote {}", changed.join(", "));
    }
}
