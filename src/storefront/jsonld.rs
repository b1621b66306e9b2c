//! A small JSON writer for the SEO helpers' JSON-LD, safe to embed as-is in
//! `<script type="application/ld+json">`: besides JSON's own escapes, `<`,
//! `>`, `&`, U+2028 and U+2029 are written as `\uXXXX`, so the text can never
//! close the element (`</script`), open a comment (`<!--`) or end a JS string
//! line. Plain concatenation, no `core::fmt` (wasm size).

/// Writes one JSON value; commas are placed by the writer.
pub(crate) struct Json {
    out: String,
    /// The next value or key needs a `,` before it.
    comma: bool,
}

impl Json {
    pub(crate) fn new() -> Self {
        Self { out: String::with_capacity(512), comma: false }
    }

    fn sep(&mut self) {
        if self.comma {
            self.out.push(',');
        }
    }

    /// Opens an object or array (`{` or `[`) as the next value.
    pub(crate) fn open(&mut self, bracket: char) -> &mut Self {
        self.sep();
        self.out.push(bracket);
        self.comma = false;
        self
    }

    /// Closes the innermost object or array (`}` or `]`).
    pub(crate) fn close(&mut self, bracket: char) -> &mut Self {
        self.out.push(bracket);
        self.comma = true;
        self
    }

    /// A member name; the next call writes its value.
    pub(crate) fn key(&mut self, k: &str) -> &mut Self {
        self.sep();
        escape_into(&mut self.out, k);
        self.out.push(':');
        self.comma = false;
        self
    }

    /// A string value.
    pub(crate) fn str(&mut self, v: &str) -> &mut Self {
        self.sep();
        escape_into(&mut self.out, v);
        self.comma = true;
        self
    }

    /// A value already in JSON (a number the caller wrote).
    pub(crate) fn raw(&mut self, v: &str) -> &mut Self {
        self.sep();
        self.out.push_str(v);
        self.comma = true;
        self
    }

    /// `"k": "v"`.
    pub(crate) fn field(&mut self, k: &str, v: &str) -> &mut Self {
        self.key(k).str(v)
    }

    /// `"k": "v"` when `v` is not empty.
    pub(crate) fn field_nonempty(&mut self, k: &str, v: &str) -> &mut Self {
        if !v.is_empty() {
            self.field(k, v);
        }
        self
    }

    pub(crate) fn finish(self) -> String {
        self.out
    }
}

/// `s` as a JSON string literal (quotes included) with the script-safe escapes.
fn escape_into(out: &mut String, s: &str) {
    use core::fmt::Write as _;
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c if c < ' ' || c == '<' || c == '>' || c == '&' => {
                // Writing to a `String` cannot fail.
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}
