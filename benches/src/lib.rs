//! Shared helpers for the criterion benchmarks in `benches/benches/`.

/// A deterministic pseudo-random limb sequence (SplitMix64), so every run measures the same inputs.
pub fn limbs(seed: u64, n: usize) -> Vec<bignum::Limb> {
    let mut state = seed;
    (0..n)
        .map(|_| {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        })
        .collect()
}

#[cfg(feature = "peers")]
pub mod gmp;
