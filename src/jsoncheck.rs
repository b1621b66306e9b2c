//! Validates a body (UTF-8 JSON bytes) against a schema generated from the
//! serde types in `src/model.rs` ([`Root`]: the responses, and the arguments
//! the client names paths in): the browser's `JSON.parse` can then build the
//! objects from a body known to be valid.
//!
//! # How
//! One pass over the bytes checks the JSON syntax and the schema together and
//! allocates nothing: struct members are matched against the schema's member
//! list starting where the previous match left off (members usually come in
//! declaration order), strings are scanned eight bytes at a time, integers are
//! checked without building a float, and no recursion happens outside the
//! schema's own nesting (values the schema does not describe are skipped with
//! a bit stack). The first schema problem is noted (what, and the offset of
//! the value) and the pass goes on checking only the syntax (`JSON.parse`
//! reports a syntax error before any schema problem). Only then, for a
//! failing body, one walk from the start to that offset names its path: only
//! a failing body allocates. The hot helpers are `#[inline(always)]` and the
//! fast pass's error is zero-sized (its reason is kept aside), so the
//! size-optimized wasm build stays fast.
//!
//! # Semantics
//! - Syntax: RFC 8259 as `JSON.parse` reads it: whitespace is space, tab, LF,
//!   CR only (a byte-order mark is an error, as in `JSON.parse("\u{FEFF}{}")`);
//!   escapes `\" \\ \/ \b \f \n \r \t \uXXXX` (any hex case; lone surrogate
//!   escapes are accepted); no raw control character (U+0000..U+001F) in a
//!   string; the number grammar `-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?` with
//!   any magnitude (`1e400` is a number: `Infinity` once parsed); nothing but
//!   whitespace after the value. Bytes that are not UTF-8 are an error (a JS
//!   string cannot hold them).
//! - Nesting deeper than [`MAX_DEPTH`] arrays and objects is a [`Problem`]
//!   (`JSON.parse` would accept it; no response nests more than a few levels),
//!   so no input can exhaust the stack. Nothing panics on any input.
//! - Types, on the number `JSON.parse` would make (the correctly rounded
//!   double): `Str` a string, `Bool` a boolean, `F64` any number; `U32` an
//!   integer in `0..=4294967295`, `U53` a non-negative safe integer, `I53` a
//!   safe integer (`|n| <= 2^53-1`), "integer" as `Number.isInteger`: `5.0`,
//!   `5e0`, `0.5e1` and `4294967295.00000001` (which rounds to an integer) are
//!   integers, `-0` is a non-negative integer, `1e-400` is `0`, and
//!   `9007199254740993` is not safe (it parses as 2^53). Decided exactly on
//!   the decimal text, without floats (see `int_value`).
//! - `Null(T)` null or `T`, `Opt(T)` null, absent or `T`, `Array(T)` an array
//!   of `T`, `Map(T)` an object whose values are `T`; a struct is an object
//!   with every member of the schema that is not `Opt` (unknown members are
//!   allowed, but by [`check_closed`]); an enum is a string among its values.
//! - Duplicate keys: every occurrence must fit (`JSON.parse` would keep the
//!   last; no Cirrus server writes duplicates).
//!
//! # Messages
//! The first problem in document order (a missing member is found where its
//! object ends): ``at products[3].variants[0]: missing field `price` ``,
//! `at store.id: expected a string, got the number 5`, `the response body is
//! not valid JSON (truncated?): <reason> at byte <offset>`. The value at
//! fault is shown as the body writes it: a number's text (`5.0`, `1e400`), a
//! string's text between its quotes, escapes as written, cut after 40
//! characters with `…`. Map keys are shown unescaped (a lone surrogate as
//! U+FFFD).

#[path = "generated/schema.rs"]
mod generated;
pub use generated::Root;

mod int;
mod scan;
#[cfg(test)]
use int::{int_fits, int_value};
use scan::{is_ws, ws, Kind, Scan, Units};
#[cfg(test)]
use int::pow5;

#[cfg(test)]
mod tests;

/// Arrays and objects may nest this deep (the top value's own brackets count
/// as one level).
pub const MAX_DEPTH: u32 = 128;

/// What is wrong with a body: where (`path`) and what (`message`).
///
/// `path` is the JSON path of the value at fault
/// (`products[3].variants[0].price`, `(root)` for the top value), or empty when
/// the problem is the whole body (not JSON), in which case `message` is the
/// whole text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub path: String,
    pub message: String,
    /// For a value of the wrong type, what it is (`the number 5`): the words after
    /// ", got " in `message`, for a caller that words the expectation its own way.
    pub got: Option<String>,
}

