//! Validates a response body (UTF-8 JSON bytes) against the response schemas
//! generated from the serde types in `src/model.rs`, with the semantics of
//! `js/validate.js` (`parseChecked`): the browser's `JSON.parse` can then build
//! the objects from a body known to be valid.
//!
//! # How
//! One pass over the bytes checks the JSON syntax and the schema together and
//! allocates nothing: struct members are matched against the schema's member
//! list starting where the previous match left off (members usually come in
//! declaration order), strings are scanned eight bytes at a time, integers are
//! checked without building a float, and no recursion happens outside the
//! schema's own nesting (values the schema does not describe are skipped with
//! a bit stack). When that pass finds a schema problem it goes on checking
//! only the syntax (`JSON.parse` reports a syntax error before any schema
//! problem), then a second pass over the now known-good JSON finds the problem
//! `js/validate.js` would report first (members in schema order, map keys in
//! `for…in` order, the last of duplicate keys) and builds its message: only a
//! failing body allocates. The hot helpers are `#[inline(always)]` and the
//! fast pass's error is zero-sized (its reason is kept aside), so the
//! size-optimized (`opt-level = "z"`) wasm build stays fast.
//!
//! # Semantics (those of `JSON.parse` + `js/validate.js`)
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
//!   double): `s` a string, `b` a boolean, `f` any number; `u` an integer in
//!   `0..=4294967295`, `U` a non-negative safe integer, `i` a safe integer
//!   (`|n| <= 2^53-1`), "integer" as `Number.isInteger`: `5.0`, `5e0`, `0.5e1`
//!   and `4294967295.00000001` (which rounds to an integer) are integers, `-0`
//!   is a non-negative integer, `1e-400` is `0`, and `9007199254740993` is
//!   not safe (it parses as 2^53). Decided exactly on the decimal text, without
//!   floats (see `int_value`).
//! - `~T` null or `T`, `?T` null, absent or `T`, `[T` an array of `T`, `{T` an
//!   object whose values are `T`; a struct is an object with every member of
//!   the schema that is not `?` (unknown members are allowed, as today); an
//!   enum is a string among its values.
//! - Duplicate keys: `JSON.parse` keeps the last value, so only the last one
//!   counts, as in `js/validate.js` (the fast pass checks every occurrence; when
//!   one fails, the exact pass decides).
//!
//! # Messages
//! [`Problem::text`] is the text `parseChecked` throws: ``at products[3].variants[0]:
//! missing field `price` ``, `at store.id: expected a string, got the number 5`,
//! `the response body is not valid JSON (truncated?): <reason>`. The reason of a
//! syntax error is our own (`JSON.parse`'s differ between engines), with the
//! byte offset. Strings are shown as validate.js shows them (40 UTF-16 units,
//! `JSON.stringify`'s escapes). Numbers are printed as JavaScript prints the
//! parsed number for every number a JSON serializer writes (shortest
//! round-trip digits) and every integer below 2^64 (`9223372036854775807` is
//! `9223372036854776000`); a number written with more significant digits than
//! its double needs is otherwise rounded to 17 digits (JavaScript prints the
//! shortest digits that round-trip, often fewer), a subnormal keeps its
//! digits, and the overflow to `Infinity` is decided on 17 digits. Map keys
//! with lone surrogates appear in paths with U+FFFD.

#[allow(unused_imports)]
use crate::prelude::*;
use crate::text::{cat, uint};

#[path = "generated/schema.rs"]
mod generated;
pub use generated::Root;

#[cfg(test)]
mod tests;

/// Arrays and objects may nest this deep (the top value's own brackets count
/// as one level).
pub const MAX_DEPTH: u32 = 128;

/// What is wrong with a body: where (`path`) and what (`message`).
///
/// `path` is the JSON path of the value at fault as `js/validate.js` writes it
/// (`products[3].variants[0].price`, `(root)` for the top value), or empty when
/// the problem is the whole body (not JSON, or an unknown schema name), in
/// which case `message` is the whole text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub path: String,
    pub message: String,
}

impl Problem {
    /// The text `js/validate.js`'s `parseChecked` throws for this problem:
    /// `at store.id: expected a string, got the number 5`, or the message alone
    /// when there is no path (`the response body is not valid JSON (truncated?): …`).
    #[must_use]
    pub fn text(&self) -> String {
        if self.path.is_empty() {
            self.message.clone()
        } else {
            cat(&["at ", &self.path, ": ", &self.message])
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
/// The first [`Problem`] as `js/validate.js` would report it: a syntax error
/// (which wins over any schema problem, as `JSON.parse` runs first), nesting
/// deeper than [`MAX_DEPTH`], or a schema problem with its JSON path.
pub fn check(body: &[u8], root: Root) -> Result<(), Problem> {
    check_type(body, &Ty::Ref(root as u16))
}

/// [`check`] for a body already in a `&str`.
///
/// # Errors
/// As [`check`].
pub fn check_str(body: &str, root: Root) -> Result<(), Problem> {
    check(body.as_bytes(), root)
}

/// Checks only that `body` is JSON that `JSON.parse` accepts (nested at most
/// [`MAX_DEPTH`] deep), whatever its shape.
///
/// # Errors
/// The syntax error or the nesting, as [`check`] reports them.
pub fn check_syntax(body: &[u8]) -> Result<(), Problem> {
    check_type(body, &Ty::Any)
}

fn check_type(body: &[u8], ty: &Ty) -> Result<(), Problem> {
    let mut scan = Scan::new(body, 0);
    if scan.document(ty).is_err() {
        return Err(scan.stop.problem(body.len()));
    }
    if !scan.bad {
        return Ok(());
    }
    match exact(body, ws(body, 0), ty) {
        Ok(_) => Ok(()), // only duplicate keys whose last values are right
        Err(Fail { path, message, .. }) => {
            let path = match path.strip_prefix('.') {
                Some(p) => p.to_owned(),
                None if path.is_empty() => "(root)".to_owned(),
                None => path,
            };
            Err(Problem { path, message })
        }
    }
}

// ---------------------------------------------------------------- the schema

/// A type of the schema language (see `js/generated/schema.js`).
#[derive(Debug, Clone, Copy)]
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
    /// Any JSON value (syntax only; not in the generated schemas).
    Any,
}

/// An entry of the schema table.
#[derive(Debug)]
pub(crate) enum Entry {
    /// A struct: its members in declaration order and the bit set (bit `k` for
    /// member `k`) of those that must be present.
    Struct { required: u64, members: &'static [(&'static str, Ty)] },
    /// An enum: the strings it may be.
    Enum(&'static [&'static str]),
}

