//! The Rust doc comments of the traced types, carried into the TypeScript (`/** … */` on
//! each generated type and member), so the package's reference documents what the Rust
//! source documents: read with `syn` from the crate's `src/` (a type or member without a
//! doc comment gets none; a type name defined twice gets none, as its doc is not known).

use std::collections::BTreeMap;
use std::path::Path;

use std::sync::OnceLock;

use syn::{Attribute, Expr, Fields, Item, Lit, Meta};

#[derive(Default)]
pub struct Docs {
    /// Type name → its doc (`""`: none; `None`: defined more than once).
    types: BTreeMap<String, Option<String>>,
    /// (type name, serde member name) → the member's doc.
    members: BTreeMap<(String, String), String>,
}

/// The registry names that are not their Rust type's name (sdk.rs renames them).
const RUST_NAMES: &[(&str, &str)] = &[("ProductsOptions", "ProductsQuery"), ("MinimalProductsResponse", "ProductsResponse")];

/// Files of `src/` whose types are never traced and share a traced type's name: the storefront
/// helpers' and the search index's narrow decode types (`Product`, `Collection`, `Page`, … of
/// what they read),
/// whose docs are not the wire types'. Tests (a `tests` folder, `tests.rs`) are never read
/// either (the checkout simulation's `Page`).
const UNTRACED_FILES: &[&str] = &["src/storefront/input.rs", "src/search/input.rs"];

/// Whether `p` is read for docs: not a test, not an [`UNTRACED_FILES`] file.
fn traced(p: &Path) -> bool {
    !UNTRACED_FILES.iter().any(|f| p.ends_with(f)) && !p.components().any(|c| c.as_os_str() == "tests" || c.as_os_str() == "tests.rs")
}

fn rust_name(name: &str) -> &str {
    RUST_NAMES.iter().find(|(n, _)| *n == name).map_or(name, |(_, r)| r)
}

/// The docs of every type in `src/`, read once.
pub fn docs() -> &'static Docs {
    static DOCS: OnceLock<Docs> = OnceLock::new();
    DOCS.get_or_init(|| {
        let mut d = Docs::default();
        d.read_dir(&crate::root().join("src"));
        d
    })
}

impl Docs {
    /// The doc of type `name`, if it has one.
    pub fn of_type(&self, name: &str) -> Option<&str> {
        self.types.get(rust_name(name))?.as_deref().filter(|d| !d.is_empty())
    }

    /// The doc of member `member` (its serde name) of type `name`, if it has one.
    pub fn of_member(&self, name: &str, member: &str) -> Option<&str> {
        if matches!(self.types.get(rust_name(name)), Some(None)) {
            return None;
        }
        self.members.get(&(rust_name(name).to_owned(), member.to_owned())).map(String::as_str)
    }

    fn read_dir(&mut self, dir: &Path) {
        let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())).flatten().map(|e| e.path()).collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                self.read_dir(&p);
            } else if p.extension().is_some_and(|e| e == "rs") && traced(&p) {
                let text = std::fs::read_to_string(&p).unwrap();
                let file = syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
                self.items(&file.items);
            }
        }
    }

    fn items(&mut self, items: &[Item]) {
        for item in items {
            match item {
                Item::Struct(s) => {
                    let name = s.ident.to_string();
                    self.add_type(&name, doc(&s.attrs));
                    let all = rename_all(&s.attrs);
                    if let Fields::Named(fields) = &s.fields {
                        for f in &fields.named {
                            let ident = f.ident.as_ref().unwrap().to_string();
                            let serde_name = rename(&f.attrs).unwrap_or_else(|| apply(all.as_deref(), &ident));
                            if let Some(d) = doc(&f.attrs) {
                                self.members.insert((name.clone(), serde_name), d);
                            }
                        }
                    }
                }
                Item::Enum(e) => self.add_type(&e.ident.to_string(), doc(&e.attrs)),
                Item::Mod(m) => {
                    if let Some((_, items)) = &m.content {
                        self.items(items);
                    }
                }
                _ => {}
            }
        }
    }

    fn add_type(&mut self, name: &str, d: Option<String>) {
        match self.types.get(name) {
            // A second definition of the name: its doc is not known.
            Some(_) => {
                self.types.insert(name.to_owned(), None);
                self.members.retain(|(t, _), _| t != name);
            }
            None => {
                self.types.insert(name.to_owned(), Some(d.unwrap_or_default()));
            }
        }
    }
}

/// The text of the `///` lines of `attrs` (their first space taken off), if any.
fn doc(attrs: &[Attribute]) -> Option<String> {
    let lines: Vec<String> = attrs
        .iter()
        .filter_map(|a| match &a.meta {
            Meta::NameValue(nv) if nv.path.is_ident("doc") => match &nv.value {
                Expr::Lit(l) => match &l.lit {
                    Lit::Str(s) => Some(s.value().strip_prefix(' ').map(str::to_owned).unwrap_or_else(|| s.value())),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        })
        .collect();
    let text = unlink(lines.join("\n").trim());
    (!text.is_empty()).then_some(text)
}

/// Rustdoc's intra-doc links as plain code: `` [`Cart::add`] `` → `` `Cart::add` `` (TypeScript
/// readers have no Rust paths to follow); a link with a target (`[text](url)`) is kept.
fn unlink(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find("[`") {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        match after.find("`]") {
            Some(j) if !after[j + 2..].starts_with('(') && !after[..j + 1].contains('\n') => {
                out.push_str(&after[..j + 1]);
                rest = &after[j + 2..];
            }
            _ => {
                out.push('[');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// A `#[serde(key = "value")]` of `attrs`.
fn serde_value(attrs: &[Attribute], key: &str) -> Option<String> {
    let mut found = None;
    for a in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        let _ = a.parse_nested_meta(|m| {
            if m.path.is_ident(key) {
                if let Ok(v) = m.value().and_then(|v| v.parse::<syn::LitStr>()) {
                    found = Some(v.value());
                }
            } else if m.input.peek(syn::Token![=]) {
                let _ = m.value().and_then(|v| v.parse::<Expr>());
            } else if m.input.peek(syn::token::Paren) {
                let _ = m.parse_nested_meta(|_| Ok(()));
            }
            Ok(())
        });
    }
    found
}

fn rename_all(attrs: &[Attribute]) -> Option<String> {
    serde_value(attrs, "rename_all")
}

fn rename(attrs: &[Attribute]) -> Option<String> {
    serde_value(attrs, "rename")
}

/// A field's serde name under `rename_all` (only the conventions the crate uses).
fn apply(rule: Option<&str>, ident: &str) -> String {
    match rule {
        Some("camelCase") => {
            let mut out = String::new();
            let mut up = false;
            for c in ident.chars() {
                if c == '_' {
                    up = true;
                } else if up {
                    out.extend(c.to_uppercase());
                    up = false;
                } else {
                    out.push(c);
                }
            }
            out
        }
        _ => ident.to_owned(),
    }
}

/// `text` as a TSDoc comment indented by `indent` (`/** one line */`, or one ` * ` line each).
pub fn comment(out: &mut String, indent: &str, text: &str) {
    let text = text.replace("*/", "*\\/");
    let lines: Vec<&str> = text.lines().collect();
    if lines.len() == 1 {
        out.push_str(&format!("{indent}/** {} */\n", lines[0]));
        return;
    }
    out.push_str(&format!("{indent}/**\n"));
    for l in lines {
        if l.is_empty() {
            out.push_str(&format!("{indent} *\n"));
        } else {
            out.push_str(&format!("{indent} * {l}\n"));
        }
    }
    out.push_str(&format!("{indent} */\n"));
}
