//! Tokenizing, the same in every host (no `Intl`): Unicode lower case (std's tables), Latin
//! diacritics folded by a table of our own ("café" → "cafe", "Straße" → "strasse"), combining
//! marks dropped, every other non-alphanumeric character a separator. A word joined by a
//! hyphen, a slash or a dot to the next one ("t-shirt", "ab-123") is also indexed joined
//! ("tshirt", "ab123"); an apostrophe inside a word is dropped ("men's" → "mens").

/// The longest word kept, in characters (longer ones are cut: bounded work per word).
pub const MAX_WORD: usize = 32;

/// A word of a text: its folded form, its position among the text's words, and where it is in
/// the original text in UTF-16 code units (what JavaScript's string indices count).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Word {
    pub text: String,
    pub pos: u32,
    pub start: u32,
    pub end: u32,
    /// A joined form ("tshirt" from "t-shirt"), at the position of its first part.
    pub joined: bool,
}

/// Latin Extended-A (U+0100..=U+017F) folded to its base letter, one byte each.
const EXT_A: &[u8; 128] = b"aaaaaaccccccccddddeeeeeeeeeegggggggghhhhiiiiiiiiiiiijjkkkllllllllllnnnnnnnnnoooooooorrrrrrssssssssttttttuuuuuuuuuuuuwwyyyzzzzzzs";

/// Appends the folded form of one lower-case character to `out`; false when it is a separator.
fn fold_into(c: char, out: &mut String) -> bool {
    let u = c as u32;
    let s: &str = match u {
        0x300..=0x36F => return true, // combining marks: part of the word, dropped
        0xDF => "ss",
        0xE6 => "ae",
        0xFE => "th",
        0x153 => "oe",
        0x133 => "ij",
        0xE0..=0xFF if u != 0xF7 => {
            let b = b"aaaaaaaceeeeiiiidnooooo-ouuuuyty"[(u - 0xE0) as usize];
            out.push(b as char);
            return true;
        }
        0x100..=0x17F => {
            out.push(EXT_A[(u - 0x100) as usize] as char);
            return true;
        }
        0x218 | 0x219 => "s",
        0x21A | 0x21B => "t",
        _ if c.is_alphanumeric() => {
            out.push(c);
            return true;
        }
        _ => return false,
    };
    out.push_str(s);
    true
}

/// The folded form of a string, separators kept as single spaces (collection names, suggestions).
#[must_use]
pub fn fold(text: &str) -> String {
    let mut out = String::new();
    for w in words(text, false) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&w.text);
    }
    out
}

/// The words of `text`; with `join`, the joined forms of hyphenated words too.
#[must_use]
pub fn words(text: &str, join: bool) -> Vec<Word> {
    let mut out: Vec<Word> = Vec::new();
    let mut cur = String::new();
    let mut len = 0usize; // characters in `cur`
    let (mut start, mut at, mut pos) = (0u32, 0u32, 0u32);
    // The first word of the current hyphenated group, while the last separator joined.
    let mut group: Option<usize> = None;
    let mut chars = text.chars().peekable();
    while let Some(ch) = chars.next() {
        let width = ch.len_utf16() as u32;
        let was_empty = cur.is_empty();
        let mut in_word = false;
        for lc in ch.to_lowercase() {
            let before = cur.len();
            if fold_into(lc, &mut cur) {
                in_word = true;
                if cur.len() > before {
                    len += 1;
                    if len > MAX_WORD {
                        cur.truncate(before);
                        len -= 1;
                    }
                }
            }
        }
        let next_alnum = chars.peek().is_some_and(|n| n.is_alphanumeric());
        if in_word {
            if was_empty && !cur.is_empty() {
                start = at;
            }
        } else if !(matches!(ch, '\'' | '\u{2019}') && !cur.is_empty() && next_alnum) {
            if cur.is_empty() {
                push_joined(&mut out, group.take(), join);
            } else {
                out.push(Word { text: core::mem::take(&mut cur), pos, start, end: at, joined: false });
                len = 0;
                pos += 1;
                group.get_or_insert(out.len() - 1);
                if !(matches!(ch, '-' | '/' | '.' | '\u{2010}' | '\u{2011}') && next_alnum) {
                    push_joined(&mut out, group.take(), join);
                }
            }
        }
        at += width;
    }
    if !cur.is_empty() {
        out.push(Word { text: cur, pos, start, end: at, joined: false });
        group.get_or_insert(out.len() - 1);
    }
    push_joined(&mut out, group, join);
    out
}

/// After a group of words joined by hyphens ends: its joined form, when it has two parts or more.
fn push_joined(out: &mut Vec<Word>, group: Option<usize>, join: bool) {
    let Some(first) = group else { return };
    if !join || out.len() - first < 2 {
        return;
    }
    let mut text = String::new();
    for w in &out[first..] {
        text.push_str(&w.text);
    }
    let (pos, start, end) = (out[first].pos, out[first].start, out[out.len() - 1].end);
    let text: String = text.chars().take(MAX_WORD).collect();
    out.push(Word { text, pos, start, end, joined: true });
}

/// How many typos a word of this many characters may have: none under 5, 1 from 5, 2 from 9;
/// none in a word with a digit (numbers and SKUs match exactly).
#[must_use]
pub fn typos_allowed(word: &str) -> u8 {
    if word.bytes().any(|b| b.is_ascii_digit()) {
        return 0;
    }
    match word.chars().count() {
        0..=4 => 0,
        5..=8 => 1,
        _ => 2,
    }
}
