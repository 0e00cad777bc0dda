//! Embeds the web client (`web/` at the workspace root) in the binary, so `serve` needs
//! no files beside it: writes `$OUT_DIR/web_files.rs` with every served file's path, bytes
//! and a content tag for `ETag`.
//!
//! The rules pages are not in `web/`: each `docs/rules/<id>.md` (the rules as the project
//! plays them, which tests cite) is converted here to the HTML fragment the client fetches
//! as `/static/rules/<id>.html`, so players read exactly what the tests follow; each
//! translation `docs/rules/<language>/<id>.md` becomes `/static/rules/<language>/<id>.html`.

use pulldown_cmark::{Alignment, CowStr, Event, HeadingLevel, Options, Parser, Tag, TagEnd};
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

/// The rules pages: `(id, path)` for every `docs/rules/<id>.md` but the README.
fn rules_pages(dir: &Path) -> Vec<(String, PathBuf)> {
    let mut pages: Vec<(String, PathBuf)> = std::fs::read_dir(dir)
        .expect("the rules pages live in docs/rules/")
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.extension().and_then(|e| e.to_str()) == Some("md"))
        .filter_map(|path| {
            let id = path.file_stem()?.to_str()?.to_string();
            (id != "README").then_some((id, path))
        })
        .collect();
    pages.sort();
    pages
}

/// The sections every rules page has, by their English headings (`docs/rules/README.md`'s
/// template), and the heading each translation gives them. Each section's `h2` carries its
/// English heading as `data-section`, so the client finds "End of game" in any language.
const SECTIONS: &[(&str, &[(&str, &str)])] = &[
    ("Board", &[("hu", "Tábla")]),
    ("Men and how they move", &[("hu", "A figurák és lépéseik")]),
    ("Setup", &[("hu", "Alapállás")]),
    ("Playing a turn", &[("hu", "Egy lépés menete")]),
    ("Special rules", &[("hu", "Különleges szabályok")]),
    ("End of game", &[("hu", "A játszma vége")]),
    ("Options", &[("hu", "Beállítások")]),
    ("Decisions", &[("hu", "Döntések")]),
];

/// The languages the rules pages are translated into: a folder `docs/rules/<language>/` each.
const TRANSLATIONS: &[&str] = &["hu"];

/// The English heading of the template section a page in `language` heads `heading`, if any.
fn section_of(heading: &str, language: &str) -> Option<&'static str> {
    SECTIONS.iter().find_map(|&(english, translated)| {
        let matches = if language == "en" {
            heading == english
        } else {
            translated
                .iter()
                .any(|&(lang, words)| lang == language && words == heading)
        };
        matches.then_some(english)
    })
}

/// Where a link of a rules page points on the web page: another rules page (`chess.md`,
/// `chess.md#decisions`) is that game's rules page (`/rules/chess`); anything else (the
/// README, other documents) is not served, so the link keeps only its text (`None`).
fn web_link(dest: &str, ids: &[String]) -> Option<String> {
    let page = dest.split('#').next().unwrap_or(dest);
    let id = page.strip_suffix(".md")?;
    ids.iter()
        .any(|known| known == id)
        .then(|| format!("/rules/{id}"))
}

