//! Which locale to display in: a browser's or an environment's language setting made into a
//! BCP 47 tag `Intl` can be asked about, or nothing.
//!
//! Browsers report what the system says, and a system may say "C" or "POSIX" (WebKitGTK under
//! `LANG=C.UTF-8` reports `navigator.language === "C"`), a POSIX name such as `de_DE.UTF-8`, or
//! an empty string: none of these is a language tag, and `Intl` throws a `RangeError` for
//! them. [`candidate`] turns each into the tag it means, or `None`; the wasm layer's
//! `preferredLocale` then keeps the first candidate `Intl` supports (else [`FALLBACK`]).

/// The locale shown when no candidate is usable.
pub const FALLBACK: &str = "en-US";

/// The BCP 47 tag a locale setting means, or `None` for one that names no language.
///
/// `"de-DE"` stays as it is; POSIX names lose their codeset and modifier and take hyphens
/// (`"en_US.UTF-8"` → `"en-US"`, `"sr_RS@latin"` → `"sr-RS"`); `"C"`, `"POSIX"` (the POSIX
/// locales, any case, with or without a codeset), `""`, and anything that is not letters and
/// digits in hyphen-separated subtags (`"not a locale!"`, `"en--US"`) are `None`. Whether a
/// well-formed tag names a language the runtime has is for `Intl` to say.
#[must_use]
pub fn candidate(setting: &str) -> Option<String> {
    let s = setting.trim();
    let s = s.split(['.', '@']).next().unwrap_or_default();
    if s.is_empty() || s.eq_ignore_ascii_case("c") || s.eq_ignore_ascii_case("posix") {
        return None;
    }
    let tag = s.replace('_', "-");
    let mut subtags = tag.split('-');
    // The language subtag: 2–3 letters (or 5–8, a registered language), never digits.
    let lang = subtags.next().unwrap_or_default();
    if !(2..=8).contains(&lang.len()) || lang.len() == 4 || !lang.bytes().all(|b| b.is_ascii_alphabetic()) {
        return None;
    }
    if !subtags.all(|t| (1..=8).contains(&t.len()) && t.bytes().all(|b| b.is_ascii_alphanumeric())) {
        return None;
    }
    Some(tag)
}

#[cfg(test)]
mod tests {
    use super::candidate;

    #[test]
    fn language_tags_stay_as_they_are() {
        for tag in ["en-US", "de-DE", "de", "zh-Hant-TW", "sr-Latn-RS", "es-419", "en-US-u-nu-latn", "ja-JP"] {
            assert_eq!(candidate(tag).as_deref(), Some(tag), "{tag}");
        }
    }

    #[test]
    fn posix_names_become_tags() {
        for (setting, tag) in [("en_US", "en-US"), ("en_US.UTF-8", "en-US"), ("de_DE.utf8", "de-DE"), ("sr_RS@latin", "sr-RS"), ("fr_CA.UTF-8@euro", "fr-CA"), (" pt_BR ", "pt-BR")] {
            assert_eq!(candidate(setting).as_deref(), Some(tag), "{setting}");
        }
    }

    #[test]
    fn settings_that_name_no_language_are_none() {
        for setting in ["", " ", "C", "c", "C.UTF-8", "C.utf8", "POSIX", "posix", "not a locale!", "en--US", "-US", "e", "1234", "engl", "en-US-", "x", "*", "en-US!", ".UTF-8", "@euro", "abcdefghi"] {
            assert_eq!(candidate(setting), None, "{setting:?}");
        }
    }
}
