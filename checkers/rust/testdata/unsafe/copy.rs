use std::io::{self, Write};
use std::ptr;
use std::sync::RwLock;

pub fn append(dst: &mut [u8], src: &[u8]) {
    // SAFETY: (wrong) dst is assumed to be large enough.
    unsafe { ptr::copy_nonoverlapping(src.as_ptr(), dst.as_mut_ptr(), src.len()) } // want "rust.unsafe.copy"
}

pub fn fill(out: &mut Vec<u8>, n: usize) {
    // SAFETY: none; n is unrelated to out's capacity.
    unsafe { std::ptr::write_bytes(out.as_mut_ptr(), 0, n) } // want "rust.unsafe.copy"
}

pub fn shift(buf: &mut [u32], from: usize, count: usize) {
    let p = buf.as_mut_ptr();
    // SAFETY: none.
    unsafe { ptr::copy(p.add(from), p, count) } // want "rust.unsafe.copy" "rust.unsafe.pointer-offset"
}

pub fn export(src: &[u8], out: *mut u8) {
    // SAFETY: none; out's size is unknown.
    unsafe { src.as_ptr().copy_to_nonoverlapping(out, src.len()) } // want "rust.unsafe.copy"
}

pub fn store(slots: &mut [u64], i: usize, v: u64) {
    // SAFETY: none; i is not checked.
    unsafe { ptr::write(slots.as_mut_ptr().add(i), v) } // want "rust.unsafe.copy" "rust.unsafe.pointer-offset"
}

// Safe look-alikes: checked counts, and write/read that are not ptr::.

pub fn append_checked(dst: &mut [u8], src: &[u8]) {
    assert!(dst.len() >= src.len());
    // SAFETY: dst is at least as long as src; they cannot overlap (&mut).
    unsafe { ptr::copy_nonoverlapping(src.as_ptr(), dst.as_mut_ptr(), src.len()) } // safe "rust.unsafe.copy"
}

pub fn append_min(dst: &mut [u8], src: &[u8]) -> usize {
    let n = dst.len().min(src.len());
    // SAFETY: n fits both buffers.
    unsafe { ptr::copy_nonoverlapping(src.as_ptr(), dst.as_mut_ptr(), n) } // safe "rust.unsafe.copy"
    n
}

pub fn to_vec(src: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(src.len());
    // SAFETY: out has capacity for src.len() bytes, written before set_len.
    unsafe {
        ptr::copy_nonoverlapping(src.as_ptr(), out.as_mut_ptr(), src.len()); // safe "rust.unsafe.copy"
        out.set_len(src.len());
    }
    out
}

pub fn one(dst: &mut u64, v: u64) {
    // SAFETY: dst is a live reference.
    unsafe { ptr::write(dst, v) } // safe "rust.unsafe.copy"
}

pub fn log(w: &mut dyn Write, lock: &RwLock<Vec<u8>>) -> io::Result<usize> {
    let data = lock.read().map_err(|_| io::ErrorKind::Other)?; // safe "rust.unsafe.copy"
    w.write(&data) // safe "rust.unsafe.copy"
}

pub fn copy_file(a: &str, b: &str) -> io::Result<u64> {
    std::fs::copy(a, b) // safe "rust.unsafe.copy"
}

pub struct Chunks {
    data: Vec<u8>,
    len: usize,
}

impl Chunks {
    // Counts the container computes from its own state are its invariants.
    pub fn remove(&mut self, index: usize) {
        let len = self.len;
        assert!(index < len);
        let p = self.data.as_mut_ptr();
        // SAFETY: index < len, and the tail moves down by one.
        unsafe { ptr::copy(p.add(index + 1), p.add(index), len - index - 1) } // safe "rust.unsafe.copy"
        self.len -= 1;
    }

    pub fn copy_out(&self, dst: &mut [u8]) -> usize {
        let cnt;
        // SAFETY: cnt fits both buffers.
        unsafe {
            cnt = std::cmp::min(self.data.len(), dst.len());
            ptr::copy_nonoverlapping(self.data.as_ptr(), dst.as_mut_ptr(), cnt); // safe "rust.unsafe.copy"
        }
        cnt
    }
}

extern "C" {
    fn c_malloc(n: usize) -> *mut u8;
}

pub fn to_c(label: &[u8]) -> *mut u8 {
    // SAFETY: p has room for label.len() bytes (or is null, checked by the caller).
    unsafe {
        let p = c_malloc(label.len());
        ptr::copy_nonoverlapping(label.as_ptr(), p, label.len()); // safe "rust.unsafe.copy"
        p
    }
}

pub fn to_stack(src: &[u8]) -> usize {
    const MAX: usize = 64;
    if src.len() >= MAX {
        return 0;
    }
    let mut buf = [0u8; MAX];
    // SAFETY: src.len() < MAX.
    unsafe { ptr::copy_nonoverlapping(src.as_ptr(), buf.as_mut_ptr(), src.len()) } // safe "rust.unsafe.copy"
    buf.iter().filter(|b| **b != 0).count()
}
