//! Exact money: decimal price strings ↔ integer minor units.
//!
//! Every amount in the SDK is an `i64` count of the currency's minor unit
//! (cents for USD, yen for JPY, fils for KWD), with the ISO 4217 exponent from
//! [`Currency`]. Parsing is digit by digit and all arithmetic is checked: there
//! is no floating point anywhere in pricing, and an overflow is an error, never
//! a wrap. Locale display formatting happens at the JS boundary
//! (`Intl.NumberFormat`); the core only produces the exact decimal string.

use core::fmt;

use crate::error::{Error, Result};

/// The largest integer a JavaScript `number` holds exactly (2^53 − 1).
/// Minor units cross the wasm boundary as `number` and are checked against it.
pub const MAX_SAFE_MINOR: i64 = 9_007_199_254_740_991;

/// [`MAX_SAFE_MINOR`] in decimal, for messages.
pub(crate) const MAX_SAFE_TEXT: &str = "9007199254740991";

/// Longest input echoed back in an error message.
const ECHO_MAX: usize = 40;

/// The ISO 4217 currencies with their minor-unit exponents, sorted by code
/// (binary search). The one list of currencies: issue 27 generates the TS
/// `CurrencyCode` union from it. Codes as bytes, not `&str`: 4 bytes an entry instead of
/// 12 (a pointer and a length), in every wasm.
pub(crate) const CURRENCIES: &[([u8; 3], u8)] = &[
    (*b"AED", 2), (*b"AFN", 2), (*b"ALL", 2), (*b"AMD", 2), (*b"ANG", 2), (*b"AOA", 2), (*b"ARS", 2), (*b"AUD", 2),
    (*b"AWG", 2), (*b"AZN", 2), (*b"BAM", 2), (*b"BBD", 2), (*b"BDT", 2), (*b"BGN", 2), (*b"BHD", 3), (*b"BIF", 0),
    (*b"BMD", 2), (*b"BND", 2), (*b"BOB", 2), (*b"BOV", 2), (*b"BRL", 2), (*b"BSD", 2), (*b"BTN", 2), (*b"BWP", 2),
    (*b"BYN", 2), (*b"BZD", 2), (*b"CAD", 2), (*b"CDF", 2), (*b"CHE", 2), (*b"CHF", 2), (*b"CHW", 2), (*b"CLF", 4),
    (*b"CLP", 0), (*b"CNY", 2), (*b"COP", 2), (*b"COU", 2), (*b"CRC", 2), (*b"CUP", 2), (*b"CVE", 2), (*b"CZK", 2),
    (*b"DJF", 0), (*b"DKK", 2), (*b"DOP", 2), (*b"DZD", 2), (*b"EGP", 2), (*b"ERN", 2), (*b"ETB", 2), (*b"EUR", 2),
    (*b"FJD", 2), (*b"FKP", 2), (*b"GBP", 2), (*b"GEL", 2), (*b"GHS", 2), (*b"GIP", 2), (*b"GMD", 2), (*b"GNF", 0),
    (*b"GTQ", 2), (*b"GYD", 2), (*b"HKD", 2), (*b"HNL", 2), (*b"HTG", 2), (*b"HUF", 2), (*b"IDR", 2), (*b"ILS", 2),
    (*b"INR", 2), (*b"IQD", 3), (*b"IRR", 2), (*b"ISK", 0), (*b"JMD", 2), (*b"JOD", 3), (*b"JPY", 0), (*b"KES", 2),
    (*b"KGS", 2), (*b"KHR", 2), (*b"KMF", 0), (*b"KPW", 2), (*b"KRW", 0), (*b"KWD", 3), (*b"KYD", 2), (*b"KZT", 2),
    (*b"LAK", 2), (*b"LBP", 2), (*b"LKR", 2), (*b"LRD", 2), (*b"LSL", 2), (*b"LYD", 3), (*b"MAD", 2), (*b"MDL", 2),
    (*b"MGA", 2), (*b"MKD", 2), (*b"MMK", 2), (*b"MNT", 2), (*b"MOP", 2), (*b"MRU", 2), (*b"MUR", 2), (*b"MVR", 2),
    (*b"MWK", 2), (*b"MXN", 2), (*b"MXV", 2), (*b"MYR", 2), (*b"MZN", 2), (*b"NAD", 2), (*b"NGN", 2), (*b"NIO", 2),
    (*b"NOK", 2), (*b"NPR", 2), (*b"NZD", 2), (*b"OMR", 3), (*b"PAB", 2), (*b"PEN", 2), (*b"PGK", 2), (*b"PHP", 2),
    (*b"PKR", 2), (*b"PLN", 2), (*b"PYG", 0), (*b"QAR", 2), (*b"RON", 2), (*b"RSD", 2), (*b"RUB", 2), (*b"RWF", 0),
    (*b"SAR", 2), (*b"SBD", 2), (*b"SCR", 2), (*b"SDG", 2), (*b"SEK", 2), (*b"SGD", 2), (*b"SHP", 2), (*b"SLE", 2),
    (*b"SOS", 2), (*b"SRD", 2), (*b"SSP", 2), (*b"STN", 2), (*b"SVC", 2), (*b"SYP", 2), (*b"SZL", 2), (*b"THB", 2),
    (*b"TJS", 2), (*b"TMT", 2), (*b"TND", 3), (*b"TOP", 2), (*b"TRY", 2), (*b"TTD", 2), (*b"TWD", 2), (*b"TZS", 2),
    (*b"UAH", 2), (*b"UGX", 0), (*b"USD", 2), (*b"USN", 2), (*b"UYI", 0), (*b"UYU", 2), (*b"UYW", 4), (*b"UZS", 2),
    (*b"VED", 2), (*b"VES", 2), (*b"VND", 0), (*b"VUV", 0), (*b"WST", 2), (*b"XAF", 0), (*b"XCD", 2), (*b"XCG", 2),
    (*b"XOF", 0), (*b"XPF", 0), (*b"YER", 2), (*b"ZAR", 2), (*b"ZMW", 2), (*b"ZWG", 2),
];

