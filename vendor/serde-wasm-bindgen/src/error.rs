use wasm_bindgen::prelude::*;

/// A newtype that represents Serde errors as JavaScript exceptions.
#[derive(Debug)]
pub struct Error(JsValue);

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_name = String)]
    fn to_string(value: &JsValue) -> String;
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        to_string(&self.0).fmt(f)
    }
}

impl std::error::Error for Error {}

impl Error {
    /// Creates a JavaScript `Error` with a given message.
    pub fn new<T: std::fmt::Display>(msg: T) -> Self {
        Error(JsError::new(&msg.to_string()).into())
    }
}

impl serde::ser::Error for Error {
    fn custom<T: std::fmt::Display>(msg: T) -> Self {
        Error::new(msg)
    }
}

impl serde::de::Error for Error {
    fn custom<T: std::fmt::Display>(msg: T) -> Self {
        Error::new(msg)
    }

    // Patched by cirrus-storefront (its vendor/README.md): serde's default `invalid_type`
    // and `invalid_value` print `Unexpected` with serde's `Display`, whose float arm brings
    // Rust's float formatting (flt2dec, Grisu, Dragon: ~17 KB) into the wasm. The same
    // messages, with the number printed by JavaScript (`float` below).
    fn invalid_type(unexp: serde::de::Unexpected, exp: &dyn serde::de::Expected) -> Self {
        Error::new(format_args!("invalid type: {}, expected {}", Unexpected(unexp), exp))
    }

    fn invalid_value(unexp: serde::de::Unexpected, exp: &dyn serde::de::Expected) -> Self {
        Error::new(format_args!("invalid value: {}, expected {}", Unexpected(unexp), exp))
    }
}

/// serde's `Display` of `Unexpected`, word for word, except that a float is printed by
/// [`float`]. (Calling serde's `Display` for the other variants would keep its float arm,
/// and so the float formatting, in the wasm.)
struct Unexpected<'a>(serde::de::Unexpected<'a>);

impl std::fmt::Display for Unexpected<'_> {
    fn fmt(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
        use serde::de::Unexpected::*;
        match self.0 {
            Bool(b) => write!(formatter, "boolean `{}`", b),
            Unsigned(i) => write!(formatter, "integer `{}`", i),
            Signed(i) => write!(formatter, "integer `{}`", i),
            Float(n) => write!(formatter, "floating point `{}`", float(n)),
            Char(c) => write!(formatter, "character `{}`", c),
            Str(s) => write!(formatter, "string {:?}", s),
            Bytes(_) => formatter.write_str("byte array"),
            Unit => formatter.write_str("unit value"),
            Option => formatter.write_str("Option value"),
            NewtypeStruct => formatter.write_str("newtype struct"),
            Seq => formatter.write_str("sequence"),
            Map => formatter.write_str("map"),
            Enum => formatter.write_str("enum"),
            UnitVariant => formatter.write_str("unit variant"),
            NewtypeVariant => formatter.write_str("newtype variant"),
            TupleVariant => formatter.write_str("tuple variant"),
            StructVariant => formatter.write_str("struct variant"),
            Other(other) => formatter.write_str(other),
        }
    }
}

/// `n` as serde writes it in a message: Rust's `{}` of an `f64` (no exponent, the
/// shortest digits that read back as `n`), with `.0` added when that has no decimal
/// point; `NaN`, `inf`, `-inf`, `-0.0`. The digits are JavaScript's `String(n)`, but where
/// two shortest forms are equally near `n` (a tie: `1658206780088562.25`), where V8 takes
/// the even one (`…562.2`) and Rust the upper (`…562.3`): Rust's is written.
fn float(n: f64) -> String {
    if n.is_nan() {
        return "NaN".into();
    }
    let mut out = String::from(if n.is_sign_negative() { "-" } else { "" });
    if n.is_infinite() {
        out.push_str("inf");
        return out;
    }
    // `String(|n|)`: "123.45", "0.000001", "1e+21", "1.5e-7".
    let js = to_string(&JsValue::from_f64(n.abs()));
    let (mantissa, exp) = match js.split_once('e') {
        Some((m, e)) => (m, e.parse::<isize>().unwrap_or(0)),
        None => (&js[..], 0),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let all = [int, frac].concat();
    let mut digits = all.trim_start_matches('0').to_owned();
    // The decimal point comes after `point` digits of `digits` (if negative: after
    // `-point` zeros that precede them).
    let mut point = (int.len() + digits.len()) as isize + exp - all.len() as isize;
    let significant = digits.trim_end_matches('0').len();
    if tie_below(n.abs(), &digits[..significant]) {
        point += round_up(&mut digits, significant);
    }
    let digits = digits.as_str();
    if digits.is_empty() {
        out.push_str("0.0");
    } else if point <= 0 {
        out.push_str("0.");
        out.extend(std::iter::repeat('0').take(point.unsigned_abs()));
        out.push_str(digits);
    } else if point as usize >= digits.len() {
        out.push_str(digits);
        out.extend(std::iter::repeat('0').take(point as usize - digits.len()));
        out.push_str(".0");
    } else {
        let (whole, fraction) = digits.split_at(point as usize);
        out.push_str(whole);
        out.push('.');
        out.push_str(fraction);
    }
    out
}

/// Whether `n`'s exact decimal expansion is `digits` (its shortest significant digits,
/// JavaScript's) followed by a single 5: `digits` are the lower of two shortest forms
/// equally near `n`. `toPrecision(100)` gives the expansion exactly this far (a tie's
/// ends one digit after the 17 at most of a shortest form).
fn tie_below(n: f64, digits: &str) -> bool {
    let exact = js_sys::Number::from(n).to_precision(100).map(String::from).unwrap_or_default();
    let mantissa = exact.split('e').next().unwrap_or("");
    let all: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let d = all.trim_start_matches('0');
    d.len() > digits.len()
        && d.starts_with(digits)
        && d.as_bytes()[digits.len()] == b'5'
        && d[digits.len() + 1..].bytes().all(|c| c == b'0')
}

/// Adds one to the last of the `significant` first digits of `digits` (carrying left);
/// 1 when the carry made the number one digit longer (the point moves right), else 0.
fn round_up(digits: &mut String, significant: usize) -> isize {
    let mut b = std::mem::take(digits).into_bytes();
    b.truncate(significant);
    let mut grew = 1;
    for i in (0..b.len()).rev() {
        if b[i] == b'9' {
            b[i] = b'0';
        } else {
            b[i] += 1;
            grew = 0;
            break;
        }
    }
    if grew == 1 {
        b.insert(0, b'1');
    }
    let len = b.iter().rposition(|&c| c != b'0').map_or(0, |i| i + 1);
    b.truncate(len);
    *digits = String::from_utf8(b).unwrap_or_default();
    grew
}

/// This conversion is needed for `?` to just work when using wasm-bindgen
/// imports that return JavaScript exceptions as `Result<T, JsValue>`.
impl From<JsValue> for Error {
    fn from(error: JsValue) -> Error {
        Error(error)
    }
}

// This conversion is needed for `?` to just work in wasm-bindgen exports
// that return `Result<T, JsValue>` to throw JavaScript exceptions.
impl From<Error> for JsValue {
    fn from(error: Error) -> JsValue {
        error.0
    }
}