fn entry(k: u16) -> Option<&'static Entry> {
    generated::SCHEMA.get(usize::from(k)).map(|(_, e)| e)
}

/// What `js/validate.js` says a type expects (`expected …`).
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
        Ty::Map(_) | Ty::Any => "an object".into(),
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
            _ => "an object".into(),
        },
    }
}

// ---------------------------------------------------------------- pass 1

/// Why the fast pass stopped: a syntax error or too deep a nesting, at a byte
/// offset.
#[derive(Debug, Clone, Copy)]
enum Stop {
    /// What was wrong (``expected `:` ``) at the offset.
    Syntax(&'static str, usize),
    Deep(usize),
}

impl Stop {
    fn problem(self, len: usize) -> Problem {
        match self {
            Stop::Syntax(_, at) if at >= len => Problem { path: String::new(), message: cat(&[NOT_JSON, "unexpected end of input"]) },
            Stop::Syntax(what, at) => Problem { path: String::new(), message: cat(&[NOT_JSON, what, " at byte ", &uint(at as u64)]) },
            Stop::Deep(at) => Problem {
                path: "(root)".into(),
                message: cat(&["arrays and objects nest deeper than ", &uint(MAX_DEPTH.into()), " levels at byte ", &uint(at as u64)]),
            },
        }
    }
}

const NOT_JSON: &str = "the response body is not valid JSON (truncated?): ";

/// JSON whitespace.
const fn is_ws(c: u8) -> bool {
    matches!(c, b' ' | b'\n' | b'\r' | b'\t')
}

/// The offset of the first non-whitespace byte at or after `i`.
#[inline(always)]
fn ws(b: &[u8], mut i: usize) -> usize {
    while let Some(&c) = b.get(i) {
        if !is_ws(c) {
            break;
        }
        i += 1;
    }
    i
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// The bytes of `w` (little-endian) that end or escape a string, are control
/// characters or are not ASCII, as their high bits (the classic SWAR zero-byte
/// tests: a borrow can flag a byte above a real one, never below, so the
/// lowest flagged byte is the first such byte).
#[inline(always)]
const fn special(w: u64) -> u64 {
    const fn zero_byte(v: u64) -> u64 {
        v.wrapping_sub(ONES) & !v & HIGHS
    }
    let quote = zero_byte(w ^ (ONES * b'"' as u64));
    let backslash = zero_byte(w ^ (ONES * b'\\' as u64));
    let control = w.wrapping_sub(ONES * 0x20) & !w & HIGHS;
    quote | backslash | control | (w & HIGHS)
}

/// The fast pass stopped; the reason is in [`Scan::stop`]. (A zero-sized
/// error keeps every `Result` of the hot path in registers.)
struct Halt;

type Step<T = ()> = Result<T, Halt>;

/// The fast pass: the cursor over the body, whether a schema problem was seen
/// (from then on only the syntax is checked), and why it stopped, if it did.
struct Scan<'a> {
    b: &'a [u8],
    i: usize,
    bad: bool,
    stop: Stop,
}

impl<'a> Scan<'a> {
    fn new(b: &'a [u8], i: usize) -> Self {
        Scan { b, i, bad: false, stop: Stop::Syntax("", 0) }
    }

    #[cold]
    #[inline(never)]
    fn fail(&mut self, what: &'static str, at: usize) -> Halt {
        self.stop = Stop::Syntax(what, at);
        Halt
    }

    #[inline(always)]
    fn peek(&self) -> u8 {
        // 0 (never valid here) at the end: every caller then reports an error.
        self.b.get(self.i).copied().unwrap_or(0)
    }

    #[inline(always)]
    fn ws(&mut self) {
        self.i = ws(self.b, self.i);
    }

    fn document(&mut self, ty: &Ty) -> Step {
        self.ws();
        self.value(ty, 0)?;
        self.ws();
        if self.i < self.b.len() {
            return Err(self.fail("unexpected data after the value", self.i));
        }
        Ok(())
    }

    /// The value at the cursor (whitespace skipped) against `ty`, `depth`
    /// containers deep.
    fn value(&mut self, ty: &Ty, depth: u32) -> Step {
        if self.bad {
            return self.skip(depth);
        }
        let c = self.peek();
        let fits = match *ty {
            Ty::Str if c == b'"' => {
                self.i += 1;
                return self.string().map(drop);
            }
            Ty::Bool if c == b't' => return self.literal(b"true"),
            Ty::Bool if c == b'f' => return self.literal(b"false"),
            Ty::F64 if c == b'-' || c.is_ascii_digit() => return self.number().map(drop),
            Ty::Str | Ty::Bool | Ty::F64 => false,
            Ty::U32 | Ty::U53 | Ty::I53 => {
                if c != b'-' && !c.is_ascii_digit() {
                    false
                } else {
                    let start = self.i;
                    let fast = self.number()?;
                    if !int_fits(ty, fast.or_else(|| int_value(&self.b[start..self.i]))) {
                        self.bad = true;
                    }
                    return Ok(());
                }
            }
            Ty::Null(t) | Ty::Opt(t) => {
                if c == b'n' {
                    return self.literal(b"null");
                }
                return self.value(t, depth);
            }
            Ty::Array(t) => {
                if c == b'[' {
                    return self.array(t, depth);
                }
                false
            }
            Ty::Map(t) => {
                if c == b'{' {
                    return self.map(t, depth);
                }
                false
            }
            Ty::Ref(k) => match entry(k) {
                Some(Entry::Struct { required, members }) if c == b'{' => return self.object(members, *required, depth),
                Some(Entry::Enum(values)) if c == b'"' => {
                    self.i += 1;
                    let start = self.i;
                    let escaped = self.string()?;
                    let raw = &self.b[start..self.i - 1];
                    if !values.iter().any(|v| same(raw, escaped, v)) {
                        self.bad = true;
                    }
                    return Ok(());
                }
                _ => false,
            },
            Ty::Any => true,
        };
        if !fits {
            self.bad = true;
        }
        self.skip(depth)
    }