/// A page's headings in order: each one's level and, for a template section, its English
/// heading (else "").
type Headings = Vec<(u8, &'static str)>;

/// The fragment of one rules page in `language`: the `# title` left out (the client shows the
/// game's name), the first paragraph as `<p class="summary">` (the lobby's description), the
/// rest up to the `## Scenarios` section (the tests' positions) as plain HTML, each template
/// section's `h2` marked with its `data-section`. Raw HTML and images are refused, so a
/// fragment holds plain elements only. Also returns the page's headings as `(level, section
/// or "")`, for comparing a translation's structure with the English page's.
fn rules_fragment(
    markdown: &str,
    ids: &[String],
    language: &str,
) -> Result<(String, Headings), String> {
    let mut events = Parser::new_ext(markdown, Options::ENABLE_TABLES).peekable();
    match events.next() {
        Some(Event::Start(Tag::Heading {
            level: HeadingLevel::H1,
            ..
        })) => {}
        _ => return Err("the page must begin with its `# title`".into()),
    }
    for event in events.by_ref() {
        if matches!(event, Event::End(TagEnd::Heading(_))) {
            break;
        }
    }
    if !matches!(events.peek(), Some(Event::Start(Tag::Paragraph))) {
        return Err("a one-paragraph summary must follow the title".into());
    }
    let mut out: Vec<Event> = Vec::new();
    let mut summary = String::new();
    let mut in_summary = false;
    let mut paragraphs = 0;
    // For each open link: whether it was kept (its end tag is kept too).
    let mut links: Vec<bool> = Vec::new();
    // The scenarios are the tests' positions, not reading for players: the page ends there.
    let mut heading = String::new();
    let mut in_heading = false;
    // Where in `out` the open `h2` starts, to mark it once its words are known.
    let mut heading_at = 0;
    let mut structure: Headings = Vec::new();
    for event in events {
        match &event {
            Event::Start(Tag::Heading {
                level: HeadingLevel::H2,
                ..
            }) => {
                in_heading = true;
                heading.clear();
                heading_at = out.len();
            }
            Event::Start(Tag::Heading { level, .. }) => structure.push((*level as u8, "")),
            Event::Text(text) | Event::Code(text) if in_heading => heading.push_str(text),
            Event::End(TagEnd::Heading(HeadingLevel::H2)) => {
                in_heading = false;
                if heading.trim() == "Scenarios" {
                    out.truncate(heading_at);
                    break;
                }
                let section = section_of(heading.trim(), language);
                structure.push((2, section.unwrap_or("")));
                if let Some(section) = section {
                    out[heading_at] =
                        Event::Html(format!("<h2 data-section=\"{section}\">").into());
                }
            }
            _ => {}
        }
        let event = match event {
            Event::Html(html) | Event::InlineHtml(html) => {
                return Err(format!("raw HTML is not allowed: {:?}", html.trim()));
            }
            Event::Start(Tag::HtmlBlock) => {
                return Err("raw HTML is not allowed".into());
            }
            Event::Start(Tag::Image { dest_url, .. }) => {
                return Err(format!("images are not allowed: {dest_url}"));
            }
            Event::Start(Tag::Paragraph) => {
                paragraphs += 1;
                if paragraphs == 1 {
                    in_summary = true;
                    Event::Html(CowStr::Borrowed("<p class=\"summary\">"))
                } else {
                    Event::Start(Tag::Paragraph)
                }
            }
            Event::End(TagEnd::Paragraph) => {
                in_summary = false;
                Event::End(TagEnd::Paragraph)
            }
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                title,
                id: link_id,
            }) => match web_link(&dest_url, ids) {
                Some(dest) => {
                    links.push(true);
                    Event::Start(Tag::Link {
                        link_type,
                        dest_url: dest.into(),
                        title,
                        id: link_id,
                    })
                }
                None => {
                    links.push(false);
                    continue;
                }
            },
            Event::End(TagEnd::Link) => {
                if links.pop().unwrap_or(false) {
                    Event::End(TagEnd::Link)
                } else {
                    continue;
                }
            }
            // Column alignment would become `style` attributes: plain cells instead.
            Event::Start(Tag::Table(columns)) => {
                Event::Start(Tag::Table(vec![Alignment::None; columns.len()]))
            }
            other => other,
        };
        if in_summary && let Event::Text(text) | Event::Code(text) = &event {
            summary.push_str(text);
        }
        out.push(event);
    }
    if summary.trim().is_empty() {
        return Err("the summary paragraph is empty".into());
    }
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, out.into_iter());
    if !html.contains("<h2") {
        return Err("the page has no `##` sections".into());
    }
    Ok((html, structure))
}

