//! The `std::ops` operators on [`Nat`]: every combination of owned and borrowed operands, the
//! `u64` forms and the `op=` forms. All variable-time (public values only).
//!
//! Subtraction below zero and division by zero panic; see [`Nat::checked_sub`],
//! [`Nat::checked_div`] and [`Nat::checked_rem`] for the `Option` forms.

use core::ops::{
    Add, AddAssign, Div, DivAssign, Mul, MulAssign, Rem, RemAssign, Shl, ShlAssign, Shr, ShrAssign,
    Sub, SubAssign,
};

use super::{Nat, division_by_zero};

#[cold]
#[track_caller]
fn negative_result() -> ! {
    panic!("Nat: subtraction would give a negative number")
}

/// The four owned/borrowed forms and the two `op=` forms of a binary operator, from one function
/// on references.
macro_rules! binary_op {
    ($Op:ident, $op:ident, $OpAssign:ident, $op_assign:ident, $f:expr, $doc:literal) => {
        impl $Op<&Nat> for &Nat {
            type Output = Nat;
            #[doc = $doc]
            #[track_caller]
            fn $op(self, rhs: &Nat) -> Nat {
                let f: fn(&Nat, &Nat) -> Nat = $f;
                f(self, rhs)
            }
        }
        impl $Op<Nat> for &Nat {
            type Output = Nat;
            #[doc = $doc]
            #[track_caller]
            fn $op(self, rhs: Nat) -> Nat {
                self.$op(&rhs)
            }
        }
        impl $Op<&Nat> for Nat {
            type Output = Nat;
            #[doc = $doc]
            #[track_caller]
            fn $op(self, rhs: &Nat) -> Nat {
                (&self).$op(rhs)
            }
        }
        impl $Op<Nat> for Nat {
            type Output = Nat;
            #[doc = $doc]
            #[track_caller]
            fn $op(self, rhs: Nat) -> Nat {
                (&self).$op(&rhs)
            }
        }
        impl $OpAssign<&Nat> for Nat {
            #[doc = $doc]
            #[track_caller]
            fn $op_assign(&mut self, rhs: &Nat) {
                *self = (&*self).$op(rhs);
            }
        }
        impl $OpAssign<Nat> for Nat {
            #[doc = $doc]
            #[track_caller]
            fn $op_assign(&mut self, rhs: Nat) {
                *self = (&*self).$op(&rhs);
            }
        }
        impl $Op<u64> for &Nat {
            type Output = Nat;
            #[doc = $doc]
            #[track_caller]
            fn $op(self, rhs: u64) -> Nat {
                self.$op(&Nat::from(rhs))
            }
        }
        impl $Op<u64> for Nat {
            type Output = Nat;
            #[doc = $doc]
            #[track_caller]
            fn $op(self, rhs: u64) -> Nat {
                (&self).$op(&Nat::from(rhs))
            }
        }
        impl $OpAssign<u64> for Nat {
            #[doc = $doc]
            #[track_caller]
            fn $op_assign(&mut self, rhs: u64) {
                *self = (&*self).$op(&Nat::from(rhs));
            }
        }
    };
}

binary_op!(
    Mul,
    mul,
    MulAssign,
    mul_assign,
    |a, b| a.mul_nat(b),
    "The product. Variable time (public values only)."
);
binary_op!(
    Div,
    div,
    DivAssign,
    div_assign,
    |a, b| a.checked_div(b).unwrap_or_else(|| division_by_zero()),
    "The quotient ⌊a / b⌋. Variable time (public values only).\n\n# Panics\nIf the divisor is zero."
);
binary_op!(
    Rem,
    rem,
    RemAssign,
    rem_assign,
    |a, b| a.checked_rem(b).unwrap_or_else(|| division_by_zero()),
    "The remainder a mod b. Variable time (public values only).\n\n# Panics\nIf the divisor is zero."
);

// Addition and subtraction work in place on an owned left operand, so they get their own impls.

impl Add<&Nat> for &Nat {
    type Output = Nat;
    /// The sum. Variable time (public values only).
    fn add(self, rhs: &Nat) -> Nat {
        // Clone the longer operand and add the shorter into it.
        let (mut r, s) = if self.limbs.len() >= rhs.limbs.len() {
            (self.clone(), rhs)
        } else {
            (rhs.clone(), self)
        };
        r.add_assign_nat(s);
        r
    }
}

impl Add<Nat> for &Nat {
    type Output = Nat;
    /// The sum. Variable time (public values only).
    fn add(self, mut rhs: Nat) -> Nat {
        rhs.add_assign_nat(self);
        rhs
    }
}

impl Add<&Nat> for Nat {
    type Output = Nat;
    /// The sum. Variable time (public values only).
    fn add(mut self, rhs: &Nat) -> Nat {
        self.add_assign_nat(rhs);
        self
    }
}

impl Add<Nat> for Nat {
    type Output = Nat;
    /// The sum. Variable time (public values only).
    fn add(mut self, rhs: Nat) -> Nat {
        self.add_assign_nat(&rhs);
        self
    }
}

impl AddAssign<&Nat> for Nat {
    /// Adds in place. Variable time (public values only).
    fn add_assign(&mut self, rhs: &Nat) {
        self.add_assign_nat(rhs);
    }
}