    #[inline(always)]
    fn literal(&mut self, word: &'static [u8]) -> Step {
        if self.b.get(self.i..self.i + word.len()) == Some(word) {
            self.i += word.len();
            Ok(())
        } else {
            Err(self.fail("expected a value", self.i))
        }
    }

    /// Opens the array or object at the cursor, `depth` containers deep.
    #[inline(always)]
    fn open(&mut self, depth: u32) -> Step<u32> {
        if depth >= MAX_DEPTH {
            self.stop = Stop::Deep(self.i);
            return Err(Halt);
        }
        self.i += 1;
        self.ws();
        Ok(depth + 1)
    }

    /// After a member or element: `,` (true) or the closing `close` (false).
    #[inline(always)]
    fn next(&mut self, close: u8) -> Step<bool> {
        self.ws();
        let c = self.peek();
        self.i += 1;
        if c == b',' {
            self.ws();
            Ok(true)
        } else if c == close {
            Ok(false)
        } else {
            Err(self.fail(if close == b']' { "expected `,` or `]`" } else { "expected `,` or `}`" }, self.i - 1))
        }
    }

    /// A member name and its `:`; returns where the raw name starts and
    /// whether it has escapes (it ends two bytes before the cursor's `:`).
    #[inline(always)]
    fn key(&mut self) -> Step<(usize, usize, bool)> {
        if self.peek() != b'"' {
            return Err(self.fail("expected a member name", self.i));
        }
        self.i += 1;
        let start = self.i;
        let escaped = self.string()?;
        let end = self.i - 1;
        if self.peek() != b':' {
            self.ws();
            if self.peek() != b':' {
                return Err(self.fail("expected `:`", self.i));
            }
        }
        self.i += 1;
        self.ws();
        Ok((start, end, escaped))
    }

    fn array(&mut self, t: &Ty, depth: u32) -> Step {
        let depth = self.open(depth)?;
        if self.peek() == b']' {
            self.i += 1;
            return Ok(());
        }
        loop {
            self.value(t, depth)?;
            if !self.next(b']')? {
                return Ok(());
            }
        }
    }

    fn map(&mut self, t: &Ty, depth: u32) -> Step {
        let depth = self.open(depth)?;
        if self.peek() == b'}' {
            self.i += 1;
            return Ok(());
        }
        loop {
            self.key()?;
            self.value(t, depth)?;
            if !self.next(b'}')? {
                return Ok(());
            }
        }
    }

    fn object(&mut self, members: &[(&str, Ty)], required: u64, depth: u32) -> Step {
        let depth = self.open(depth)?;
        let mut seen = 0_u64;
        if self.peek() == b'}' {
            self.i += 1;
        } else {
            let mut hint = 0;
            loop {
                let (start, end, escaped) = self.key()?;
                match find(members, &self.b[start..end], escaped, &mut hint) {
                    Some(k) => {
                        seen |= 1 << k;
                        self.value(&members[k].1, depth)?;
                    }
                    None => self.skip(depth)?,
                }
                if !self.next(b'}')? {
                    break;
                }
            }
        }
        if seen & required != required {
            self.bad = true;
        }
        Ok(())
    }

    /// Any value at the cursor (syntax only), without recursion: a bit per open
    /// container (1 for an object) says what may close it.
    fn skip(&mut self, depth: u32) -> Step {
        let mut stack: u128 = 0;
        let mut open = 0_u32;
        loop {
            match self.peek() {
                c @ (b'{' | b'[') => {
                    if depth + open >= MAX_DEPTH {
                        self.stop = Stop::Deep(self.i);
                        return Err(Halt);
                    }
                    self.i += 1;
                    self.ws();
                    stack = stack << 1 | u128::from(c == b'{');
                    open += 1;
                    let close = if c == b'{' { b'}' } else { b']' };
                    if self.peek() == close {
                        self.i += 1;
                        stack >>= 1;
                        open -= 1;
                    } else {
                        if c == b'{' {
                            self.key()?;
                        }
                        continue;
                    }
                }
                b'"' => {
                    self.i += 1;
                    self.string()?;
                }
                b't' => self.literal(b"true")?,
                b'f' => self.literal(b"false")?,
                b'n' => self.literal(b"null")?,
                b'-' | b'0'..=b'9' => drop(self.number()?),
                _ => return Err(self.fail("expected a value", self.i)),
            }
            // After a value: close containers until one goes on with `,`.
            loop {
                if open == 0 {
                    return Ok(());
                }
                let object = stack & 1 == 1;
                if self.next(if object { b'}' } else { b']' })? {
                    if object {
                        self.key()?;
                    }
                    break;
                }
                stack >>= 1;
                open -= 1;
            }
        }
    }

    /// The rest of a string whose opening quote is behind the cursor; leaves
    /// the cursor after the closing quote and says whether there were escapes.
    fn string(&mut self) -> Step<bool> {
        let b = self.b;
        let mut i = self.i;
        let mut escaped = false;
        loop {
            // Eight bytes at a time, up to the first that is not plain text.
            while let Some(chunk) = b.get(i..i + 8) {
                let mut w = [0; 8];
                w.copy_from_slice(chunk);
                let flagged = special(u64::from_le_bytes(w));
                if flagged != 0 {
                    i += (flagged.trailing_zeros() / 8) as usize;
                    break;
                }
                i += 8;
            }
            match b.get(i) {
                Some(b'"') => {
                    self.i = i + 1;
                    return Ok(escaped);
                }
                Some(b'\\') => {
                    escaped = true;
                    i = self.escape(i)?;
                }
                Some(0x20..=0x7f) => i += 1, // the last few bytes of the body, one at a time
                Some(0x80..) => i = self.utf8(i)?,
                Some(_) => return Err(self.fail("a control character in a string", i)),
                None => return Err(self.fail("unterminated string", i)),
            }
        }
    }

