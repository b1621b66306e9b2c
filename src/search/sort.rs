//! The search's two sorts, one copy each in the wasm (std's sorts are instantiated once per
//! element type and comparator, several KB each: measured 45 KB of the search wasm's 229 KB
//! before this module): [`keys`], an LSD radix sort of `u64` keys (pairs packed into one), and
//! [`by`], a stable merge sort of `u32` indices by a comparator behind `&dyn`.

use core::cmp::Ordering;

/// Sorts `v` ascending (insertion sort when short, else radix on the bytes that differ).
pub fn keys(v: &mut [u64]) {
    if v.len() < 48 {
        for i in 1..v.len() {
            let x = v[i];
            let mut j = i;
            while j > 0 && v[j - 1] > x {
                v[j] = v[j - 1];
                j -= 1;
            }
            v[j] = x;
        }
        return;
    }
    let (mut or, mut and) = (0u64, u64::MAX);
    for &x in v.iter() {
        or |= x;
        and &= x;
    }
    let mut src = v.to_vec();
    let mut dst = vec![0u64; v.len()];
    for shift in (0..64).step_by(8) {
        if ((or ^ and) >> shift) & 0xFF == 0 {
            continue; // every key has the same byte here
        }
        let mut count = [0usize; 257];
        for &x in &src {
            count[((x >> shift) & 0xFF) as usize + 1] += 1;
        }
        for i in 1..257 {
            count[i] += count[i - 1];
        }
        for &x in &src {
            let b = ((x >> shift) & 0xFF) as usize;
            dst[count[b]] = x;
            count[b] += 1;
        }
        core::mem::swap(&mut src, &mut dst);
    }
    v.copy_from_slice(&src);
}

/// Sorts the `u32`s of `v` by `cmp`, equal ones keeping their order (a stable merge sort).
pub fn by(v: &mut [u32], cmp: &dyn Fn(u32, u32) -> Ordering) {
    let n = v.len();
    // Runs of 16 by insertion, then merged in passes.
    let mut start = 0;
    while start < n {
        let end = (start + 16).min(n);
        for i in start + 1..end {
            let x = v[i];
            let mut j = i;
            while j > start && cmp(v[j - 1], x) == Ordering::Greater {
                v[j] = v[j - 1];
                j -= 1;
            }
            v[j] = x;
        }
        start = end;
    }
    let mut src = v.to_vec();
    let mut dst = vec![0u32; n];
    let mut width = 16;
    while width < n {
        let mut lo = 0;
        while lo < n {
            let mid = (lo + width).min(n);
            let hi = (lo + 2 * width).min(n);
            let (mut a, mut b, mut k) = (lo, mid, lo);
            while a < mid && b < hi {
                if cmp(src[b], src[a]) == Ordering::Less {
                    dst[k] = src[b];
                    b += 1;
                } else {
                    dst[k] = src[a];
                    a += 1;
                }
                k += 1;
            }
            dst[k..k + mid - a].copy_from_slice(&src[a..mid]);
            k += mid - a;
            dst[k..k + hi - b].copy_from_slice(&src[b..hi]);
            lo = hi;
        }
        core::mem::swap(&mut src, &mut dst);
        width *= 2;
    }
    v.copy_from_slice(&src);
}

/// `0..n` sorted by `cmp` (stable).
#[must_use]
pub fn indices(n: usize, cmp: &dyn Fn(u32, u32) -> Ordering) -> Vec<u32> {
    let mut v: Vec<u32> = (0..n as u32).collect();
    by(&mut v, cmp);
    v
}

/// Sorts and dedups a short list of ids.
pub fn ids(v: &mut Vec<u32>) {
    let mut k: Vec<u64> = v.iter().map(|&x| u64::from(x)).collect();
    keys(&mut k);
    v.clear();
    v.extend(k.into_iter().map(|x| x as u32));
    v.dedup();
}
