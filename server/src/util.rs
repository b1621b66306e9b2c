//! Small helpers: ids, hashing, timestamps, and the store's money and API keys by the
//! SDK core's rules (`cirrus_storefront::money`, `cirrus_storefront::options`).

use cirrus_storefront::money;
use sha2::{Digest, Sha256};

/// Decimal places of the store's currency (USD, the one the dev server sells in).
pub const EXPONENT: u32 = 2;

/// Minor units (cents) as the wire's decimal string, `1999` -> `"19.99"`: the core's
/// [`money::format_decimal`] in the store's currency.
#[must_use]
pub fn format_cents(cents: i64) -> String {
    money::format_decimal(cents, EXPONENT)
}

/// Lower-case hex of `bytes`.
#[must_use]
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// `n` random bytes from the OS, as hex.
///
/// # Panics
/// Only if the operating system has no randomness source at all.
#[must_use]
pub fn random_hex(n: usize) -> String {
    let mut buf = vec![0u8; n];
    getrandom::getrandom(&mut buf).expect("OS randomness");
    hex(&buf)
}

/// SHA-256 of `s`.
#[must_use]
pub fn sha256(s: &str) -> [u8; 32] {
    Sha256::digest(s.as_bytes()).into()
}

/// `true` for a well-formed API key (`ak_` followed by exactly 48 hex digits): the
/// SDK's own check, [`cirrus_storefront::options::check_api_key`].
#[must_use]
pub fn is_api_key(s: &str) -> bool {
    cirrus_storefront::options::check_api_key(s).is_ok()
}

/// The form a key may take in logs and messages: `ak_1234…`.
#[must_use]
pub fn mask_key(s: &str) -> String {
    let head: String = s.chars().take(7).collect();
    format!("{head}…")
}

/// Current UTC time as ISO 8601 with milliseconds, e.g. `2026-01-02T03:04:05.678Z`.
#[must_use]
pub fn now_iso() -> String {
    let d = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    iso_from_unix_millis(i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// ISO 8601 UTC from milliseconds since the Unix epoch.
#[must_use]
pub fn iso_from_unix_millis(ms: i64) -> String {
    let secs = ms.div_euclid(1000);
    let millis = ms.rem_euclid(1000);
    let days = secs.div_euclid(86_400);
    let sod = secs.rem_euclid(86_400);
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = if m <= 2 { y + 1 } else { y };
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{millis:03}Z",
        sod / 3600,
        (sod / 60) % 60,
        sod % 60
    )
}

/// `round_half_up(amount * bps / 10000)` in integer arithmetic, for `amount >= 0`.
#[must_use]
pub fn apply_bps_half_up(amount: i64, bps: i64) -> i64 {
    let scaled = i128::from(amount) * i128::from(bps);
    i64::try_from((scaled + 5_000) / 10_000).unwrap_or(i64::MAX)
}

/// Takes one use of the first armed item `matches` accepts; it disarms after its last use.
pub fn take_armed<T: Clone>(list: &std::sync::Mutex<Vec<T>>, matches: impl Fn(&T) -> bool, times: impl Fn(&mut T) -> &mut u32) -> Option<T> {
    let mut list = list.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let i = list.iter().position(matches)?;
    let item = list[i].clone();
    let left = times(&mut list[i]);
    if *left <= 1 {
        list.remove(i);
    } else {
        *left -= 1;
    }
    Some(item)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cents_format() {
        assert_eq!(format_cents(0), "0.00");
        assert_eq!(format_cents(5), "0.05");
        assert_eq!(format_cents(1999), "19.99");
        assert_eq!(format_cents(100_000), "1000.00");
        assert_eq!(format_cents(-150), "-1.50");
        for c in [0, 5, 99, 100, 1999, 123_456_789] {
            assert_eq!(money::parse_decimal(&format_cents(c), EXPONENT), Ok(c));
        }
    }

    #[test]
    fn iso_dates() {
        assert_eq!(iso_from_unix_millis(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(iso_from_unix_millis(1_709_210_096_789), "2024-02-29T12:34:56.789Z");
    }

    #[test]
    fn tax_rounds_half_up() {
        assert_eq!(apply_bps_half_up(1000, 725), 73); // 72.5 -> 73
        assert_eq!(apply_bps_half_up(1001, 725), 73); // 72.57 -> 73
        assert_eq!(apply_bps_half_up(999, 725), 72); // 72.43 -> 72
        assert_eq!(apply_bps_half_up(0, 2000), 0);
    }

    #[test]
    fn keys() {
        let k = format!("ak_{}", "a".repeat(48));
        assert!(is_api_key(&k));
        assert!(!is_api_key("ak_123"));
        assert!(!is_api_key(&format!("ak_{}", "g".repeat(48))));
        assert_eq!(mask_key(&k), "ak_aaaa…");
    }

    #[test]
    fn hex_writes_two_lower_case_digits_a_byte() {
        assert_eq!(hex(&[0x00, 0x0f, 0xab, 0xff]), "000fabff");
    }
}

