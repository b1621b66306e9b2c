//! Left-overs of a rule that no longer holds: these helpers were written to
//! keep `format!` out of the wasm, but with every caller on `format!`, `{:?}`
//! and `chars().count()` each wasm is smaller (issue 26, measured like
//! `scripts/build-pkg.sh`: client -0.4 KB gz, root -0.8 KB, checkout module
//! -0.6 KB; `core::fmt` is in every module anyway). Use `format!`: the callers
//! left (`src/wasm/*`, `checkout/stored.rs`, `storefront/input.rs`,
//! `cart/storage.rs`) move to it, and this module goes with the last one.

/// The pieces joined: `cat(&["limit ", &uint(3)]) == "limit 3"`.
#[must_use]
pub fn cat(parts: &[&str]) -> String {
    let mut out = String::with_capacity(parts.iter().map(|p| p.len()).sum());
    for p in parts {
        out.push_str(p);
    }
    out
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
        for s in ["", "abc", "a\"b\\c", "t\tr\rn\n0\0", "\u{1}\u{7f}\u{9f}", "é ü 日本 🦀", "'single'"] {
            assert_eq!(quote(s), format!("{s:?}"), "{s:?}");
        }
        assert_eq!(cat(&["a", "", "bc"]), "abc");
    }
}
