//! The money helpers for JavaScript (issue 11): `parseMoney`, `moneyToDecimal`,
//! `addMoney`, `currencyExponent`, `formatMoney` (and `Cart.format`), exact on
//! integer minor units; display through `Intl.NumberFormat`, one formatter
//! kept per (locale, currency), in a locale `preferredLocale` picks.

use std::cell::RefCell;

use js_sys::{Function, Object, Reflect};
use wasm_bindgen::prelude::*;

use super::interop::to_js;
use super::js::{error_text, get, optional_string_arg, safe_integer, show, string_arg, wrong_type};
use crate::error::{Error, Result};
use crate::locale;
use crate::money::{self, Currency};

#[wasm_bindgen]
extern "C" {
    /// `Intl.NumberFormat(locales, options)` (callable without `new`); `catch`
    /// turns a bad locale's `RangeError` into a `Result`.
    #[wasm_bindgen(catch, js_namespace = Intl, js_name = NumberFormat)]
    fn number_format(locales: &JsValue, options: &Object) -> core::result::Result<js_sys::Intl::NumberFormat, JsValue>;

    /// `Intl.NumberFormat.supportedLocalesOf(locales)`: the ones the runtime has, canonical;
    /// `catch` turns a malformed tag's `RangeError` into a `Result`.
    #[wasm_bindgen(catch, js_namespace = ["Intl", "NumberFormat"], js_name = supportedLocalesOf)]
    fn supported_locales_of(locales: &JsValue) -> core::result::Result<js_sys::Array, JsValue>;
}

/// An amount argument: a safe integer `number` (never rounded).
pub(super) fn amount(v: &JsValue, what: &str) -> Result<i64> {
    safe_integer(v).ok_or_else(|| Error::invalid_argument(format!("{what} must be a whole number of minor units, got {}", show(v))))
}

/// A checked amount as a JS number.
pub(super) fn number(minor: i64) -> Result<JsValue> {
    to_js(&money::check_safe(minor)?)
}

/// A currency argument's code: a string (the glue's own string passing would throw a
/// `TypeError`, or turn `840` into `"840"`); the code itself is checked where it is used.
pub(super) fn currency_code(v: &JsValue) -> Result<String> {
    string_arg(v, "currency must be a string such as \"USD\"")
}

/// A `locale` argument: absent, or a string (`Intl` checks what it names).
pub(super) fn locale_arg(v: Option<JsValue>) -> Result<Option<String>> {
    optional_string_arg(v, "locale must be a string such as \"en-US\"")
}

/// Decimal price string → integer minor units: `parseMoney("19.99", "USD") === 1999`.
///
/// # Errors
/// `invalid_argument` naming the value (not a plain decimal, more decimals
/// than the currency has, beyond 2^53 − 1) or the unknown currency.
#[wasm_bindgen(js_name = parseMoney, unchecked_return_type = "MinorUnits")]
pub fn parse_money(
    #[wasm_bindgen(unchecked_param_type = "string")] value: JsValue,
    #[wasm_bindgen(unchecked_param_type = "CurrencyCode")] currency: JsValue,
) -> Result<JsValue> {
    let text = string_arg(&value, "parseMoney takes a decimal string like \"45.99\" (a price as the API gives it)")?;
    number(Currency::from_code(&currency_code(&currency)?)?.parse(&text)?)
}

/// Integer minor units → the exact decimal string: `moneyToDecimal(1999, "USD") === "19.99"`.
///
/// # Errors
/// `invalid_argument` for a non-integer or unsafe amount or an unknown currency.
#[wasm_bindgen(js_name = moneyToDecimal)]
pub fn money_to_decimal(
    #[wasm_bindgen(unchecked_param_type = "MinorUnits")] minor: JsValue,
    #[wasm_bindgen(unchecked_param_type = "CurrencyCode")] currency: JsValue,
) -> Result<String> {
    let minor = amount(&minor, "minor")?;
    Ok(Currency::from_code(&currency_code(&currency)?)?.format(minor))
}

/// `a + b` in minor units, exact.
///
/// # Errors
/// `invalid_argument` for a non-integer input or a sum beyond 2^53 − 1.
#[wasm_bindgen(js_name = addMoney, unchecked_return_type = "MinorUnits")]
pub fn add_money(
    #[wasm_bindgen(unchecked_param_type = "MinorUnits")] a: JsValue,
    #[wasm_bindgen(unchecked_param_type = "MinorUnits")] b: JsValue,
) -> Result<JsValue> {
    number(money::checked_add(amount(&a, "a")?, amount(&b, "b")?)?)
}

/// Digits after the decimal point of an ISO 4217 currency (USD 2, JPY 0, KWD 3).
///
/// # Errors
/// `invalid_argument` for an unknown currency.
#[wasm_bindgen(js_name = currencyExponent)]
pub fn currency_exponent(#[wasm_bindgen(unchecked_param_type = "CurrencyCode")] currency: JsValue) -> Result<u32> {
    Ok(Currency::from_code(&currency_code(&currency)?)?.exponent())
}

