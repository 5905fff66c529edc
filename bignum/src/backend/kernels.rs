//! The 64-bit kernel tables as a type: their names, and which this CPU runs.

use alloc::vec::Vec;

use crate::cpu;

/// A table of 64-bit kernels (`mpn::Kernels`): the portable Rust reference, or the x86-64
/// assembly for CPUs with BMI2 and ADX.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KernelTable {
    /// Plain Rust: every CPU; the reference every other table equals.
    Portable,
    /// BMI2/ADX assembly (`mulx`, `adcx`, `adox`), on x86-64 CPUs that have both.
    Adx,
}

impl KernelTable {
    /// Every table, whether or not this CPU runs it, slowest first.
    pub const ALL: [KernelTable; 2] = [KernelTable::Portable, KernelTable::Adx];

    /// The table's name, as `BIGNUM_BACKEND` and the reports spell it.
    pub fn name(self) -> &'static str {
        match self {
            KernelTable::Portable => "portable",
            KernelTable::Adx => "adx",
        }
    }

    /// The table called `name`, whether or not this CPU runs it.
    pub fn from_name(name: &str) -> Option<KernelTable> {
        KernelTable::ALL.into_iter().find(|t| t.name() == name)
    }

    /// Whether this CPU runs the table.
    pub fn is_available(self) -> bool {
        match self {
            KernelTable::Portable => true,
            KernelTable::Adx => cfg!(target_arch = "x86_64") && cpu::adx().is_some(),
        }
    }

    /// The tables this CPU runs, slowest first.
    pub fn available() -> Vec<KernelTable> {
        KernelTable::ALL
            .into_iter()
            .filter(|t| t.is_available())
            .collect()
    }

    /// The fastest table this CPU runs.
    pub(crate) fn fastest() -> KernelTable {
        KernelTable::available()
            .pop()
            .unwrap_or(KernelTable::Portable)
    }
}
