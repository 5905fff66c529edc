//! The best and the median of a few windows' rates.

/// Rates over the windows of one row.
#[derive(Clone, Copy, Default)]
pub struct Spread {
    /// The highest rate.
    pub best: f64,
    /// The median rate (the mean of the middle two for an even count).
    pub median: f64,
}

/// The spread of `rates` (all zero for none).
pub fn spread(rates: &[f64]) -> Spread {
    if rates.is_empty() {
        return Spread::default();
    }
    let mut v = rates.to_vec();
    v.sort_by(f64::total_cmp);
    let (n, mid) = (v.len(), v.len() >> 1);
    let median = if n & 1 == 1 {
        v[mid]
    } else {
        (v[mid - 1] + v[mid]) / 2.0
    };
    Spread {
        best: v[n - 1],
        median,
    }
}
