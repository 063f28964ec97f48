use std::slice;

pub fn view(ptr: *const u8, len: usize) -> &'static [u8] {
    // SAFETY: none; a safe fn trusting both arguments.
    unsafe { slice::from_raw_parts(ptr, len) } // want "rust.unsafe.from-raw-parts"
}

pub fn header(buf: &[u8], claimed: usize) -> &[u8] {
    // SAFETY: none; claimed comes from the input and may exceed buf.
    unsafe { std::slice::from_raw_parts(buf.as_ptr(), claimed) } // want "rust.unsafe.from-raw-parts"
}

extern "C" {
    fn sensor_frame(len: *mut usize) -> *mut u16;
}

pub fn frame() -> Vec<u16> {
    let mut n = 0usize;
    // SAFETY: none; the driver may return null.
    unsafe {
        let data = sensor_frame(&mut n);
        slice::from_raw_parts_mut(data, n).to_vec() // want "rust.unsafe.from-raw-parts"
    }
}

// Safe look-alikes.

pub fn view_checked(ptr: *const u8, len: usize) -> &'static [u8] {
    if ptr.is_null() || len > 4096 {
        return &[];
    }
    // SAFETY: non-null and bounded; C keeps the buffer alive for the program's lifetime.
    unsafe { slice::from_raw_parts(ptr, len) } // safe "rust.unsafe.from-raw-parts"
}

pub fn as_bytes(words: &[u32]) -> &[u8] {
    // SAFETY: same allocation, length scaled by the element size.
    unsafe { slice::from_raw_parts(words.as_ptr().cast::<u8>(), words.len() * 4) } // safe "rust.unsafe.from-raw-parts"
}

/// Views C memory as a slice.
///
/// # Safety
///
/// `ptr` must be valid for reads of `len` bytes for `'a`.
pub unsafe fn view_documented<'a>(ptr: *const u8, len: usize) -> &'a [u8] {
    // SAFETY: guaranteed by the caller.
    unsafe { slice::from_raw_parts(ptr, len) } // safe "rust.unsafe.from-raw-parts"
}

pub fn rebuild(v: Vec<u8>) -> Vec<u8> {
    let mut v = std::mem::ManuallyDrop::new(v);
    // SAFETY: the parts come from a Vec that is never dropped.
    unsafe { Vec::from_raw_parts(v.as_mut_ptr(), v.len(), v.capacity()) } // safe "rust.unsafe.from-raw-parts"
}

pub struct Table {
    rows: *const u64,
}

impl Table {
    fn count(&self) -> usize {
        16
    }

    pub fn rows(&self) -> &[u64] {
        let n = self.count();
        // SAFETY: rows points to count() rows for the table's lifetime.
        unsafe { slice::from_raw_parts(self.rows, n) } // safe "rust.unsafe.from-raw-parts"
    }
}

extern "C" {
    fn blob_len(id: u32) -> usize;
}

pub fn blob(data: &[u8], id: u32) -> &[u8] {
    // SAFETY: none; blob_len is whatever the C side says.
    let n = unsafe { blob_len(id) };
    // SAFETY: none.
    unsafe { slice::from_raw_parts(data.as_ptr(), n) } // want "rust.unsafe.from-raw-parts"
}
