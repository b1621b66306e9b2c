//! The simulation's one source of choices: SplitMix64 (Steele, Lea and Flood,
//! "Fast splittable pseudorandom number generators", 2014). One seed decides
//! every fault and every interleaving of a schedule, so a seed replays exactly.

/// A SplitMix64 generator.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub const fn new(seed: u64) -> Self {
        Self(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`; the tiny modulo bias does not matter here).
    pub fn below(&mut self, n: usize) -> usize {
        debug_assert!(n > 0);
        (self.next_u64() % n as u64) as usize
    }

    /// True with probability `percent`/100.
    pub fn percent(&mut self, percent: u32) -> bool {
        self.next_u64() % 100 < u64::from(percent)
    }

    /// A number in `lo..=hi`.
    pub fn between(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next_u64() % (hi - lo + 1)
    }

    /// An index chosen by weight (`weights` not all zero).
    pub fn weighted(&mut self, weights: &[u32]) -> usize {
        let total: u64 = weights.iter().map(|&w| u64::from(w)).sum();
        let mut at = self.next_u64() % total;
        for (i, &w) in weights.iter().enumerate() {
            if at < u64::from(w) {
                return i;
            }
            at -= u64::from(w);
        }
        unreachable!("weights sum to {total}")
    }
}

#[cfg(test)]
mod tests {
    use super::Rng;

    #[test]
    fn same_seed_same_numbers_other_seed_other_numbers() {
        let run = |seed| (0..8).map({ let mut r = Rng::new(seed); move |_| r.next_u64() }).collect::<Vec<_>>();
        assert_eq!(run(7), run(7));
        assert_ne!(run(7), run(8));
        // SplitMix64's published first output for seed 0.
        assert_eq!(Rng::new(0).next_u64(), 0xE220_A839_7B1D_CDAF);
    }

    #[test]
    fn weighted_never_picks_a_zero_weight() {
        let mut r = Rng::new(1);
        for _ in 0..1000 {
            assert_ne!(r.weighted(&[3, 0, 5]), 1);
        }
    }
}