/// Converts every rules page into `$OUT_DIR/rules/<id>.html`, and every translated page into
/// `$OUT_DIR/rules/<language>/<id>.html`; returns `(path under web/, file)` for each, a panic
/// naming the page if one is malformed, translates a page that does not exist, or has other
/// headings than its English page (in number, order or level, or another template section).
fn rules_files(dir: &Path, out_dir: &Path) -> Vec<(String, PathBuf)> {
    println!("cargo:rerun-if-changed={}", dir.display());
    let pages = rules_pages(dir);
    assert!(!pages.is_empty(), "no rules pages in {}", dir.display());
    let ids: Vec<String> = pages.iter().map(|(id, _)| id.clone()).collect();
    let mut files = Vec::new();
    let mut english = Vec::new();
    let convert = |language: &str, id: &str, path: &Path, folder: &str| {
        println!("cargo:rerun-if-changed={}", path.display());
        let markdown = std::fs::read_to_string(path).expect("a file just listed");
        let (html, structure) = rules_fragment(&markdown, &ids, language)
            .unwrap_or_else(|problem| panic!("{}: {problem}", path.display()));
        let target = out_dir.join("rules").join(folder);
        std::fs::create_dir_all(&target).expect("OUT_DIR is writable");
        let file = target.join(format!("{id}.html"));
        std::fs::write(&file, html).expect("OUT_DIR is writable");
        let relative = if folder.is_empty() {
            format!("rules/{id}.html")
        } else {
            format!("rules/{folder}/{id}.html")
        };
        ((relative, file), structure)
    };
    for (id, path) in &pages {
        let (file, structure) = convert("en", id, path, "");
        files.push(file);
        english.push((id.clone(), structure));
    }
    for &language in TRANSLATIONS {
        let folder = dir.join(language);
        println!("cargo:rerun-if-changed={}", folder.display());
        if !folder.is_dir() {
            continue;
        }
        for (id, path) in rules_pages(&folder) {
            let Some((_, original)) = english.iter().find(|(known, _)| *known == id) else {
                panic!("{}: no English page {id}.md", path.display());
            };
            let (file, structure) = convert(language, &id, &path, language);
            assert_eq!(
                &structure,
                original,
                "{}: the headings (level, template section) differ from the English page's",
                path.display()
            );
            files.push(file);
        }
    }
    files
}

fn main() {
    let workspace = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"))
        .join("../..")
        .canonicalize()
        .expect("the server crate lives in crates/server");
    let root = workspace
        .join("web")
        .canonicalize()
        .expect("the web client lives in web/ at the workspace root");
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it"));
    println!("cargo:rerun-if-changed={}", root.display());
    let mut found = Vec::new();
    walk(&root, &mut found);
    let mut files: Vec<(String, PathBuf)> = found
        .into_iter()
        .map(|file| {
            println!("cargo:rerun-if-changed={}", file.display());
            let relative = file
                .strip_prefix(&root)
                .expect("walked under root")
                .to_string_lossy()
                .replace('\\', "/");
            (relative, file)
        })
        .collect();
    for (relative, file) in rules_files(&workspace.join("docs/rules"), &out_dir) {
        assert!(
            files.iter().all(|(other, _)| *other != relative),
            "web/{relative} would hide the page generated from docs/rules"
        );
        files.push((relative, file));
    }
    files.sort();
    let mut out = String::from(
        "/// (path under web/, bytes, content tag)\npub static FILES: &[(&str, &[u8], u64)] = &[\n",
    );
    for (relative, file) in &files {
        let bytes = std::fs::read(file).expect("a file just listed or written");
        writeln!(
            out,
            "    ({relative:?}, include_bytes!({:?}), {}),",
            file.display().to_string(),
            tag(&bytes)
        )
        .expect("writing to a string");
    }
    out.push_str("];\n");
    std::fs::write(out_dir.join("web_files.rs"), out).expect("OUT_DIR is writable");
}
