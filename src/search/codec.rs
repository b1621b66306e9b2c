//! The bytes of an index: LEB128 varints, front-coded sorted strings, and a reader that checks
//! every length against what is left, so truncated or mutated bytes are a typed error, never a
//! panic or an allocation larger than the input.

use crate::error::Error;

/// The first bytes of every index.
pub const MAGIC: &[u8; 4] = b"CSRX";
/// The format this build writes and reads.
pub const VERSION: u8 = 1;

#[derive(Default)]
pub struct Writer {
    pub buf: Vec<u8>,
}

impl Writer {
    pub fn uint(&mut self, mut v: u64) {
        while v >= 0x80 {
            self.buf.push((v as u8) | 0x80);
            v >>= 7;
        }
        self.buf.push(v as u8);
    }
    pub fn int(&mut self, v: i64) {
        self.uint(((v << 1) ^ (v >> 63)) as u64);
    }
    pub fn str(&mut self, s: &str) {
        self.uint(s.len() as u64);
        self.buf.extend_from_slice(s.as_bytes());
    }
    /// Strings in order, each as the length it shares with the one before and the rest.
    pub fn front_coded(&mut self, items: &[String]) {
        self.uint(items.len() as u64);
        let mut prev = "";
        for s in items {
            let shared = common_prefix(prev, s);
            self.uint(shared as u64);
            self.str(&s[shared..]);
            prev = s;
        }
    }
}

/// The length in bytes of the longest common prefix of `a` and `b` that ends on a char boundary.
#[must_use]
pub fn common_prefix(a: &str, b: &str) -> usize {
    let mut n = a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
    while !b.is_char_boundary(n) {
        n -= 1;
    }
    n
}

pub struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

fn bad(what: &str, at: usize) -> Error {
    Error::decode(format!("search index: {what} at byte {at}"))
}

impl<'a> Reader<'a> {
    #[must_use]
    pub fn new(bytes: &'a [u8]) -> Self {
        Self { bytes, at: 0 }
    }
    #[must_use]
    pub fn at_end(&self) -> bool {
        self.at == self.bytes.len()
    }
    pub fn byte(&mut self) -> Result<u8, Error> {
        let b = *self.bytes.get(self.at).ok_or_else(|| bad("truncated", self.at))?;
        self.at += 1;
        Ok(b)
    }
    pub fn take(&mut self, n: usize) -> Result<&'a [u8], Error> {
        if self.bytes.len() - self.at < n {
            return Err(bad("truncated", self.bytes.len()));
        }
        let s = &self.bytes[self.at..self.at + n];
        self.at += n;
        Ok(s)
    }
    pub fn uint(&mut self) -> Result<u64, Error> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            v |= u64::from(b & 0x7F) << shift;
            if b < 0x80 {
                return Ok(v);
            }
        }
        Err(bad("a number too long", self.at))
    }
    /// A number below `limit` (an index into something of that length).
    pub fn below(&mut self, limit: usize) -> Result<usize, Error> {
        let at = self.at;
        let v = self.uint()?;
        usize::try_from(v).ok().filter(|&v| v < limit).ok_or_else(|| bad("a number out of range", at))
    }
    /// A count of items, each at least `min_bytes` long: never more than the bytes left allow.
    pub fn count(&mut self, min_bytes: usize) -> Result<usize, Error> {
        let left = (self.bytes.len() - self.at) / min_bytes.max(1);
        self.below(left + 1)
    }
    pub fn int(&mut self) -> Result<i64, Error> {
        let v = self.uint()?;
        Ok(((v >> 1) as i64) ^ -((v & 1) as i64))
    }
    pub fn str(&mut self) -> Result<String, Error> {
        let n = self.count(1)?;
        let at = self.at;
        let s = self.take(n)?;
        core::str::from_utf8(s).map(str::to_owned).map_err(|_| bad("text that is not UTF-8", at))
    }
    /// Strings written by [`Writer::front_coded`], checked to be strictly increasing.
    pub fn front_coded(&mut self) -> Result<Vec<String>, Error> {
        let n = self.count(2)?;
        let mut out: Vec<String> = Vec::with_capacity(n);
        for i in 0..n {
            let at = self.at;
            let prev = if i == 0 { "" } else { out[i - 1].as_str() };
            let shared = self.below(prev.len() + 1)?;
            if !prev.is_char_boundary(shared) {
                return Err(bad("a shared prefix inside a character", at));
            }
            let mut s = String::with_capacity(shared + 8);
            s.push_str(&prev[..shared]);
            s.push_str(&self.str()?);
            if i > 0 && s.as_str() <= prev {
                return Err(bad("strings out of order", at));
            }
            out.push(s);
        }
        Ok(out)
    }
}

/// FNV-1a over the bytes: the index's last 4 bytes, so a changed byte is named as such.
#[must_use]
pub fn checksum(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811C_9DC5_u32, |h, &b| (h ^ u32::from(b)).wrapping_mul(0x0100_0193))
}

/// The body of an index (between its header and its checksum), or why not.
pub fn open(bytes: &[u8]) -> Result<&[u8], Error> {
    if bytes.len() < MAGIC.len() + 1 + 4 || &bytes[..4] != MAGIC {
        return Err(Error::decode("search index: not a search index (no CSRX header)"));
    }
    if bytes[4] != VERSION {
        return Err(Error::decode(format!(
            "search index: format version {}, this SDK reads version {VERSION}: build the index again with this SDK",
            bytes[4]
        )));
    }
    let (body, sum) = bytes.split_at(bytes.len() - 4);
    if checksum(body).to_le_bytes() != sum {
        return Err(Error::decode("search index: checksum mismatch (truncated or changed bytes)"));
    }
    Ok(&body[5..])
}

/// Header, body and checksum.
#[must_use]
pub fn seal(body: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len() + 9);
    out.extend_from_slice(MAGIC);
    out.push(VERSION);
    out.extend_from_slice(body);
    let sum = checksum(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}