impl Problem {
    /// The problem as one text:
    /// `at store.id: expected a string, got the number 5`, or the message alone
    /// when there is no path (`the response body is not valid JSON (truncated?): …`).
    #[must_use]
    pub fn text(&self) -> String {
        if self.path.is_empty() {
            self.message.clone()
        } else {
            format!("at {}: {}", self.path, self.message)
        }
    }
}

impl core::fmt::Display for Problem {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.text())
    }
}

impl core::error::Error for Problem {}

/// Checks `body` against the response schema `root` (`Root::ProductsResponse`,
/// `Root::StoreResponse`, … or any type they hold, such as `Root::Product`).
///
/// # Errors
/// The first [`Problem`]: a syntax error (which wins over any schema problem,
/// as `JSON.parse` runs first), nesting deeper than [`MAX_DEPTH`], or the
/// first schema problem in document order with its JSON path.
pub fn check(body: &[u8], root: Root) -> Result<(), Problem> {
    check_type(body, &Ty::Ref(root as u16), false)
}

/// [`check`] for a body already in a `&str`.
///
/// # Errors
/// As [`check`].
pub fn check_str(body: &str, root: Root) -> Result<(), Problem> {
    check(body.as_bytes(), root)
}

/// [`check`] with every struct closed: a member its schema does not have is a
/// problem too (`session.note: unknown member`). For values the SDK wrote and
/// reads back (the stored checkout), where any other member is tampering.
///
/// # Errors
/// As [`check`].
pub fn check_closed(body: &str, root: Root) -> Result<(), Problem> {
    check_type(body.as_bytes(), &Ty::Ref(root as u16), true)
}

fn check_type(body: &[u8], ty: &Ty, closed: bool) -> Result<(), Problem> {
    let mut scan = Scan::new(body, 0);
    scan.closed = closed;
    if scan.document(ty).is_err() {
        return Err(scan.stop.problem(body.len()));
    }
    match scan.first {
        None => Ok(()),
        Some((kind, at)) => Err(report(body, kind, at)),
    }
}

// ---------------------------------------------------------------- the schema

/// A type of the schema language (the table is `src/generated/schema.rs`).
#[derive(Debug, Clone, Copy)]
#[cfg_attr(not(any(feature = "client", feature = "cart", feature = "storefront")), allow(dead_code))] // the checkout module's schemas have no `F64` or `Map`
pub(crate) enum Ty {
    /// `s`
    Str,
    /// `b`
    Bool,
    /// `u`: an integer in `0..=4294967295`.
    U32,
    /// `U`: a non-negative safe integer.
    U53,
    /// `i`: a safe integer.
    I53,
    /// `f`: any number.
    F64,
    /// Entry `n` of the schema table.
    Ref(u16),
    /// `~T`
    Null(&'static Ty),
    /// `?T`
    Opt(&'static Ty),
    /// `[T`
    Array(&'static Ty),
    /// `{T`
    Map(&'static Ty),
}

/// An entry of the schema table.
#[derive(Debug)]
pub(crate) enum Entry {
    /// A struct: its members in declaration order and the bit set (bit `k` for
    /// member `k`) of those that must be present.
    Struct { required: u64, members: &'static [(&'static str, Ty)] },
    /// An enum: the strings it may be.
    Enum(&'static [&'static str]),
    /// A schema this build leaves out: the checkout module's build has only what it reads
    /// (tools/typegen's `CHECKOUT_ROOTS`); nothing fits it, and the message says why.
    #[cfg_attr(any(feature = "client", feature = "cart", feature = "storefront"), allow(dead_code))]
    Absent,
}

fn entry(k: u16) -> Option<&'static Entry> {
    generated::SCHEMA.get(usize::from(k))
}