    /// A number at the cursor (its grammar); returns its integer value when it
    /// is written as a plain integer of at most 19 digits (`None` otherwise:
    /// the slow path decides).
    fn number(&mut self) -> Step<Option<(bool, u64)>> {
        let b = self.b;
        let mut i = self.i;
        let negative = b.get(i) == Some(&b'-');
        i += usize::from(negative);
        let digits = i;
        let mut value = 0_u64;
        match b.get(i) {
            Some(b'0') => i += 1,
            Some(b'1'..=b'9') => {
                while let Some(&d @ b'0'..=b'9') = b.get(i) {
                    value = value.wrapping_mul(10).wrapping_add(u64::from(d - b'0'));
                    i += 1;
                }
            }
            _ => return Err(self.fail("expected a digit", i)),
        }
        let mut plain = i - digits <= 19;
        if b.get(i) == Some(&b'.') {
            i = self.digits(i + 1)?;
            plain = false;
        }
        if let Some(b'e' | b'E') = b.get(i) {
            i += 1;
            if let Some(b'+' | b'-') = b.get(i) {
                i += 1;
            }
            i = self.digits(i)?;
            plain = false;
        }
        self.i = i;
        Ok(plain.then_some((negative, value)))
    }

    /// One or more digits at `i`; the offset after them.
    fn digits(&mut self, mut i: usize) -> Step<usize> {
        if !self.b.get(i).is_some_and(u8::is_ascii_digit) {
            return Err(self.fail("expected a digit", i));
        }
        while self.b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        Ok(i)
    }

    /// The escape at `i` (a backslash); the offset after it.
    fn escape(&mut self, i: usize) -> Step<usize> {
        match self.b.get(i + 1) {
            Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => Ok(i + 2),
            Some(b'u') => match self.b.get(i + 2..i + 6) {
                Some(hex) if hex.iter().all(u8::is_ascii_hexdigit) => Ok(i + 6),
                _ => Err(self.fail("an invalid \\u escape", i)),
            },
            _ => Err(self.fail("an invalid escape", i)),
        }
    }

    /// The UTF-8 sequence at `i` (a byte >= 0x80); the offset after it.
    fn utf8(&mut self, i: usize) -> Step<usize> {
        let b = self.b;
        let cont = |k: usize, lo: u8, hi: u8| b.get(i + k).is_some_and(|c| (lo..=hi).contains(c));
        let (ok, len) = match b.get(i).copied().unwrap_or(0) {
            0xC2..=0xDF => (cont(1, 0x80, 0xBF), 2),
            0xE0 => (cont(1, 0xA0, 0xBF) && cont(2, 0x80, 0xBF), 3),
            0xE1..=0xEC | 0xEE..=0xEF => (cont(1, 0x80, 0xBF) && cont(2, 0x80, 0xBF), 3),
            0xED => (cont(1, 0x80, 0x9F) && cont(2, 0x80, 0xBF), 3),
            0xF0 => (cont(1, 0x90, 0xBF) && cont(2, 0x80, 0xBF) && cont(3, 0x80, 0xBF), 4),
            0xF1..=0xF3 => (cont(1, 0x80, 0xBF) && cont(2, 0x80, 0xBF) && cont(3, 0x80, 0xBF), 4),
            0xF4 => (cont(1, 0x80, 0x8F) && cont(2, 0x80, 0xBF) && cont(3, 0x80, 0xBF), 4),
            _ => (false, 0),
        };
        if ok {
            Ok(i + len)
        } else {
            Err(self.fail("invalid UTF-8", i))
        }
    }
}

/// The member of `members` named by the raw key, looked for from `hint` on
/// (the one after the previous match: members usually come in order).
#[inline(always)]
fn find(members: &[(&str, Ty)], raw: &[u8], escaped: bool, hint: &mut usize) -> Option<usize> {
    let n = members.len();
    let mut k = *hint;
    for _ in 0..n {
        if k >= n {
            k = 0;
        }
        if same(raw, escaped, members[k].0) {
            *hint = k + 1;
            return Some(k);
        }
        k += 1;
    }
    None
}

/// Whether the raw string content (valid JSON) is the string `s`.
#[inline(always)]
fn same(raw: &[u8], escaped: bool, s: &str) -> bool {
    if escaped {
        same_unescaped(raw, s)
    } else {
        raw == s.as_bytes()
    }
}

#[cold]
fn same_unescaped(raw: &[u8], s: &str) -> bool {
    Units::new(raw).eq(s.encode_utf16())
}

/// The UTF-16 code units of the content of a valid JSON string (the JS
/// string `JSON.parse` makes).
struct Units<'a> {
    b: &'a [u8],
    i: usize,
    low: Option<u16>,
}

impl<'a> Units<'a> {
    fn new(b: &'a [u8]) -> Self {
        Units { b, i: 0, low: None }
    }

    fn byte(&self, k: usize) -> u32 {
        u32::from(self.b.get(self.i + k).copied().unwrap_or(0))
    }
}

impl Iterator for Units<'_> {
    type Item = u16;

    fn next(&mut self) -> Option<u16> {
        if let Some(low) = self.low.take() {
            return Some(low);
        }
        let c = *self.b.get(self.i)?;
        let (unit, len) = match c {
            b'\\' => match self.b.get(self.i + 1) {
                Some(b'u') => {
                    let hex = (2..6).fold(0_u32, |n, k| n << 4 | char::from_u32(self.byte(k)).and_then(|d| d.to_digit(16)).unwrap_or(0));
                    (hex, 6)
                }
                Some(b'b') => (0x08, 2),
                Some(b'f') => (0x0c, 2),
                Some(b'n') => (0x0a, 2),
                Some(b'r') => (0x0d, 2),
                Some(b't') => (0x09, 2),
                Some(&other) => (u32::from(other), 2),
                None => (u32::from(b'\\'), 1),
            },
            0..=0x7f => (u32::from(c), 1),
            0xC0..=0xDF => ((u32::from(c) & 0x1f) << 6 | (self.byte(1) & 0x3f), 2),
            0xE0..=0xEF => ((u32::from(c) & 0x0f) << 12 | (self.byte(1) & 0x3f) << 6 | (self.byte(2) & 0x3f), 3),
            _ => ((u32::from(c) & 0x07) << 18 | (self.byte(1) & 0x3f) << 12 | (self.byte(2) & 0x3f) << 6 | (self.byte(3) & 0x3f), 4),
        };
        self.i += len;
        // Both halves fit 16 bits: `unit` is at most 0x10FFFF.
        #[allow(clippy::cast_possible_truncation)]
        if unit >= 0x1_0000 {
            let v = unit - 0x1_0000;
            self.low = Some(0xDC00 | (v & 0x3ff) as u16);
            Some(0xD800 | (v >> 10) as u16)
        } else {
            Some(unit as u16)
        }
    }
}

