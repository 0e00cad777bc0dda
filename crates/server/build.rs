//! Embeds the web client (`web/` at the workspace root) in the binary, so `serve` needs
//! no files beside it: writes `$OUT_DIR/web_files.rs` with every served file's path, bytes
//! and a content tag for `ETag`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Files under `web/` that are sources for people, not pages.
fn served(path: &Path) -> bool {
    !matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("md") | Some("ts")
    )
}

fn walk(dir: &Path, found: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            walk(&path, found);
        } else if served(&path) {
            found.push(path);
        }
    }
}

/// FNV-1a: a stable tag of a file's bytes (not a security measure).
fn tag(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"))
        .join("../../web")
        .canonicalize()
        .expect("the web client lives in web/ at the workspace root");
    println!("cargo:rerun-if-changed={}", root.display());
    let mut files = Vec::new();
    walk(&root, &mut files);
    files.sort();
    let mut out = String::from(
        "/// (path under web/, bytes, content tag)\npub static FILES: &[(&str, &[u8], u64)] = &[\n",
    );
    for file in &files {
        println!("cargo:rerun-if-changed={}", file.display());
        let relative = file
            .strip_prefix(&root)
            .expect("walked under root")
            .to_string_lossy()
            .replace('\\', "/");
        let bytes = std::fs::read(file).expect("a file just listed");
        writeln!(
            out,
            "    ({relative:?}, include_bytes!({:?}), {}),",
            file.display().to_string(),
            tag(&bytes)
        )
        .expect("writing to a string");
    }
    out.push_str("];\n");
    let target =
        PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it")).join("web_files.rs");
    std::fs::write(target, out).expect("OUT_DIR is writable");
}
