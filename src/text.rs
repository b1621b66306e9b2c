//! Error-message text without `core::fmt`: the wasm build formats no string
//! with `format!` (which pulls `core::fmt`'s machinery, its vtables and
//! Unicode tables into the binary), it concatenates with these.

/// The pieces joined: `cat(&["limit ", &uint(3)]) == "limit 3"`.
#[must_use]
pub fn cat(parts: &[&str]) -> String {
    let mut out = String::with_capacity(parts.iter().map(|p| p.len()).sum());
    for p in parts {
        out.push_str(p);
    }
    out
}

/// The number of `char`s of `s` (`s.chars().count()`, whose unrolled
/// version weighs 1 KB in the wasm).
#[must_use]
pub fn char_count(s: &str) -> usize {
    s.bytes().filter(|&b| b & 0xC0 != 0x80).count()
}

/// `n` in decimal (what `{n}` prints).
#[must_use]
pub fn uint(mut n: u64) -> String {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        // `n % 10 < 10` fits a digit.
        #[allow(clippy::cast_possible_truncation)]
        let d = (n % 10) as u8;
        buf[i] = b'0' + d;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    buf[i..].iter().map(|&b| char::from(b)).collect()
}

/// `n` in decimal, with a `-` when negative.
#[must_use]
pub fn int(n: i64) -> String {
    let digits = uint(n.unsigned_abs());
    if n < 0 {
        cat(&["-", &digits])
    } else {
        digits
    }
}

/// `s` quoted and escaped as `{s:?}` prints it for every character but the
/// rare printable-looking Unicode format characters, which are kept as they
/// are: `"`, `\`, tab, CR, LF and NUL get a backslash, other control
/// characters become `\u{…}`.
#[must_use]
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\n' => out.push_str("\\n"),
            '\0' => out.push_str("\\0"),
            c if c.is_control() => {
                out.push_str("\\u{");
                let n = u32::from(c);
                let mut shift = 28;
                while shift > 0 && (n >> shift) & 0xf == 0 {
                    shift -= 4;
                }
                loop {
                    let d = (n >> shift) & 0xf;
                    out.push(char::from_digit(d, 16).unwrap_or('0'));
                    if shift == 0 {
                        break;
                    }
                    shift -= 4;
                }
                out.push('}');
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_format() {
        for n in [0_u64, 7, 10, 99, 100, 4_294_967_295, u64::MAX] {
            assert_eq!(uint(n), format!("{n}"));
        }
        for n in [0_i64, -1, 9_007_199_254_740_991, -9_007_199_254_740_991, i64::MIN, i64::MAX] {
            assert_eq!(int(n), format!("{n}"));
        }
        for s in ["", "abc", "a\"b\\c", "t\tr\rn\n0\0", "\u{1}\u{7f}\u{9f}", "é ü 日本 🦀", "'single'"] {
            assert_eq!(quote(s), format!("{s:?}"), "{s:?}");
        }
        assert_eq!(cat(&["a", "", "bc"]), "abc");
        for s in ["", "abc", "é ü 日本 🦀"] {
            assert_eq!(char_count(s), s.chars().count());
        }
    }
}