// ---------------------------------------------------------------- integers

/// 2^53 - 1, the largest safe integer.
const SAFE: u64 = (1 << 53) - 1;

/// Whether an integer type accepts the number whose value (see [`int_value`])
/// is `n`.
fn int_fits(ty: &Ty, n: Option<(bool, u64)>) -> bool {
    match (ty, n) {
        (_, None) => false,
        (Ty::U32, Some((negative, m))) => m <= u64::from(u32::MAX) && (!negative || m == 0),
        (Ty::U53, Some((negative, m))) => m <= SAFE && (!negative || m == 0),
        (_, Some((_, m))) => m <= SAFE,
    }
}

/// A JSON number (valid grammar) as sign and parts: the significant digits
/// (no leading or trailing zeros; empty for zero) and where the decimal point
/// goes: the value is `0.DIGITS × 10^point`.
struct Decimal<'a> {
    negative: bool,
    int: &'a [u8],
    frac: &'a [u8],
    /// Offsets of the first and one past the last significant digit in
    /// `int ++ frac`.
    first: usize,
    end: usize,
    point: i64,
}

impl<'a> Decimal<'a> {
    fn parse(text: &'a [u8]) -> Self {
        let negative = text.first() == Some(&b'-');
        let body = &text[usize::from(negative)..];
        let int_len = body.iter().position(|c| !c.is_ascii_digit()).unwrap_or(body.len());
        let (int, rest) = body.split_at(int_len);
        let (frac, rest) = match rest.split_first() {
            Some((b'.', r)) => {
                let n = r.iter().position(|c| !c.is_ascii_digit()).unwrap_or(r.len());
                r.split_at(n)
            }
            _ => (&rest[..0], rest),
        };
        // The exponent, saturated far beyond any double's range.
        let exponent = match rest.split_first() {
            Some((_, e)) => {
                let (negative, digits) = match e.split_first() {
                    Some((b'-', d)) => (true, d),
                    Some((b'+', d)) => (false, d),
                    _ => (false, e),
                };
                let n = digits.iter().fold(0_i64, |n, d| (n * 10 + i64::from(d.saturating_sub(b'0'))).min(1 << 40));
                if negative {
                    -n
                } else {
                    n
                }
            }
            None => 0,
        };
        let all = int.len() + frac.len();
        let digit = |k: usize| if k < int.len() { int[k] } else { frac[k - int.len()] };
        let first = (0..all).find(|&k| digit(k) != b'0').unwrap_or(all);
        let end = (first..all).rev().find(|&k| digit(k) != b'0').map_or(first, |k| k + 1);
        // Lengths are far below 2^40.
        #[allow(clippy::cast_possible_wrap)]
        let point = int.len() as i64 + exponent - first as i64;
        Decimal { negative, int, frac, first, end, point }
    }

    /// Significant digit `k` (0 past the end), as a number.
    fn digit(&self, k: usize) -> u8 {
        let at = self.first + k;
        if at >= self.end {
            0
        } else if at < self.int.len() {
            self.int[at].saturating_sub(b'0')
        } else {
            self.frac[at - self.int.len()].saturating_sub(b'0')
        }
    }

    fn len(&self) -> usize {
        self.end - self.first
    }
}

/// Compares two digit sequences after a decimal point (`a(k)` for `k < a_len`,
/// then zeros).
fn cmp_fraction(a: impl Fn(usize) -> u8, a_len: usize, b: impl Fn(usize) -> u8, b_len: usize) -> core::cmp::Ordering {
    for k in 0..a_len.max(b_len) {
        let (x, y) = (if k < a_len { a(k) } else { 0 }, if k < b_len { b(k) } else { 0 });
        if x != y {
            return x.cmp(&y);
        }
    }
    core::cmp::Ordering::Equal
}

/// Fills `out` with the decimal digits of 5^j, zero-padded on the left (5^j
/// must fit): with `out.len() == j` these are the digits of 2^-j after the
/// decimal point.
fn pow5(j: usize, out: &mut [u8]) {
    out.fill(0);
    if let Some(last) = out.last_mut() {
        *last = 1;
    }
    for _ in 0..j {
        let mut carry = 0;
        for x in out.iter_mut().rev() {
            let v = *x * 5 + carry;
            *x = v % 10;
            carry = v / 10;
        }
    }
}

/// Whether `d`, which is below 10^-323, is at most 2^-1075 (half the smallest
/// double: it rounds to zero). 2^-1075 is `0.`, 323 zeros, then 752 digits.
fn at_most_tiny(d: &Decimal) -> bool {
    let mut t = [0; 1075];
    pow5(1075, &mut t);
    cmp_fraction(|k| d.digit(k), d.len(), |k| t[323 + k], 752).is_le()
}