/// A currency of the ISO 4217 table with its minor-unit exponent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Currency {
    code: &'static str,
    exponent: u8,
}

impl Currency {
    /// Look up an ISO 4217 code (three uppercase letters, e.g. `"USD"`).
    ///
    /// # Errors
    /// `invalid_argument` naming the code when it is not in the table.
    pub fn from_code(code: &str) -> Result<Self> {
        CURRENCIES
            .binary_search_by(|(c, _)| c.as_slice().cmp(code.as_bytes()))
            .ok()
            .and_then(|i| CURRENCIES.get(i))
            .and_then(Self::of)
            .ok_or_else(|| Error::invalid_argument(format!("unknown currency {}: expected an ISO 4217 code such as \"USD\"", echo(code))))
    }

    /// The currency of an entry of [`CURRENCIES`].
    fn of(entry: &'static ([u8; 3], u8)) -> Option<Self> {
        Some(Self { code: core::str::from_utf8(&entry.0).ok()?, exponent: entry.1 })
    }

    /// The ISO 4217 code.
    #[must_use]
    pub const fn code(self) -> &'static str {
        self.code
    }

    /// Digits after the decimal point: USD 2, JPY 0, KWD 3, CLF 4.
    #[must_use]
    pub const fn exponent(self) -> u32 {
        self.exponent as u32
    }

    /// Parse a decimal price string of this currency into minor units.
    ///
    /// # Errors
    /// See [`parse_decimal`].
    pub fn parse(self, value: &str) -> Result<i64> {
        parse_decimal(value, self.exponent()).map_err(|e| Error::invalid_argument(format!("{} ({})", e.message, self.code)))
    }

    /// The exact decimal string of `minor` units of this currency.
    #[must_use]
    pub fn format(self, minor: i64) -> String {
        format_decimal(minor, self.exponent())
    }
}

