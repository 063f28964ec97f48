use byteorder::{LittleEndian, ReadBytesExt};
use std::io::{self, Read};

const MAX_RECORDS: usize = 1 << 16;

pub fn read_blob(r: &mut impl Read) -> io::Result<Vec<u8>> {
    let mut hdr = [0u8; 4];
    r.read_exact(&mut hdr)?;
    let len = u32::from_le_bytes(hdr) as usize;
    let mut buf = vec![0u8; len]; // want "rust.dos.uncapped-alloc"
    r.read_exact(&mut buf)?;
    Ok(buf)
}

pub fn read_blob_capped(r: &mut impl Read) -> io::Result<Vec<u8>> {
    let mut hdr = [0u8; 4];
    r.read_exact(&mut hdr)?;
    let len = u32::from_le_bytes(hdr) as usize;
    if len > MAX_RECORDS {
        return Err(io::ErrorKind::InvalidData.into());
    }
    let mut buf = vec![0u8; len]; // safe "rust.dos.uncapped-alloc"
    r.read_exact(&mut buf)?;
    Ok(buf)
}

pub fn read_records<R: Read>(r: &mut R) -> io::Result<Vec<u64>> {
    let count = r.read_u32::<LittleEndian>()?;
    let size = r.read_u32::<LittleEndian>()?;
    let total = count * size; // want "rust.int.overflow"
    let mut out = Vec::with_capacity(total as usize); // want "rust.dos.uncapped-alloc"
    for _ in 0..count {
        out.push(r.read_u64::<LittleEndian>()?);
    }
    Ok(out)
}

pub fn read_records_checked<R: Read>(r: &mut R) -> io::Result<Vec<u64>> {
    let count = r.read_u32::<LittleEndian>()?;
    let size = r.read_u32::<LittleEndian>()?;
    let total = count.checked_mul(size).ok_or(io::ErrorKind::InvalidData)?; // safe "rust.int.overflow"
    let mut out = Vec::with_capacity((total as usize).min(MAX_RECORDS)); // safe "rust.dos.uncapped-alloc"
    out.push(u64::from(total));
    Ok(out)
}

pub fn slice_field(buf: &[u8]) -> Option<&[u8]> {
    let off = u64::from_be_bytes(buf[0..8].try_into().ok()?) as usize;
    let len = u64::from_be_bytes(buf[8..16].try_into().ok()?) as usize;
    if off + len > buf.len() { // want "rust.int.overflow"
        return None;
    }
    Some(&buf[off..off + len]) // want "rust.int.overflow"
}

pub fn slice_field_checked(buf: &[u8]) -> Option<&[u8]> {
    let off = u64::from_be_bytes(buf[0..8].try_into().ok()?) as usize;
    let len = u64::from_be_bytes(buf[8..16].try_into().ok()?) as usize;
    let end = off.checked_add(len)?; // safe "rust.int.overflow"
    buf.get(off..end)
}

pub fn table(line: &str) -> Result<Vec<String>, std::num::ParseIntError> {
    let rows: usize = line.trim().parse()?;
    let mut names = Vec::with_capacity(rows * 2); // want "rust.int.overflow" "rust.dos.uncapped-alloc"
    names.push(String::new());
    Ok(names)
}

pub fn small(hdr: [u8; 2]) -> Vec<u8> {
    let n = u16::from_le_bytes(hdr) as usize;
    // A u16 length is at most 64 KiB: silent.
    vec![0u8; n] // safe "rust.dos.uncapped-alloc"
}

pub fn widened(data: &[u8]) -> &[u8] {
    let n = u32::from_le_bytes([data[0], data[1], data[2], data[3]]) as usize;
    // u32 * 4 fits in a 64-bit usize; only 32-bit targets overflow.
    &data[4..4 + n * 4] // want "rust.int.overflow"
}

pub fn constant() -> Vec<u8> {
    let n = "64".parse::<usize>().unwrap();
    vec![0u8; n * 2] // safe "rust.int.overflow"
}

pub fn read_name(r: &mut impl Read) -> io::Result<String> {
    let mut len = [0u8; 8];
    r.read_exact(&mut len)?;
    let n = u64::from_be_bytes(len) as usize;
    let mut name = String::with_capacity(n); // want "rust.dos.uncapped-alloc"
    r.take(n as u64).read_to_string(&mut name)?;
    Ok(name)
}

pub fn grow(buf: &mut Vec<u8>, hdr: [u8; 4]) {
    let extra = u32::from_le_bytes(hdr);
    buf.reserve(extra as usize); // want "rust.dos.uncapped-alloc"
}

pub fn grow_checked(buf: &mut Vec<u8>, hdr: [u8; 4]) {
    let extra = u32::from_le_bytes(hdr).min(4096);
    buf.reserve(extra as usize); // safe "rust.dos.uncapped-alloc"
}

/// `Vec::with_capacity(u32::from_le_bytes(h) as usize)` in docs is silent.
pub fn doc_only() {}