/// The value `JSON.parse` gives the number `text` (valid grammar), as sign and
/// magnitude, when that value is an integer of magnitude at most 2^53 - 1;
/// `None` when it is not an integer or is larger.
///
/// Exact, on the decimal text: a double `d` is an integer in that range iff
/// the number is within half a unit in the last place of an integer `n`
/// (ties go to `n`, whose mantissa is even), so the fraction `f` of the
/// number is compared with `2^-j` (half an ulp) and `1 - f` likewise.
fn int_value(text: &[u8]) -> Option<(bool, u64)> {
    let d = Decimal::parse(text);
    let negative = d.negative;
    if d.len() == 0 {
        return Some((negative, 0));
    }
    if d.point > 16 {
        return None; // >= 10^16 > 2^53
    }
    // `point <= 16`: the integer part has at most 16 digits.
    let int_digits = usize::try_from(d.point.max(0)).unwrap_or(0);
    let n0 = (0..int_digits).fold(0_u64, |n, k| n * 10 + u64::from(d.digit(k)));
    if d.len() <= int_digits {
        return (n0 <= SAFE).then_some((negative, n0));
    }
    if n0 > SAFE {
        return None;
    }
    // The fraction's digits: `lead` zeros, then the significant digits after the point.
    let lead = usize::try_from(-d.point).unwrap_or(0);
    let frac_len = lead.saturating_add(d.len() - int_digits);
    let frac = |k: usize| if k < lead { 0 } else { d.digit(int_digits + k - lead) };
    // 1 - f: nines' complement, plus one in the last place.
    let complement = |k: usize| if k + 1 < frac_len { 9 - frac(k) } else { 10 - frac(k) };
    let at_most_half_ulp = |j: usize, digits: &dyn Fn(usize) -> u8| {
        let mut half = [0; 54];
        pow5(j, &mut half[..j]);
        cmp_fraction(digits, frac_len, |k| half[k], j).is_le()
    };
    let rounded = if n0 >= 1 << 52 {
        // Every double here is an integer: round half to even.
        let up = match frac(0).cmp(&5) {
            core::cmp::Ordering::Greater => true,
            core::cmp::Ordering::Less => false,
            core::cmp::Ordering::Equal => d.len() > int_digits + 1 || n0 % 2 == 1,
        };
        n0 + u64::from(up)
    } else if n0 >= 1 {
        let j = 53 - (63 - n0.leading_zeros() as usize); // 2^-j is half an ulp
        if at_most_half_ulp(j, &frac) {
            n0
        } else if at_most_half_ulp(j, &complement) {
            n0 + 1
        } else {
            return None;
        }
    } else if d.point == 0 && at_most_half_ulp(54, &complement) {
        1 // in [1 - 2^-54, 1)
    } else if d.point <= -324 || (d.point == -323 && at_most_tiny(&d)) {
        0 // at most 2^-1075 (below 10^-324 is)
    } else {
        return None;
    };
    (rounded <= SAFE).then_some((negative, rounded))
}

/// The number `text` (valid grammar) as JavaScript prints the parsed number
/// (`5.0` is `5`, `1E21` is `1e+21`, `-0` is `0`, `1e400` is `Infinity`,
/// `9223372036854775807` is `9223372036854776000`). Exact for the shortest
/// round-trip digits every serializer writes and for every integer below
/// 2^64; other numbers written with more digits than their double needs are
/// rounded to 17 significant digits, which is what JavaScript prints in most
/// but not all such cases.
fn js_number(text: &[u8]) -> String {
    let d = Decimal::parse(text);
    if d.len() == 0 || d.point <= -324 || (d.point == -323 && at_most_tiny(&d)) {
        return "0".into();
    }
    let mut out = String::new();
    if d.negative {
        out.push('-');
    }
    let (digits, n) = big_integer(&d).unwrap_or_else(|| rounded(&d));
    if n > 309 || (n == 309 && digits.as_slice() > &[1, 7, 9, 7, 6, 9, 3, 1, 3, 4, 8, 6, 2, 3, 1, 5, 8][..]) {
        out.push_str("Infinity");
        return out;
    }
    let push = |out: &mut String, ds: &[u8]| out.extend(ds.iter().map(|&x| char::from(b'0' + x)));
    let zeros = |out: &mut String, count: i64| (0..count).for_each(|_| out.push('0'));
    let k = i64::try_from(digits.len()).unwrap_or(i64::MAX);
    let (int, frac) = digits.split_at(usize::try_from(n.clamp(0, k)).unwrap_or(0));
    if k <= n && n <= 21 {
        push(&mut out, &digits);
        zeros(&mut out, n - k);
    } else if 0 < n && n <= 21 {
        push(&mut out, int);
        out.push('.');
        push(&mut out, frac);
    } else if -6 < n && n <= 0 {
        out.push_str("0.");
        zeros(&mut out, -n);
        push(&mut out, &digits);
    } else {
        let (first, rest) = digits.split_at(1);
        push(&mut out, first);
        if !rest.is_empty() {
            out.push('.');
            push(&mut out, rest);
        }
        out.push_str(if n > 0 { "e+" } else { "e-" });
        out.push_str(&uint((n - 1).unsigned_abs()));
    }
    out
}

/// The significant digits of `d` rounded (half up) to the 17 a double holds,
/// and the new decimal point.
fn rounded(d: &Decimal) -> (Vec<u8>, i64) {
    let mut digits: Vec<u8> = (0..d.len().min(17)).map(|k| d.digit(k)).collect();
    let mut point = d.point;
    if d.digit(17) >= 5 {
        while digits.last() == Some(&9) {
            digits.pop();
        }
        match digits.last_mut() {
            Some(last) => *last += 1,
            None => {
                digits.push(1);
                point += 1;
            }
        }
    }
    while digits.last() == Some(&0) {
        digits.pop();
    }
    (digits, point)
}

/// For a number whose integer part `n` is in `2^53..2^64`: the shortest
/// digits that round-trip to its double (the closest such), and the decimal
/// point, as JavaScript picks them.
fn big_integer(d: &Decimal) -> Option<(Vec<u8>, i64)> {
    let p = usize::try_from(d.point).ok().filter(|p| (16..=20).contains(p))?;
    let n = (0..p).try_fold(0_u64, |n, k| n.checked_mul(10)?.checked_add(u64::from(d.digit(k))))?;
    if n < 1 << 53 {
        return None;
    }
    // The double (`as` rounds to nearest, ties to even). A fraction only breaks
    // ties: above 2^54 (ulp >= 4, ties are even) `n | 1` rounds as `n + f`
    // does; below (ulp 2) `n + f` rounds up from an odd `n`, to `n` from an even.
    #[allow(clippy::cast_precision_loss, clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let (x, m) = {
        let x = match (d.len() > p, n >= 1 << 54) {
            (false, _) => n as f64,
            (true, true) => (n | 1) as f64,
            (true, false) => (n + (n & 1)) as f64,
        };
        (x, x as u64) // exact below 2^64; 2^64 saturates, and no candidate then fits
    };
    let len = m.checked_ilog10().map_or(1, |l| l + 1);
    for keep in 1..=len.min(17) {
        let q = 10_u64.pow(len - keep);
        let (c, r) = (m / q, m % q);
        let c = c + u64::from(r > q - r || (r == q - r && c % 2 == 1));
        #[allow(clippy::cast_precision_loss)]
        if c.checked_mul(q).is_some_and(|v| v as f64 == x) {
            let mut digits: Vec<u8> = Vec::new();
            let mut c = c;
            while c > 0 {
                // A decimal digit.
                #[allow(clippy::cast_possible_truncation)]
                digits.push((c % 10) as u8);
                c /= 10;
            }
            let point = i64::from(len - keep) + i64::try_from(digits.len()).unwrap_or(0);
            digits.reverse();
            while digits.last() == Some(&0) {
                digits.pop();
            }
            return Some((digits, point));
        }
    }
    None
}