/// What a type expects, in a message (`expected …`).
fn expects(ty: &Ty) -> String {
    match ty {
        Ty::Str => "a string".into(),
        Ty::Bool => "a boolean".into(),
        Ty::U32 => "an integer in 0..=4294967295".into(),
        Ty::U53 => "a non-negative safe integer".into(),
        Ty::I53 => "a safe integer".into(),
        Ty::F64 => "a number".into(),
        Ty::Null(t) | Ty::Opt(t) => expects(t),
        Ty::Array(_) => "an array".into(),
        Ty::Map(_) => "an object".into(),
        Ty::Ref(k) => match entry(*k) {
            Some(Entry::Enum(values)) => {
                let mut out = String::from("one of ");
                for (k, v) in values.iter().enumerate() {
                    if k > 0 {
                        out.push_str(", ");
                    }
                    out.push_str(v);
                }
                out
            }
            Some(Entry::Absent) => "a value of a schema this wasm module leaves out (tools/typegen: CHECKOUT_ROOTS)".into(),
            _ => "an object".into(),
        },
    }
}

// ---------------------------------------------------------------- the report

/// The [`Problem`] of the first schema problem the fast pass found: the path
/// of the value at `at`, found by one walk over the (valid) JSON from the
/// start, and the message in our words.
#[cold]
fn report(b: &[u8], kind: Kind, at: usize) -> Problem {
    let mut path = String::new();
    let _ = locate(b, ws(b, 0), at, &mut path);
    let path = match path.strip_prefix('.') {
        Some(p) => p.to_owned(),
        None if path.is_empty() => "(root)".to_owned(),
        None => path,
    };
    let (message, got) = match kind {
        Kind::Missing(name) => (format!("missing field `{name}`"), None),
        Kind::Unknown => ("unknown member".to_owned(), None),
        Kind::Type(ty) => {
            let got = describe(b, at);
            (format!("expected {}, got {got}", expects(&ty)), Some(got))
        }
    };
    Problem { path, message, got }
}

/// Walks the valid JSON value at `i` to the value at `at`, pushing the path
/// segments on the way (`.name`, `[3]`): `Err(())` once there, else the end
/// of the value. (Recursion is bounded: the fast pass capped the nesting.)
fn locate(b: &[u8], i: usize, at: usize, path: &mut String) -> Result<usize, ()> {
    if i == at {
        return Err(());
    }
    let close = match b.get(i) {
        Some(b'{') => b'}',
        Some(b'[') => b']',
        Some(b'"') => return Ok(string_end(b, i)),
        _ => {
            let mut j = i;
            while b.get(j).is_some_and(|c| !matches!(c, b',' | b']' | b'}') && !is_ws(*c)) {
                j += 1;
            }
            return Ok(j);
        }
    };
    let mut j = ws(b, i + 1);
    let mut k = 0_u64;
    while b.get(j).is_some_and(|&c| c != close) {
        let len = path.len();
        if close == b'}' {
            let end = string_end(b, j);
            let key = b.get(j + 1..end - 1).unwrap_or_default();
            path.push('.');
            path.extend(char::decode_utf16(Units::new(key)).map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER)));
            j = ws(b, ws(b, end) + 1);
        } else {
            path.push('[');
            path.push_str(&k.to_string());
            path.push(']');
        }
        j = ws(b, locate(b, j, at, path)?);
        path.truncate(len);
        if b.get(j) == Some(&b',') {
            j = ws(b, j + 1);
        }
        k += 1;
    }
    Ok(j + 1)
}

/// One past the closing quote of the valid string whose opening quote is at `i`.
fn string_end(b: &[u8], i: usize) -> usize {
    let mut scan = Scan::new(b, i + 1);
    scan.string().map_or(b.len(), |_| scan.i)
}

/// The valid value at `i` as the message shows it: its kind, or for a string
/// or a number its text as the body writes it (a string cut after 40
/// characters).
fn describe(b: &[u8], i: usize) -> String {
    match b.get(i) {
        Some(b'n') => "null".into(),
        Some(b'[') => "an array".into(),
        Some(b'{') => "an object".into(),
        Some(b't' | b'f') => "a boolean".into(),
        Some(b'"') => {
            let raw = core::str::from_utf8(b.get(i + 1..string_end(b, i) - 1).unwrap_or_default()).unwrap_or_default();
            match raw.char_indices().nth(40) {
                Some((cut, _)) => format!("the string \"{}…\"", &raw[..cut]),
                None => format!("the string \"{raw}\""),
            }
        }
        _ => {
            let mut j = i;
            while b.get(j).is_some_and(|c| c.is_ascii_digit() || matches!(c, b'-' | b'+' | b'.' | b'e' | b'E')) {
                j += 1;
            }
            format!("the number {}", core::str::from_utf8(&b[i..j]).unwrap_or_default())
        }
    }
}
