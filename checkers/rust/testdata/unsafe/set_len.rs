use std::io::{self, Read};

pub fn buffer(n: usize) -> Vec<u8> {
    let mut v = Vec::with_capacity(n);
    // SAFETY: (wrong) the bytes are uninitialized.
    unsafe { v.set_len(n) }; // want "rust.unsafe.set-len"
    v
}

pub fn read_block(r: &mut impl Read, n: usize) -> io::Result<Vec<u8>> {
    let mut buf: Vec<u8> = Vec::with_capacity(n);
    // SAFETY: (wrong) read_exact gets &mut over uninitialized bytes.
    unsafe { buf.set_len(n) }; // want "rust.unsafe.set-len"
    r.read_exact(&mut buf)?;
    Ok(buf)
}

pub struct Arena {
    pub store: Vec<u64>,
}

impl Arena {
    pub fn grow(&mut self, extra: usize) {
        self.store.reserve(extra);
        let len = self.store.len();
        // SAFETY: (wrong) the new slots are uninitialized.
        unsafe { self.store.set_len(len + extra) }; // want "rust.unsafe.set-len"
    }
}

extern "C" {
    fn fill(dst: *mut u8, n: usize) -> usize;
}

// Safe look-alikes.

pub fn filled(n: usize) -> Vec<u8> {
    let mut v = Vec::with_capacity(n);
    // SAFETY: fill writes `got` bytes into the spare capacity.
    unsafe {
        let got = fill(v.as_mut_ptr(), n);
        v.set_len(got); // safe "rust.unsafe.set-len"
    }
    v
}

pub fn spare(n: usize) -> Vec<u8> {
    let mut v: Vec<u8> = Vec::with_capacity(n);
    for slot in v.spare_capacity_mut() {
        slot.write(0);
    }
    // SAFETY: every spare slot was written above.
    unsafe { v.set_len(n) }; // safe "rust.unsafe.set-len"
    v
}

pub fn shrink(v: &mut Vec<u8>, k: usize) {
    // SAFETY: shrinking never exposes uninitialized elements.
    unsafe { v.set_len(v.len() - k) }; // safe "rust.unsafe.set-len"
}

pub fn clear(v: &mut Vec<String>) {
    // SAFETY: drops nothing, leaks the strings on purpose.
    unsafe { v.set_len(0) }; // safe "rust.unsafe.set-len"
}

pub struct Stack {
    items: Vec<u32>,
}

impl Stack {
    /// Sets the length.
    ///
    /// # Safety
    /// The first `n` items must be initialized.
    pub unsafe fn set_len(&mut self, n: usize) {
        // SAFETY: forwarded to the caller.
        unsafe { self.items.set_len(n) } // safe "rust.unsafe.set-len"
    }
}

pub fn truncate_file(path: &str, n: u64) -> io::Result<()> {
    let file = std::fs::OpenOptions::new().write(true).open(path)?;
    file.set_len(n) // safe "rust.unsafe.set-len"
}
