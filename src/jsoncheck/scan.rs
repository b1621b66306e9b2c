//! The fast pass: the syntax and the schema checked together in one pass
//! over the bytes, allocation-free (see the module documentation of
//! [`super`]).

use super::int::{int_fits, int_value};
use super::{entry, Entry, Problem, Ty, MAX_DEPTH};

/// Why the fast pass stopped: a syntax error or too deep a nesting, at a byte
/// offset.
#[derive(Debug, Clone, Copy)]
pub(super) enum Stop {
    /// What was wrong (``expected `:` ``) at the offset.
    Syntax(&'static str, usize),
    Deep(usize),
}

impl Stop {
    pub(super) fn problem(self, len: usize) -> Problem {
        match self {
            Stop::Syntax(_, at) if at >= len => Problem { path: String::new(), message: format!("{NOT_JSON}unexpected end of input"), got: None },
            Stop::Syntax(what, at) => Problem { path: String::new(), message: format!("{NOT_JSON}{what} at byte {at}"), got: None },
            Stop::Deep(at) => Problem {
                path: "(root)".into(),
                message: format!("arrays and objects nest deeper than {MAX_DEPTH} levels at byte {at}"),
                got: None,
            },
        }
    }
}

const NOT_JSON: &str = "the response body is not valid JSON (truncated?): ";

/// JSON whitespace.
pub(super) const fn is_ws(c: u8) -> bool {
    matches!(c, b' ' | b'\n' | b'\r' | b'\t')
}

/// The offset of the first non-whitespace byte at or after `i`.
#[inline(always)]
pub(super) fn ws(b: &[u8], mut i: usize) -> usize {
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
pub(super) struct Halt;

pub(super) type Step<T = ()> = Result<T, Halt>;

/// A schema problem: a value of the wrong type, a missing member, or (in a
/// closed check) a member the schema does not have.
#[derive(Debug, Clone, Copy)]
pub(super) enum Kind {
    Type(Ty),
    Missing(&'static str),
    Unknown,
}

/// The fast pass: the cursor over the body, whether a schema problem was seen
/// (from then on only the syntax is checked), the first one (what, and the
/// offset of the value: for a missing member, of its object), and why the
/// pass stopped, if it did.
pub(super) struct Scan<'a> {
    b: &'a [u8],
    pub(super) i: usize,
    bad: bool,
    /// Members a struct's schema does not have are problems ([`super::check_closed`]).
    pub(super) closed: bool,
    pub(super) first: Option<(Kind, usize)>,
    pub(super) stop: Stop,
}

impl<'a> Scan<'a> {
    pub(super) fn new(b: &'a [u8], i: usize) -> Self {
        Scan { b, i, bad: false, closed: false, first: None, stop: Stop::Syntax("", 0) }
    }

    /// Notes a schema problem at `at`: only the first counts.
    #[cold]
    #[inline(never)]
    fn found(&mut self, kind: Kind, at: usize) {
        if !self.bad {
            self.bad = true;
            self.first = Some((kind, at));
        }
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

    pub(super) fn document(&mut self, ty: &Ty) -> Step {
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
                        self.found(Kind::Type(*ty), start);
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
                        self.found(Kind::Type(*ty), start - 1);
                    }
                    return Ok(());
                }
                _ => false,
            },
        };
        if !fits {
            self.found(Kind::Type(*ty), self.i);
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

    fn object(&mut self, members: &'static [(&'static str, Ty)], required: u64, depth: u32) -> Step {
        let at = self.i;
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
                    None => {
                        if self.closed {
                            self.found(Kind::Unknown, self.i);
                        }
                        self.skip(depth)?;
                    }
                }
                if !self.next(b'}')? {
                    break;
                }
            }
        }
        let missing = required & !seen;
        if missing != 0 {
            // The first missing member in schema order.
            self.found(Kind::Missing(members[missing.trailing_zeros() as usize].0), at);
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
    pub(super) fn string(&mut self) -> Step<bool> {
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
pub(super) struct Units<'a> {
    b: &'a [u8],
    i: usize,
    low: Option<u16>,
}

impl<'a> Units<'a> {
    pub(super) fn new(b: &'a [u8]) -> Self {
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
