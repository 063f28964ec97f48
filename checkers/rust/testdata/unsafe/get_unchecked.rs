pub fn lookup(table: &[u16], i: usize) -> u16 {
    // SAFETY: (missing) i is assumed to be in range.
    unsafe { *table.get_unchecked(i) } // want "rust.unsafe.get-unchecked"
}

pub fn patch(buf: &mut Vec<u8>, at: usize, b: u8) {
    // SAFETY: none.
    unsafe { *buf.get_unchecked_mut(at + 1) = b } // want "rust.unsafe.get-unchecked"
}

pub fn window(data: &[u8], start: usize, n: usize) -> &[u8] {
    // SAFETY: none.
    unsafe { data.get_unchecked(start..start + n) } // want "rust.unsafe.get-unchecked"
}

pub fn first(data: &[u8]) -> u8 {
    // SAFETY: none; data may be empty.
    unsafe { *data.get_unchecked(0) } // want "rust.unsafe.get-unchecked"
}

pub fn sum_to(values: &[u32], n: usize) -> u32 {
    let mut total = 0;
    for i in 0..n {
        // SAFETY: none; n is not tied to values.len().
        total += unsafe { *values.get_unchecked(i) }; // want "rust.unsafe.get-unchecked"
    }
    total
}

// Safe look-alikes.

pub fn lookup_asserted(table: &[u16], i: usize) -> u16 {
    assert!(i < table.len());
    // SAFETY: asserted above.
    unsafe { *table.get_unchecked(i) } // safe "rust.unsafe.get-unchecked"
}

pub fn lookup_debug(table: &[u16], i: usize) -> u16 {
    debug_assert!(i < table.len(), "index {} out of range", i);
    // SAFETY: callers keep i in range, checked in debug builds.
    unsafe { *table.get_unchecked(i) } // safe "rust.unsafe.get-unchecked"
}

pub fn lookup_guarded(table: &[u16], i: usize) -> Option<u16> {
    if i >= table.len() {
        return None;
    }
    // SAFETY: checked above.
    Some(unsafe { *table.get_unchecked(i) }) // safe "rust.unsafe.get-unchecked"
}

pub fn sum_all(values: &[u32]) -> u32 {
    let mut total = 0;
    for i in 0..values.len() {
        // SAFETY: the loop bound is the length.
        total += unsafe { *values.get_unchecked(i) }; // safe "rust.unsafe.get-unchecked"
    }
    total
}

pub fn sum_while(values: &[u32]) -> u32 {
    let (mut i, mut total) = (0, 0);
    let n = values.len();
    while i < n {
        // SAFETY: i < n == values.len().
        total += unsafe { *values.get_unchecked(i) }; // safe "rust.unsafe.get-unchecked"
        i += 1;
    }
    total
}

pub fn ring(values: &[u32], k: usize) -> u32 {
    // SAFETY: the index is reduced modulo the length (values is non-empty).
    unsafe { *values.get_unchecked(k % values.len()) } // safe "rust.unsafe.get-unchecked"
}

pub fn first_nonempty(data: &[u8]) -> u8 {
    if data.is_empty() {
        return 0;
    }
    // SAFETY: data is not empty.
    unsafe { *data.get_unchecked(0) } // safe "rust.unsafe.get-unchecked"
}

pub fn checked(map: &std::collections::HashMap<u32, u32>, k: u32) -> Option<&u32> {
    map.get(&k) // safe "rust.unsafe.get-unchecked"
}

pub fn pairs(values: &[u32]) -> u32 {
    let mut total = 0;
    for (i, _) in values.iter().enumerate() {
        // SAFETY: enumerate yields indices below the length.
        total += unsafe { *values.get_unchecked(i) }; // safe "rust.unsafe.get-unchecked"
    }
    total
}
