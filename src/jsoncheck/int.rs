//! Integers decided exactly on the decimal text of a JSON number, as
//! `Number.isInteger` / `Number.isSafeInteger` decide them on the double
//! `JSON.parse` makes (see [`int_value`]), without floats.

use super::Ty;


/// 2^53 - 1, the largest safe integer.
pub(super) const SAFE: u64 = (1 << 53) - 1;

/// Whether an integer type accepts the number whose value (see [`int_value`])
/// is `n`.
pub(super) fn int_fits(ty: &Ty, n: Option<(bool, u64)>) -> bool {
    match (ty, n) {
        (_, None) => false,
        (Ty::U32, Some((negative, m))) => m <= u64::from(u32::MAX) && (!negative || m == 0),
        (Ty::U53, Some((negative, m))) => m <= SAFE && (!negative || m == 0),
        (_, Some((_, m))) => m <= SAFE,
    }
}

/// A JSON number (valid grammar) as sign and parts: the significant digits
/// (no leading or trailing zeros; empty for zero) and where the decimal point
/// goes: the value is `0.DIGITS × 10^point`.
struct Decimal<'a> {
    negative: bool,
    int: &'a [u8],
    frac: &'a [u8],
    /// Offsets of the first and one past the last significant digit in
    /// `int ++ frac`.
    first: usize,
    end: usize,
    point: i64,
}

impl<'a> Decimal<'a> {
    fn parse(text: &'a [u8]) -> Self {
        let negative = text.first() == Some(&b'-');
        let body = &text[usize::from(negative)..];
        let int_len = body.iter().position(|c| !c.is_ascii_digit()).unwrap_or(body.len());
        let (int, rest) = body.split_at(int_len);
        let (frac, rest) = match rest.split_first() {
            Some((b'.', r)) => {
                let n = r.iter().position(|c| !c.is_ascii_digit()).unwrap_or(r.len());
                r.split_at(n)
            }
            _ => (&rest[..0], rest),
        };
        // The exponent, saturated far beyond any double's range.
        let exponent = match rest.split_first() {
            Some((_, e)) => {
                let (negative, digits) = match e.split_first() {
                    Some((b'-', d)) => (true, d),
                    Some((b'+', d)) => (false, d),
                    _ => (false, e),
                };
                let n = digits.iter().fold(0_i64, |n, d| (n * 10 + i64::from(d.saturating_sub(b'0'))).min(1 << 40));
                if negative {
                    -n
                } else {
                    n
                }
            }
            None => 0,
        };
        let all = int.len() + frac.len();
        let digit = |k: usize| if k < int.len() { int[k] } else { frac[k - int.len()] };
        let first = (0..all).find(|&k| digit(k) != b'0').unwrap_or(all);
        let end = (first..all).rev().find(|&k| digit(k) != b'0').map_or(first, |k| k + 1);
        // Lengths are far below 2^40.
        #[allow(clippy::cast_possible_wrap)]
        let point = int.len() as i64 + exponent - first as i64;
        Decimal { negative, int, frac, first, end, point }
    }

    /// Significant digit `k` (0 past the end), as a number.
    fn digit(&self, k: usize) -> u8 {
        let at = self.first + k;
        if at >= self.end {
            0
        } else if at < self.int.len() {
            self.int[at].saturating_sub(b'0')
        } else {
            self.frac[at - self.int.len()].saturating_sub(b'0')
        }
    }

    fn len(&self) -> usize {
        self.end - self.first
    }
}

/// Compares two digit sequences after a decimal point (`a(k)` for `k < a_len`,
/// then zeros).
fn cmp_fraction(a: impl Fn(usize) -> u8, a_len: usize, b: impl Fn(usize) -> u8, b_len: usize) -> core::cmp::Ordering {
    for k in 0..a_len.max(b_len) {
        let (x, y) = (if k < a_len { a(k) } else { 0 }, if k < b_len { b(k) } else { 0 });
        if x != y {
            return x.cmp(&y);
        }
    }
    core::cmp::Ordering::Equal
}