// ---------------------------------------------------------------- pass 2

/// A problem found by the exact pass: its message, its path (`.`-prefixed
/// segments) built on the way out, as `js/validate.js`'s `under` does, and the
/// end of the value it is in (so that an enclosing struct reads on from there).
struct Fail {
    path: String,
    message: String,
    end: usize,
}

impl Fail {
    fn under(mut self, segment: &[&str], end: usize) -> Self {
        self.path.insert_str(0, &cat(segment));
        self.end = end;
        self
    }
}

/// One past the end of the valid JSON value at `i`.
fn skip_valid(b: &[u8], mut i: usize) -> usize {
    let mut depth = 0_usize;
    loop {
        match b.get(i) {
            None => return i,
            Some(b'"') => {
                i = string_end(b, i + 1);
                if depth == 0 {
                    return i;
                }
            }
            Some(b'{' | b'[') => {
                depth += 1;
                i += 1;
            }
            Some(b'}' | b']') => {
                depth = depth.saturating_sub(1);
                i += 1;
                if depth == 0 {
                    return i;
                }
            }
            Some(_) if depth == 0 => {
                while b.get(i).is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'+' | b'.')) {
                    i += 1;
                }
                return i;
            }
            Some(_) => i += 1,
        }
    }
}

/// One past the closing quote of the valid string whose content starts at `i`.
fn string_end(b: &[u8], i: usize) -> usize {
    let mut scan = Scan::new(b, i);
    scan.string().map_or(b.len(), |_| scan.i)
}

/// The content (between the quotes) of the valid string at `i`.
fn string_content(b: &[u8], i: usize) -> &[u8] {
    b.get(i + 1..string_end(b, i + 1).saturating_sub(1)).unwrap_or_default()
}

/// Walks the members of the valid object at `i`: `f(key content, value
/// offset)` returns the end of the value; returns the end of the object.
fn walk_members<'b, E>(b: &'b [u8], i: usize, mut f: impl FnMut(&'b [u8], usize) -> Result<usize, E>) -> Result<usize, E> {
    let mut at = ws(b, i + 1);
    while b.get(at) == Some(&b'"') {
        let key = string_content(b, at);
        let end = f(key, ws(b, ws(b, string_end(b, at + 1)) + 1))?;
        at = ws(b, end);
        if b.get(at) == Some(&b',') {
            at = ws(b, at + 1);
        }
    }
    Ok(at + 1)
}

/// The key's place in `for…in` order when it is an array index (those come
/// first, in numeric order): the canonical decimal of a number below 2^32 - 1.
fn array_index(mut key: impl Iterator<Item = u16>) -> Option<u32> {
    let mut n = 0_u64;
    let mut len = 0;
    let mut first = 0;
    for u in key.by_ref() {
        let d = char::from_u32(u32::from(u)).and_then(|c| c.to_digit(10))?;
        if len == 0 {
            first = d;
        }
        len += 1;
        if len > 10 {
            return None;
        }
        n = n * 10 + u64::from(d);
    }
    if len == 0 || (first == 0 && len > 1) {
        return None;
    }
    u32::try_from(n).ok().filter(|&n| n != u32::MAX)
}

/// Sorts `v` by `less` (heapsort: small, no allocation; for the maps of a
/// failing body only).
fn heapsort<T>(v: &mut [T], less: impl Fn(&T, &T) -> bool) {
    fn sift<T>(v: &mut [T], mut node: usize, end: usize, less: &impl Fn(&T, &T) -> bool) {
        loop {
            let mut child = 2 * node + 1;
            if child >= end {
                return;
            }
            if child + 1 < end && less(&v[child], &v[child + 1]) {
                child += 1;
            }
            if !less(&v[node], &v[child]) {
                return;
            }
            v.swap(node, child);
            node = child;
        }
    }
    for node in (0..v.len() / 2).rev() {
        sift(v, node, v.len(), &less);
    }
    for end in (1..v.len()).rev() {
        v.swap(0, end);
        sift(v, 0, end, &less);
    }
}

/// The exact pass, over JSON known to be valid: the value at `i` against `ty`;
/// its end, or the problem `js/validate.js` reports first in it. Allocates
/// only for a problem (and for a map with one).
fn exact(b: &[u8], i: usize, ty: &Ty) -> Result<usize, Fail> {
    let c = b.get(i).copied().unwrap_or(0);
    let fits = match *ty {
        Ty::Str => c == b'"',
        Ty::Bool => c == b't' || c == b'f',
        Ty::F64 => c == b'-' || c.is_ascii_digit(),
        Ty::U32 | Ty::U53 | Ty::I53 => (c == b'-' || c.is_ascii_digit()) && int_fits(ty, int_value(&b[i..skip_valid(b, i)])),
        Ty::Null(t) | Ty::Opt(t) => return if c == b'n' { Ok(i + 4) } else { exact(b, i, t) },
        Ty::Array(t) if c == b'[' => {
            let mut at = ws(b, i + 1);
            let mut k = 0_u64;
            let mut fail = None;
            while b.get(at) != Some(&b']') && at < b.len() {
                let end = match exact(b, at, t) {
                    Ok(end) => end,
                    Err(f) if fail.is_none() => {
                        let end = f.end;
                        fail = Some((k, f));
                        end
                    }
                    Err(f) => f.end,
                };
                at = ws(b, end);
                if b.get(at) == Some(&b',') {
                    at = ws(b, at + 1);
                }
                k += 1;
                if fail.is_some() {
                    // Read on to the end without checking.
                    while b.get(at) != Some(&b']') && at < b.len() {
                        at = ws(b, skip_valid(b, at));
                        if b.get(at) == Some(&b',') {
                            at = ws(b, at + 1);
                        }
                    }
                }
            }
            return match fail {
                None => Ok(at + 1),
                Some((k, f)) => Err(f.under(&["[", &uint(k), "]"], at + 1)),
            };
        }
        Ty::Map(t) if c == b'{' => return exact_map(b, i, t),
        Ty::Ref(k) => match entry(k) {
            Some(Entry::Struct { required, members }) if c == b'{' => return exact_object(b, i, members, *required),
            Some(Entry::Enum(values)) if c == b'"' => {
                let raw = string_content(b, i);
                values.iter().any(|v| same(raw, raw.contains(&b'\\'), v))
            }
            _ => false,
        },
        Ty::Any => true,
        Ty::Array(_) | Ty::Map(_) => false,
    };
    if fits {
        Ok(skip_valid(b, i))
    } else {
        Err(Fail { path: String::new(), message: cat(&["expected ", &expects(ty), ", got ", &describe(b, i)]), end: skip_valid(b, i) })
    }
}