/// Format `minor` units of `currency` for display with `Intl.NumberFormat`
/// (`locale` like `"de-DE"`; omitted: the runtime's default). The exact decimal
/// string is handed to `Intl`, so no digit is lost or rounded:
/// `formatMoney(123456, "USD", "en-US") === "$1,234.56"`.
///
/// # Errors
/// `invalid_argument` for a non-integer or unsafe amount, an unknown currency
/// or a locale `Intl` rejects.
#[wasm_bindgen(js_name = formatMoney, unchecked_return_type = "string")]
pub fn format_money(
    #[wasm_bindgen(unchecked_param_type = "MinorUnits")] minor: JsValue,
    #[wasm_bindgen(unchecked_param_type = "CurrencyCode")] currency: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "string")] locale: Option<JsValue>,
) -> Result<JsValue> {
    let minor = amount(&minor, "minor")?;
    format_currency(minor, Currency::from_code(&currency_code(&currency)?)?, locale_arg(locale)?.as_deref())
}

/// The locale to display money in: the first of `candidates` that `Intl.NumberFormat`
/// supports, else `"en-US"`. Without `candidates` (or with `null`), the browser's languages
/// (`navigator.languages`, else `[navigator.language]`; none outside a browser). A
/// candidate is a setting as a browser or a system reports it: `"C"`, `"POSIX"` and `""` name
/// no language and are passed over, a POSIX name is read as the tag it means (`"de_DE.UTF-8"`
/// as `"de-DE"`). What comes back is a canonical tag `formatMoney` takes:
/// `formatMoney(1999, "USD", preferredLocale())` never fails for the locale, whatever the
/// browser says (WebKitGTK under `LANG=C.UTF-8` says `navigator.language === "C"`).
///
/// # Errors
/// `invalid_argument` when `candidates` is neither absent, `null`, a string nor an array of
/// strings.
#[wasm_bindgen(js_name = preferredLocale)]
pub fn preferred_locale(
    #[wasm_bindgen(unchecked_optional_param_type = "string | readonly string[] | null")] candidates: Option<JsValue>,
) -> Result<String> {
    const EXPECTED: &str = "candidates must be a locale string or an array of them such as [\"de-DE\", \"en-US\"]";
    let list = match candidates {
        Some(v) if !v.is_undefined() && !v.is_null() => v,
        _ => browser_languages(),
    };
    let list: Vec<JsValue> = if list.is_string() {
        vec![list]
    } else if js_sys::Array::is_array(&list) {
        js_sys::Array::from(&list).iter().collect()
    } else {
        return Err(wrong_type(EXPECTED, &list));
    };
    // Every candidate must be a string (checked before any is tried: a list with a number in it
    // is refused whichever candidate would have been picked).
    let settings = list.iter().map(|v| string_arg(v, EXPECTED)).collect::<Result<Vec<String>>>()?;
    for setting in &settings {
        let Some(tag) = locale::candidate(setting) else { continue };
        if let Some(found) = supported_locales_of(&JsValue::from_str(&tag)).ok().and_then(|a| a.get(0).as_string()) {
            return Ok(found);
        }
    }
    Ok(locale::FALLBACK.to_owned())
}

/// `navigator.languages` (else `[navigator.language]`, else `[]`): what the browser is set to.
fn browser_languages() -> JsValue {
    let navigator = get(&js_sys::global(), "navigator");
    let languages = get(&navigator, "languages");
    if js_sys::Array::is_array(&languages) {
        return languages;
    }
    let language = get(&navigator, "language");
    if language.is_string() { js_sys::Array::of1(&language).into() } else { js_sys::Array::new().into() }
}

thread_local! {
    /// `Intl.NumberFormat#format` by (locale, currency): building a formatter
    /// costs tens of microseconds, formatting with one a fraction of that.
    static FORMATTERS: RefCell<Vec<(Option<String>, &'static str, Function)>> = const { RefCell::new(Vec::new()) };
}

fn formatter(locale: Option<&str>, currency: Currency) -> Result<Function> {
    let code = currency.code();
    let cached = FORMATTERS.with(|m| m.borrow().iter().find(|(l, c, _)| l.as_deref() == locale && *c == code).map(|(_, _, f)| f.clone()));
    if let Some(f) = cached {
        return Ok(f);
    }
    let options = Object::new();
    let set = |k: &str, v: JsValue| {
        let _ = Reflect::set(&options, &JsValue::from_str(k), &v);
    };
    set("style", JsValue::from_str("currency"));
    set("currency", JsValue::from_str(code));
    // Exactly the ISO 4217 digits, so the display is the exact amount.
    set("minimumFractionDigits", JsValue::from(currency.exponent()));
    set("maximumFractionDigits", JsValue::from(currency.exponent()));
    let locales = locale.map_or(JsValue::UNDEFINED, JsValue::from_str);
    let nf = number_format(&locales, &options)
        .map_err(|e| Error::invalid_argument(format!("locale {} is not usable: {} (preferredLocale() picks one this runtime supports)", show(&locales), error_text(&e))))?;
    let format = nf.format();
    FORMATTERS.with(|m| m.borrow_mut().push((locale.map(str::to_owned), code, format.clone())));
    Ok(format)
}

/// The JS string `Intl` made (handed back as is: no round trip through Rust).
pub(super) fn format_currency(minor: i64, currency: Currency, locale: Option<&str>) -> Result<JsValue> {
    // Intl.NumberFormat formats a decimal *string* exactly (no conversion to a double).
    let decimal = currency.format(minor);
    formatter(locale, currency)?
        .call1(&JsValue::NULL, &JsValue::from_str(&decimal))
        .ok()
        .filter(JsValue::is_string)
        .ok_or_else(|| Error::invalid_argument(format!("Intl.NumberFormat could not format {decimal} {}", currency.code())))
}
