use std::convert::TryFrom;
use std::io::{self, Write};

pub struct Frame {
    payload: Vec<u8>,
    offset: u64,
    delta: i64,
    tag: u8,
}

impl Frame {
    pub fn header(&self, out: &mut Vec<u8>) {
        let len = self.payload.len();
        out.extend_from_slice(&(len as u32).to_le_bytes()); // want "rust.int.truncating-cast"
        out.extend_from_slice(&(self.payload.len() as u16).to_be_bytes()); // want "rust.int.truncating-cast"
        out.push(self.tag as u8); // safe "rust.int.truncating-cast"
    }

    pub fn header_checked(&self, out: &mut Vec<u8>) -> io::Result<()> {
        let len = u32::try_from(self.payload.len()).map_err(|_| io::ErrorKind::InvalidInput)?; // safe "rust.int.truncating-cast"
        out.extend_from_slice(&len.to_le_bytes());
        Ok(())
    }

    pub fn position(&self) -> u32 {
        self.offset as u32 // want "rust.int.truncating-cast"
    }

    pub fn step(&self, base: usize) -> usize {
        base + self.delta as usize // want "rust.int.truncating-cast"
    }

    pub fn step_checked(&self, base: usize) -> usize {
        if self.delta < 0 {
            return base;
        }
        base + self.delta as usize // safe "rust.int.truncating-cast"
    }

    pub fn widen(&self) -> u64 {
        self.tag as u64 // safe "rust.int.truncating-cast"
    }
}

pub fn first_byte(c: char) -> u8 {
    c as u8 // want "rust.int.truncating-cast"
}

pub fn ascii_byte(c: char) -> Option<u8> {
    if c.is_ascii() {
        return Some(c as u8 & 0x7f); // safe "rust.int.truncating-cast"
    }
    None
}

pub fn low_byte(word: u32) -> u8 {
    (word & 0xff) as u8 // safe "rust.int.truncating-cast"
}

pub fn high_byte(word: u32) -> u8 {
    (word >> 24) as u8 // safe "rust.int.truncating-cast"
}

pub fn clamp_len(n: usize) -> u16 {
    if n > u16::MAX as usize {
        return u16::MAX;
    }
    n as u16 // safe "rust.int.truncating-cast"
}

pub fn timeout(ms: i64) -> u32 {
    ms as u32 // want "rust.int.truncating-cast"
}

pub fn fd_len(count: usize) -> libc::c_int {
    count as libc::c_int // want "rust.int.truncating-cast"
}

pub fn literal() -> u8 {
    let big = 200u32;
    let x = 7u64 as u8; // safe "rust.int.truncating-cast"
    big as u8 // safe "rust.int.truncating-cast"
}

pub fn unknown(v: &Value) -> u8 {
    // The source type is unknown here: silent.
    v.level() as u8 // safe "rust.int.truncating-cast"
}

const SHIFT: u32 = 64u64 as u32; // safe "rust.int.truncating-cast"

pub fn write_len(w: &mut dyn Write, data: &[u8]) -> io::Result<()> {
    let n: u64 = data.len() as u64; // safe "rust.int.truncating-cast"
    w.write_all(&n.to_le_bytes())
}

pub fn split(seed: u64) -> (u32, u32) {
    let lo = seed as u32; // safe "rust.int.truncating-cast"
    let hi = (seed >> 32) as u32;
    (lo, hi)
}

pub fn encode_small(value: usize, out: &mut Vec<u8>) {
    if fits_in_prefix(value) {
        out.push(value as u8); // safe "rust.int.truncating-cast"
    }
}

pub fn asserted(start: usize) -> i32 {
    debug_assert!(i32::try_from(start).is_ok());
    start as i32 // safe "rust.int.truncating-cast"
}

pub fn chunk(num: &[u8]) -> u8 {
    num.len() as u8 // want "rust.int.truncating-cast" (a comment explains the cast: lower confidence, never above 255)
}

pub extern "C" fn on_data(data: *const u8, len: libc::c_int) -> usize {
    let _ = data;
    len as usize // want "rust.int.truncating-cast"
}
