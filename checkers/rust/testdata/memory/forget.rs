use std::fs::File;
use std::mem;
use std::sync::Mutex;

pub fn drop_buffer(n: usize) {
    let buf = vec![0u8; n];
    mem::forget(buf); // want "rust.memory.forget"
}

pub fn keep_file(path: &str) -> std::io::Result<()> {
    let f = File::open(path)?;
    std::mem::forget(f); // want "rust.memory.forget"
    Ok(())
}

pub fn stuck(m: &Mutex<u32>) {
    if let Ok(guard) = m.try_lock() {
        drop(guard);
    }
    let guard = m.lock().unwrap_or_else(|e| e.into_inner());
    mem::forget(guard); // want "rust.memory.forget"
}

pub fn boxed(name: String) {
    mem::forget(Box::new(name)); // want "rust.memory.forget"
}

pub fn handoff(v: Vec<u8>) -> (*mut u8, usize, usize) {
    let mut v = v;
    let out = (v.as_mut_ptr(), v.len(), v.capacity());
    mem::forget(v); // want "rust.memory.forget"
    out
}

// Safe look-alikes.

pub fn handoff_documented(v: Vec<u8>) -> (*mut u8, usize, usize) {
    let mut v = v;
    let out = (v.as_mut_ptr(), v.len(), v.capacity());
    // SAFETY: ownership moves to the caller, who rebuilds the Vec with
    // Vec::from_raw_parts in vec_free.
    mem::forget(v); // safe "rust.memory.forget"
    out
}

pub struct Token {
    id: u64,
}

impl Token {
    pub fn into_id(self) -> u64 {
        let id = self.id;
        mem::forget(self); // safe "rust.memory.forget"
        id
    }
}

pub fn plain(x: u64, r: &String) {
    mem::forget(x); // safe "rust.memory.forget"
    mem::forget(r); // safe "rust.memory.forget"
}

pub trait Cache {
    fn forget(&mut self, key: &str);
}

pub fn evict(c: &mut dyn Cache) {
    c.forget("session"); // safe "rust.memory.forget"
}

/// `mem::forget(buf)` in a doc comment is not a call.
pub fn doc_only() -> &'static str {
    // mem::forget(buf); in a comment neither
    "mem::forget(buf)" // safe "rust.memory.forget"
}