impl fmt::Display for Currency {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code)
    }
}

/// Every currency of the table (for tests and documentation).
pub fn currencies() -> impl Iterator<Item = Currency> {
    CURRENCIES.iter().filter_map(Currency::of)
}

/// `value` quoted for an error message, shortened if long.
pub(crate) fn echo(value: &str) -> String {
    if value.chars().count() <= ECHO_MAX {
        format!("{value:?}")
    } else {
        let head: String = value.chars().take(ECHO_MAX).collect();
        format!("{head:?}…")
    }
}

/// Parse a decimal string (`"19.99"`, `"-0.5"`, `"1500"`) into integer minor units
/// with `exponent` digits after the point.
///
/// Accepted: an optional `-`, one or more ASCII digits, optionally `.` and one or
/// more digits. More fraction digits than `exponent` are accepted only when the
/// extra digits are zeros (`"19.990"` is 1999 cents), because anything else
/// cannot be represented exactly.
///
/// # Errors
/// `invalid_argument` naming the value when it is empty, not of that form, has
/// non-zero digits beyond the exponent, or does not fit in an `i64`.
pub fn parse_decimal(value: &str, exponent: u32) -> Result<i64> {
    let bad = |why: &str| Error::invalid_argument(format!("invalid amount {}: {why}", echo(value)));
    if exponent > 18 {
        return Err(Error::invalid_argument(format!("exponent {exponent} is out of range 0..=18")));
    }
    let (negative, body) = match value.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, value),
    };
    let (int, frac) = match body.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (body, None),
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(int) || frac.is_some_and(|f| !digits(f)) {
        return Err(bad("expected a decimal number such as \"19.99\""));
    }
    let frac = frac.unwrap_or("");
    let exp = exponent as usize;
    if frac.len() > exp && frac.as_bytes()[exp..].iter().any(|&b| b != b'0') {
        return Err(bad(&format!("more than {exponent} decimal places")));
    }
    let overflow = || bad("out of range");
    // Accumulate negatively so i64::MIN parses too.
    let mut acc: i64 = 0;
    let frac_digits = frac.bytes().chain(core::iter::repeat(b'0')).take(exp);
    for b in int.bytes().chain(frac_digits) {
        let d = i64::from(b - b'0');
        acc = acc.checked_mul(10).and_then(|a| a.checked_sub(d)).ok_or_else(overflow)?;
    }
    if negative {
        Ok(acc)
    } else {
        acc.checked_neg().ok_or_else(overflow)
    }
}

/// The exact decimal string of `minor` units with `exponent` fraction digits:
/// `format_decimal(1999, 2) == "19.99"`, `format_decimal(-5, 2) == "-0.05"`,
/// `format_decimal(1500, 0) == "1500"`. Inverse of [`parse_decimal`].
#[must_use]
pub fn format_decimal(minor: i64, exponent: u32) -> String {
    let digits = minor.unsigned_abs().to_string();
    let exp = exponent as usize;
    let sign = if minor < 0 { "-" } else { "" };
    if exp == 0 {
        return format!("{sign}{digits}");
    }
    let padded = if digits.len() <= exp { format!("{}{digits}", "0".repeat(exp + 1 - digits.len())) } else { digits };
    // ASCII digits: any split is on a char boundary (`_checked` keeps str
    // slicing's panic path out of the wasm).
    let (int, frac) = padded.split_at_checked(padded.len() - exp).unwrap_or((&padded, ""));
    format!("{sign}{int}.{frac}")
}

/// `a + b`.
///
/// # Errors
/// `invalid_argument` when the sum overflows an `i64`.
pub fn checked_add(a: i64, b: i64) -> Result<i64> {
    a.checked_add(b)
        .ok_or_else(|| Error::invalid_argument(format!("amount overflow: {a} + {b} minor units")))
}

