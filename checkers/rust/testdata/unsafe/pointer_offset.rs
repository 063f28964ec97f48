pub fn nth(base: *const u8, n: usize) -> u8 {
    // SAFETY: none; n is never checked.
    unsafe { base.add(n).read_unaligned() } // want "rust.unsafe.pointer-offset" "rust.unsafe.raw-deref"
}

pub fn tail(buf: &[u8], skip: usize) -> *const u8 {
    // SAFETY: none; skip may exceed the buffer.
    unsafe { buf.as_ptr().add(skip) } // want "rust.unsafe.pointer-offset"
}

pub fn back(v: &mut Vec<i32>, k: isize) -> *mut i32 {
    let end: *mut i32 = v.as_mut_ptr();
    // SAFETY: none.
    unsafe { end.offset(-k) } // want "rust.unsafe.pointer-offset"
}

pub fn field_at(rec: *mut u8, off: usize) -> *mut u8 {
    // SAFETY: none.
    unsafe { rec.byte_add(off) } // want "rust.unsafe.pointer-offset"
}

pub fn distance(a: &[u8], b: &[u8]) -> isize {
    let pa = a.as_ptr();
    let pb = b.as_ptr();
    // SAFETY: none; a and b are different allocations.
    unsafe { pb.offset_from(pa) } // want "rust.unsafe.pointer-offset"
}

// Safe look-alikes: integers, collections and bounded offsets.

pub fn tail_checked(buf: &[u8], skip: usize) -> *const u8 {
    assert!(skip <= buf.len());
    // SAFETY: skip is at most the length (one past the end is allowed).
    unsafe { buf.as_ptr().add(skip) } // safe "rust.unsafe.pointer-offset"
}

pub fn walk(buf: &[u8]) -> u32 {
    let p = buf.as_ptr();
    let mut sum = 0u32;
    for i in 0..buf.len() {
        // SAFETY: i < buf.len().
        sum += u32::from(unsafe { *p.add(i) }); // safe "rust.unsafe.pointer-offset"
    }
    sum
}

pub fn end_of(buf: &[u8]) -> *const u8 {
    // SAFETY: one past the end of the same slice.
    unsafe { buf.as_ptr().add(buf.len()) } // safe "rust.unsafe.pointer-offset"
}

pub fn header(buf: &[u8]) -> *const u8 {
    // SAFETY: a constant offset past a checked header.
    unsafe { buf.as_ptr().add(4) } // safe "rust.unsafe.pointer-offset"
}

pub fn span(buf: &[u8]) -> isize {
    let start = buf.as_ptr();
    // SAFETY: end is one past the end of the same slice as start.
    let end = unsafe { start.add(buf.len()) };
    // SAFETY: both point into buf.
    unsafe { end.offset_from(start) } // safe "rust.unsafe.pointer-offset"
}

pub fn hash(h: u32, b: u32) -> u32 {
    h.wrapping_add(b).rotate_left(5) // safe "rust.unsafe.pointer-offset"
}

pub fn money(a: u64, b: u64) -> u64 {
    use std::ops::Add;
    a.add(b) // safe "rust.unsafe.pointer-offset"
}

pub fn days(d: std::time::SystemTime, n: std::time::Duration) -> std::time::SystemTime {
    d.checked_sub(n).unwrap_or(d) // safe "rust.unsafe.pointer-offset"
}

pub fn names(set: &mut std::collections::BTreeSet<u32>, n: u32) {
    set.insert(n.add(1)); // safe "rust.unsafe.pointer-offset"
}

pub struct RawBuf {
    ptr: *mut u8,
    len: usize,
}

impl RawBuf {
    pub fn end(&self) -> *mut u8 {
        // SAFETY: len never exceeds the allocation (the type's invariant).
        unsafe { self.ptr.add(self.len) } // safe "rust.unsafe.pointer-offset"
    }

    pub fn sum(&self) -> u32 {
        let mut total = 0;
        let mut i = 0;
        while i < self.len {
            // SAFETY: i < len.
            total += u32::from(unsafe { *self.ptr.add(i) }); // safe "rust.unsafe.pointer-offset"
            i += 1;
        }
        total
    }
}