impl AddAssign<Nat> for Nat {
    /// Adds in place. Variable time (public values only).
    fn add_assign(&mut self, rhs: Nat) {
        self.add_assign_nat(&rhs);
    }
}

impl Add<u64> for &Nat {
    type Output = Nat;
    /// The sum. Variable time (public values only).
    fn add(self, rhs: u64) -> Nat {
        self.clone() + Nat::from(rhs)
    }
}

impl Add<u64> for Nat {
    type Output = Nat;
    /// The sum. Variable time (public values only).
    fn add(mut self, rhs: u64) -> Nat {
        self.add_assign_nat(&Nat::from(rhs));
        self
    }
}

impl AddAssign<u64> for Nat {
    /// Adds in place. Variable time (public values only).
    fn add_assign(&mut self, rhs: u64) {
        self.add_assign_nat(&Nat::from(rhs));
    }
}

impl SubAssign<&Nat> for Nat {
    /// Subtracts in place. Variable time (public values only).
    ///
    /// # Panics
    /// If `rhs` is larger than `self` (the result would be negative).
    #[track_caller]
    fn sub_assign(&mut self, rhs: &Nat) {
        if !self.try_sub_assign(rhs) {
            negative_result();
        }
    }
}

impl SubAssign<Nat> for Nat {
    /// Subtracts in place. Variable time (public values only).
    ///
    /// # Panics
    /// If `rhs` is larger than `self` (the result would be negative).
    #[track_caller]
    fn sub_assign(&mut self, rhs: Nat) {
        *self -= &rhs;
    }
}

impl SubAssign<u64> for Nat {
    /// Subtracts in place. Variable time (public values only).
    ///
    /// # Panics
    /// If `rhs` is larger than `self` (the result would be negative).
    #[track_caller]
    fn sub_assign(&mut self, rhs: u64) {
        *self -= &Nat::from(rhs);
    }
}

impl Sub<&Nat> for Nat {
    type Output = Nat;
    /// The difference. Variable time (public values only).
    ///
    /// # Panics
    /// If `rhs` is larger than `self` (the result would be negative).
    #[track_caller]
    fn sub(mut self, rhs: &Nat) -> Nat {
        self -= rhs;
        self
    }
}

impl Sub<Nat> for Nat {
    type Output = Nat;
    /// The difference. Variable time (public values only).
    ///
    /// # Panics
    /// If `rhs` is larger than `self` (the result would be negative).
    #[track_caller]
    fn sub(mut self, rhs: Nat) -> Nat {
        self -= &rhs;
        self
    }
}

impl Sub<&Nat> for &Nat {
    type Output = Nat;
    /// The difference. Variable time (public values only).
    ///
    /// # Panics
    /// If `rhs` is larger than `self` (the result would be negative).
    #[track_caller]
    fn sub(self, rhs: &Nat) -> Nat {
        self.checked_sub(rhs).unwrap_or_else(|| negative_result())
    }
}

impl Sub<Nat> for &Nat {
    type Output = Nat;
    /// The difference. Variable time (public values only).
    ///
    /// # Panics
    /// If `rhs` is larger than `self` (the result would be negative).
    #[track_caller]
    fn sub(self, rhs: Nat) -> Nat {
        self - &rhs
    }
}

impl Sub<u64> for &Nat {
    type Output = Nat;
    /// The difference. Variable time (public values only).
    ///
    /// # Panics
    /// If `rhs` is larger than `self` (the result would be negative).
    #[track_caller]
    fn sub(self, rhs: u64) -> Nat {
        self - &Nat::from(rhs)
    }
}

impl Sub<u64> for Nat {
    type Output = Nat;
    /// The difference. Variable time (public values only).
    ///
    /// # Panics
    /// If `rhs` is larger than `self` (the result would be negative).
    #[track_caller]
    fn sub(mut self, rhs: u64) -> Nat {
        self -= &Nat::from(rhs);
        self
    }
}

impl Shl<usize> for &Nat {
    type Output = Nat;
    /// self · 2ⁿ. Variable time (public values only).
    fn shl(self, n: usize) -> Nat {
        self.shl_bits(n)
    }
}

impl Shl<usize> for Nat {
    type Output = Nat;
    /// self · 2ⁿ. Variable time (public values only).
    fn shl(self, n: usize) -> Nat {
        self.shl_bits(n)
    }
}

impl ShlAssign<usize> for Nat {
    /// self ·= 2ⁿ. Variable time (public values only).
    fn shl_assign(&mut self, n: usize) {
        *self = self.shl_bits(n);
    }
}

impl Shr<usize> for &Nat {
    type Output = Nat;
    /// ⌊self / 2ⁿ⌋. Variable time (public values only).
    fn shr(self, n: usize) -> Nat {
        let mut r = self.clone();
        r.shr_assign_bits(n);
        r
    }
}

impl Shr<usize> for Nat {
    type Output = Nat;
    /// ⌊self / 2ⁿ⌋. Variable time (public values only).
    fn shr(mut self, n: usize) -> Nat {
        self.shr_assign_bits(n);
        self
    }
}

impl ShrAssign<usize> for Nat {
    /// self = ⌊self / 2ⁿ⌋. Variable time (public values only).
    fn shr_assign(&mut self, n: usize) {
        self.shr_assign_bits(n);
    }
}
