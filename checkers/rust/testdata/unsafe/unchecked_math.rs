pub fn total(a: u32, b: u32) -> u32 {
    // SAFETY: (wrong) the sum is assumed not to overflow.
    unsafe { a.unchecked_add(b) } // want "rust.unsafe.unchecked-math"
}

pub fn area(w: usize, h: usize) -> usize {
    // SAFETY: none.
    unsafe { w.unchecked_mul(h) } // want "rust.unsafe.unchecked-math"
}

pub fn shift(x: u64, by: u32) -> u64 {
    // SAFETY: none.
    unsafe { u64::unchecked_shl(x, by) } // want "rust.unsafe.unchecked-math"
}

// Safe look-alikes.

pub fn total_checked(a: u32, b: u32) -> u32 {
    debug_assert!(a <= u32::MAX - b);
    // SAFETY: asserted above.
    unsafe { a.unchecked_add(b) } // safe "rust.unsafe.unchecked-math"
}

pub fn shift_masked(x: u64, by: u32) -> u64 {
    if by >= 64 {
        return 0;
    }
    // SAFETY: by < 64.
    unsafe { x.unchecked_shl(by) } // safe "rust.unsafe.unchecked-math"
}

pub fn area_checked(w: usize, h: usize) -> Option<usize> {
    w.checked_mul(h)?;
    // SAFETY: checked_mul succeeded.
    Some(unsafe { w.unchecked_mul(h) }) // safe "rust.unsafe.unchecked-math"
}

pub fn wrapping(a: u32, b: u32) -> u32 {
    a.wrapping_add(b) // safe "rust.unsafe.unchecked-math"
}