/// `unit * quantity`.
///
/// # Errors
/// `invalid_argument` when the product overflows an `i64`.
pub fn checked_mul(unit: i64, quantity: u32) -> Result<i64> {
    unit.checked_mul(i64::from(quantity))
        .ok_or_else(|| Error::invalid_argument(format!("amount overflow: {unit} × {quantity} minor units")))
}

/// Check that `minor` can cross to JavaScript as an exact `number`.
///
/// # Errors
/// `invalid_argument` when `|minor| > 2^53 − 1`.
pub fn check_safe(minor: i64) -> Result<i64> {
    if (-MAX_SAFE_MINOR..=MAX_SAFE_MINOR).contains(&minor) {
        Ok(minor)
    } else {
        Err(Error::invalid_argument(format!("amount {minor} minor units exceeds the exact JavaScript number range (±{MAX_SAFE_TEXT})")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorCode;

    fn usd() -> Currency {
        Currency::from_code("USD").unwrap()
    }

    #[test]
    fn table_is_sorted_and_unique() {
        let all: Vec<Currency> = currencies().collect();
        assert_eq!(all.len(), CURRENCIES.len());
        assert!(all.windows(2).all(|w| w[0].code < w[1].code));
        assert!(all.iter().all(|c| c.code.len() == 3 && c.code.bytes().all(|b| b.is_ascii_uppercase()) && c.exponent <= 4));
    }

    #[test]
    fn exponents_of_iso_4217() {
        for (code, exp) in [("USD", 2), ("EUR", 2), ("JPY", 0), ("KRW", 0), ("KWD", 3), ("BHD", 3), ("JOD", 3), ("OMR", 3), ("TND", 3), ("CLF", 4)] {
            assert_eq!(Currency::from_code(code).unwrap().exponent(), exp, "{code}");
        }
    }

    #[test]
    fn unknown_currency_is_invalid_argument_naming_it() {
        for code in ["XYZ", "usd", "", "US", "USDX"] {
            let e = Currency::from_code(code).unwrap_err();
            assert_eq!(e.code, ErrorCode::InvalidArgument);
            assert!(e.message.contains(&format!("{code:?}")), "{}", e.message);
        }
    }

    #[test]
    fn parses_exact_minor_units() {
        let cases = [
            ("19.99", 2, 1999), ("0.1", 2, 10), ("0.01", 2, 1), ("5", 2, 500), ("19.990", 2, 1999),
            ("-0.05", 2, -5), ("007.50", 2, 750), ("1500", 0, 1500), ("1500.00", 0, 1500),
            ("1.234", 3, 1234), ("0.5", 3, 500), ("1.0001", 4, 10001), ("-0", 2, 0),
            ("92233720368547758.07", 2, i64::MAX), ("-92233720368547758.08", 2, i64::MIN),
            ("90071992547409.93", 2, 9_007_199_254_740_993),
        ];
        for (s, exp, want) in cases {
            assert_eq!(parse_decimal(s, exp).unwrap(), want, "{s} exp {exp}");
        }
    }

    #[test]
    fn rejects_malformed_and_inexact_values_naming_them() {
        for (s, exp) in [
            ("", 2), ("abc", 2), ("1.", 2), (".5", 2), ("+1", 2), (" 1", 2), ("1 ", 2), ("1,00", 2),
            ("1e3", 2), ("--1", 2), ("-", 2), ("0x10", 2), ("19.999", 2), ("0.5", 0), ("1.00001", 4),
            ("١٢", 2), ("NaN", 2), ("Infinity", 2),
        ] {
            let e = parse_decimal(s, exp).unwrap_err();
            assert_eq!(e.code, ErrorCode::InvalidArgument, "{s}");
            assert!(e.message.contains(&format!("{s:?}")), "{s}: {}", e.message);
        }
    }

    #[test]
    fn out_of_range_is_refused_not_wrapped() {
        for s in ["92233720368547758.08", "-92233720368547758.09", "99999999999999999999", "1000000000000000000000"] {
            let e = parse_decimal(s, 2).unwrap_err();
            assert!(e.message.contains("out of range"), "{s}: {}", e.message);
        }
        assert!(checked_add(i64::MAX, 1).is_err());
        assert!(checked_mul(i64::MAX / 2, 3).is_err());
        assert_eq!(checked_mul(1999, 3).unwrap(), 5997);
    }

    #[test]
    fn long_values_are_shortened_in_messages() {
        let long = "9".repeat(500);
        let e = parse_decimal(&long, 2).unwrap_err();
        assert!(e.message.len() < 120, "{}", e.message);
    }

    #[test]
    fn formats_exact_decimals() {
        assert_eq!(format_decimal(1999, 2), "19.99");
        assert_eq!(format_decimal(5, 2), "0.05");
        assert_eq!(format_decimal(-5, 2), "-0.05");
        assert_eq!(format_decimal(0, 3), "0.000");
        assert_eq!(format_decimal(1500, 0), "1500");
        assert_eq!(format_decimal(i64::MIN, 2), "-92233720368547758.08");
        assert_eq!(usd().format(30), "0.30");
    }

    #[test]
    fn currency_parse_names_currency_and_value() {
        let e = Currency::from_code("JPY").unwrap().parse("1.5").unwrap_err();
        assert!(e.message.contains("\"1.5\"") && e.message.contains("JPY"), "{}", e.message);
    }

    #[test]
    fn safe_range_for_javascript() {
        assert_eq!(check_safe(MAX_SAFE_MINOR).unwrap(), MAX_SAFE_MINOR);
        assert!(check_safe(MAX_SAFE_MINOR + 1).is_err());
        assert!(check_safe(-MAX_SAFE_MINOR - 1).is_err());
    }
}

#[cfg(test)]
mod props {
    use proptest::prelude::*;

    use super::*;

    /// Cases per property: `CIRRUS_FUZZ_CASES` (default 2,000; `scripts/fuzz-sdk.sh`
    /// runs millions). Issue 12 item 11: money parsing and formatting round trip.
    fn cases() -> u32 {
        std::env::var("CIRRUS_FUZZ_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(2_000)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(cases()))]

        /// format then parse gives back every i64, for every exponent of the table.
        #[test]
        fn format_parse_round_trip(minor in any::<i64>(), exp in 0u32..=4) {
            let s = format_decimal(minor, exp);
            prop_assert_eq!(parse_decimal(&s, exp).unwrap(), minor, "{}", s);
        }

        /// parse then format gives the canonical string for every well-formed decimal.
        #[test]
        fn parse_format_round_trip(int in "[0-9]{1,12}", frac in "[0-9]{0,4}", neg in any::<bool>()) {
            for c in currencies() {
                let exp = c.exponent() as usize;
                let frac = &frac[..frac.len().min(exp)];
                let s = if frac.is_empty() { int.clone() } else { format!("{int}.{frac}") };
                let s = if neg { format!("-{s}") } else { s };
                let minor = c.parse(&s).unwrap();
                let canon = c.format(minor);
                prop_assert_eq!(c.parse(&canon).unwrap(), minor);
                // Canonical form: same value with exactly `exp` fraction digits.
                let want_frac = format!("{frac:0<exp$}");
                let int_trim = int.trim_start_matches('0');
                let int_trim = if int_trim.is_empty() { "0" } else { int_trim };
                let want = if exp == 0 { int_trim.to_string() } else { format!("{int_trim}.{want_frac}") };
                let want = if neg && minor != 0 { format!("-{want}") } else { want };
                prop_assert_eq!(canon, want);
            }
        }

        /// Values outside i64 are refused, never wrapped.
        #[test]
        fn overflow_refused(extra in 1u64..1_000_000, exp in 0u32..=4) {
            let big = (i128::from(i64::MAX) + i128::from(extra)).to_string();
            let small = (i128::from(i64::MIN) - i128::from(extra)).to_string();
            for digits in [big, small] {
                let s = format_decimal_i128(&digits, exp);
                let e = parse_decimal(&s, exp).unwrap_err();
                prop_assert!(e.message.contains("out of range"), "{}: {}", s, e.message);
            }
        }

        /// Sums and products are exact or refused; they never wrap.
        #[test]
        fn checked_arithmetic_matches_wide_integers(a in any::<i64>(), b in any::<i64>(), q in any::<u32>()) {
            let sum = i128::from(a) + i128::from(b);
            match checked_add(a, b) {
                Ok(v) => prop_assert_eq!(i128::from(v), sum),
                Err(_) => prop_assert!(i64::try_from(sum).is_err()),
            }
            let prod = i128::from(a) * i128::from(q);
            match checked_mul(a, q) {
                Ok(v) => prop_assert_eq!(i128::from(v), prod),
                Err(_) => prop_assert!(i64::try_from(prod).is_err()),
            }
        }

        /// Any string at all: a value or an invalid_argument error, never a panic.
        #[test]
        fn arbitrary_input_never_panics(s in ".{0,40}", exp in 0u32..=4) {
            if let Err(e) = parse_decimal(&s, exp) {
                prop_assert_eq!(e.code, crate::error::ErrorCode::InvalidArgument);
            }
        }
    }

    /// Digits of an integer (as a decimal string) placed with `exp` fraction digits.
    fn format_decimal_i128(digits: &str, exp: u32) -> String {
        let (sign, digits) = digits.strip_prefix('-').map_or(("", digits), |d| ("-", d));
        let exp = exp as usize;
        if exp == 0 {
            return format!("{sign}{digits}");
        }
        let (int, frac) = digits.split_at(digits.len() - exp);
        format!("{sign}{int}.{frac}")
    }

    /// Values floats get wrong are exact here.
    #[test]
    fn values_floats_get_wrong_are_exact() {
        let usd = Currency::from_code("USD").unwrap();
        let sum = checked_add(usd.parse("0.1").unwrap(), usd.parse("0.2").unwrap()).unwrap();
        assert_eq!(usd.format(sum), "0.30");
        assert_eq!(sum, usd.parse("0.3").unwrap());
        // 2^53 + 1 cents: not representable as a double.
        let odd = 9_007_199_254_740_993_i64;
        assert_eq!(usd.format(odd), "90071992547409.93");
        assert_eq!(usd.parse("90071992547409.93").unwrap(), odd);
        assert_eq!(checked_add(odd, 1).unwrap(), 9_007_199_254_740_994);
        // 1.005 × 1000 in a double is 1004.9999999999999.
        let kwd = Currency::from_code("KWD").unwrap();
        assert_eq!(checked_mul(kwd.parse("1.005").unwrap(), 1000).unwrap(), 1_005_000);
        // Ten 0.10 lines sum to exactly 1.00.
        let mut total = 0;
        for _ in 0..10 {
            total = checked_add(total, usd.parse("0.10").unwrap()).unwrap();
        }
        assert_eq!(usd.format(total), "1.00");
    }

    /// No floating-point type in the pricing sources (the grep-style guard).
    #[test]
    fn no_float_in_pricing_sources() {
        // Built at run time so this line does not match itself.
        let banned = [["f", "32"].concat(), ["f", "64"].concat(), ["parse", "Float"].concat(), ["to", "Fixed"].concat()];
        let sources = [
            ("src/money.rs", include_str!("money.rs")),
            ("src/cart/mod.rs", include_str!("cart/mod.rs")),
            ("src/cart/lines.rs", include_str!("cart/lines.rs")),
            ("src/cart/refresh.rs", include_str!("cart/refresh.rs")),
            ("src/cart/storage.rs", include_str!("cart/storage.rs")),
            ("src/shipping.rs", include_str!("shipping.rs")),
            ("src/wasm/cart.rs", include_str!("wasm/cart.rs")),
        ];
        for (path, text) in sources {
            for (n, line) in text.lines().enumerate() {
                for b in &banned {
                    assert!(!line.contains(b.as_str()), "{path}:{}: floating point in pricing: {line}", n + 1);
                }
            }
        }
    }
}