/// Fills `out` with the decimal digits of 5^j, zero-padded on the left (5^j
/// must fit): with `out.len() == j` these are the digits of 2^-j after the
/// decimal point.
pub(super) fn pow5(j: usize, out: &mut [u8]) {
    out.fill(0);
    if let Some(last) = out.last_mut() {
        *last = 1;
    }
    for _ in 0..j {
        let mut carry = 0;
        for x in out.iter_mut().rev() {
            let v = *x * 5 + carry;
            *x = v % 10;
            carry = v / 10;
        }
    }
}

/// Whether `d`, which is below 10^-323, is at most 2^-1075 (half the smallest
/// double: it rounds to zero). 2^-1075 is `0.`, 323 zeros, then 752 digits.
fn at_most_tiny(d: &Decimal) -> bool {
    let mut t = [0; 1075];
    pow5(1075, &mut t);
    cmp_fraction(|k| d.digit(k), d.len(), |k| t[323 + k], 752).is_le()
}

/// The value `JSON.parse` gives the number `text` (valid grammar), as sign and
/// magnitude, when that value is an integer of magnitude at most 2^53 - 1;
/// `None` when it is not an integer or is larger.
///
/// Exact, on the decimal text: a double `d` is an integer in that range iff
/// the number is within half a unit in the last place of an integer `n`
/// (ties go to `n`, whose mantissa is even), so the fraction `f` of the
/// number is compared with `2^-j` (half an ulp) and `1 - f` likewise.
pub(super) fn int_value(text: &[u8]) -> Option<(bool, u64)> {
    let d = Decimal::parse(text);
    let negative = d.negative;
    if d.len() == 0 {
        return Some((negative, 0));
    }
    if d.point > 16 {
        return None; // >= 10^16 > 2^53
    }
    // `point <= 16`: the integer part has at most 16 digits.
    let int_digits = usize::try_from(d.point.max(0)).unwrap_or(0);
    let n0 = (0..int_digits).fold(0_u64, |n, k| n * 10 + u64::from(d.digit(k)));
    if d.len() <= int_digits {
        return (n0 <= SAFE).then_some((negative, n0));
    }
    if n0 > SAFE {
        return None;
    }
    // The fraction's digits: `lead` zeros, then the significant digits after the point.
    let lead = usize::try_from(-d.point).unwrap_or(0);
    let frac_len = lead.saturating_add(d.len() - int_digits);
    let frac = |k: usize| if k < lead { 0 } else { d.digit(int_digits + k - lead) };
    // 1 - f: nines' complement, plus one in the last place.
    let complement = |k: usize| if k + 1 < frac_len { 9 - frac(k) } else { 10 - frac(k) };
    let at_most_half_ulp = |j: usize, digits: &dyn Fn(usize) -> u8| {
        let mut half = [0; 54];
        pow5(j, &mut half[..j]);
        cmp_fraction(digits, frac_len, |k| half[k], j).is_le()
    };
    let rounded = if n0 >= 1 << 52 {
        // Every double here is an integer: round half to even.
        let up = match frac(0).cmp(&5) {
            core::cmp::Ordering::Greater => true,
            core::cmp::Ordering::Less => false,
            core::cmp::Ordering::Equal => d.len() > int_digits + 1 || n0 % 2 == 1,
        };
        n0 + u64::from(up)
    } else if n0 >= 1 {
        let j = 53 - (63 - n0.leading_zeros() as usize); // 2^-j is half an ulp
        if at_most_half_ulp(j, &frac) {
            n0
        } else if at_most_half_ulp(j, &complement) {
            n0 + 1
        } else {
            return None;
        }
    } else if d.point == 0 && at_most_half_ulp(54, &complement) {
        1 // in [1 - 2^-54, 1)
    } else if d.point <= -324 || (d.point == -323 && at_most_tiny(&d)) {
        0 // at most 2^-1075 (below 10^-324 is)
    } else {
        return None;
    };
    (rounded <= SAFE).then_some((negative, rounded))
}