/// A struct: every member value is checked as it comes (a later duplicate
/// replaces an earlier one's verdict, as `JSON.parse` keeps the last), then
/// the first member in schema order that is missing or wrong is the problem.
fn exact_object(b: &[u8], i: usize, members: &[(&str, Ty)], required: u64) -> Result<usize, Fail> {
    let (mut seen, mut failed) = (0_u64, 0_u64);
    let mut fails: Vec<(usize, Fail)> = Vec::new();
    let mut hint = 0;
    let end = walk_members(b, i, |key, at| {
        let Some(k) = find(members, key, key.contains(&b'\\'), &mut hint) else {
            return Ok::<_, ()>(skip_valid(b, at));
        };
        seen |= 1 << k;
        if failed & 1 << k != 0 {
            failed &= !(1 << k);
            fails.retain(|(j, _)| *j != k);
        }
        Ok(match exact(b, at, &members[k].1) {
            Ok(end) => end,
            Err(f) => {
                failed |= 1 << k;
                let end = f.end;
                fails.push((k, f));
                end
            }
        })
    })
    .unwrap_or(b.len());
    for (k, (name, _)) in members.iter().enumerate() {
        if (required & !seen) & 1 << k != 0 {
            return Err(Fail { path: String::new(), message: cat(&["missing field `", name, "`"]), end });
        }
        if failed & 1 << k != 0 {
            if let Some(at) = fails.iter().position(|(j, _)| *j == k) {
                return Err(fails.swap_remove(at).1.under(&[".", name], end));
            }
        }
    }
    Ok(end)
}

/// A key's place in `for…in` order: (0, index, 0) for an array index, (1, 0,
/// first occurrence) for another key.
type ForIn = (u32, u32, usize);

/// A map: when every value passes (each occurrence), it passes; else the
/// first problem in `for…in` order: array indices ascending, then the other
/// keys in the order of their first occurrence, each with its last value.
fn exact_map(b: &[u8], i: usize, t: &Ty) -> Result<usize, Fail> {
    let mut bad = false;
    let end = walk_members(b, i, |_, at| {
        Ok::<_, ()>(exact(b, at, t).unwrap_or_else(|f| {
            bad = true;
            f.end
        }))
    })
    .unwrap_or(b.len());
    if !bad {
        return Ok(end);
    }
    // Group the occurrences of each key: (raw key, order, value), sorted by key then order.
    let mut keys: Vec<(&[u8], usize, usize)> = Vec::new();
    let _ = walk_members(b, i, |key, at| {
        keys.push((key, keys.len(), at));
        Ok::<_, ()>(skip_valid(b, at))
    });
    heapsort(&mut keys, |x, y| Units::new(x.0).cmp(Units::new(y.0)).then(x.1.cmp(&y.1)).is_lt());
    // The first key in `for…in` order whose last value fails.
    let mut first: Option<(ForIn, &[u8], Fail)> = None;
    let mut start = 0;
    while start < keys.len() {
        let group = keys[start..].iter().take_while(|k| Units::new(k.0).eq(Units::new(keys[start].0))).count();
        let (key, order, _) = keys[start];
        let (_, _, last) = keys[start + group - 1];
        let place = array_index(Units::new(key)).map_or((1, 0, order), |n| (0, n, 0));
        if first.as_ref().is_none_or(|(p, _, _)| place < *p) {
            if let Err(f) = exact(b, last, t) {
                first = Some((place, key, f));
            }
        }
        start += group;
    }
    if let Some((_, key, f)) = first {
        let key: String = char::decode_utf16(Units::new(key)).map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER)).collect();
        return Err(f.under(&[".", &key], end));
    }
    Ok(end) // only duplicates that their last values fix
}

/// How `js/validate.js` describes the valid value at `i` (`describe`).
fn describe(b: &[u8], i: usize) -> String {
    match b.get(i) {
        Some(b'n') => "null".into(),
        Some(b'[') => "an array".into(),
        Some(b'{') => "a object".into(), // `a ${typeof v}`, as validate.js says it
        Some(b't' | b'f') => "a boolean".into(),
        Some(b'"') => {
            let mut units: Vec<u16> = Units::new(string_content(b, i)).take(41).collect();
            if units.len() > 40 {
                units.truncate(40);
                units.push(0x2026); // …
            }
            cat(&["the string ", &js_stringify(&units)])
        }
        _ => cat(&["the number ", &js_number(&b[i..skip_valid(b, i)])]),
    }
}

/// `JSON.stringify` of a JS string (lone surrogates as `\udXXX`).
fn js_stringify(units: &[u16]) -> String {
    fn hex4(out: &mut String, n: u32) {
        out.push_str("\\u");
        for shift in [12, 8, 4, 0] {
            out.push(char::from_digit((n >> shift) & 0xf, 16).unwrap_or('0'));
        }
    }
    let mut out = String::with_capacity(units.len() + 2);
    out.push('"');
    for c in char::decode_utf16(units.iter().copied()) {
        match c {
            Ok('"') => out.push_str("\\\""),
            Ok('\\') => out.push_str("\\\\"),
            Ok('\u{8}') => out.push_str("\\b"),
            Ok('\u{c}') => out.push_str("\\f"),
            Ok('\n') => out.push_str("\\n"),
            Ok('\r') => out.push_str("\\r"),
            Ok('\t') => out.push_str("\\t"),
            Ok(c) if c < ' ' => hex4(&mut out, c.into()),
            Ok(c) => out.push(c),
            Err(e) => hex4(&mut out, e.unpaired_surrogate().into()),
        }
    }
    out.push('"');
    out
}
