use std::os::raw::c_char;

pub unsafe fn read_header(p: *const u8) -> u8 { // want "rust.unsafe.fn-no-safety-doc"
    // SAFETY: the caller passes a readable pointer.
    unsafe { p.read() } // safe "rust.unsafe.raw-deref"
}

/// Reads a C string's length.
///
/// The pointer must not be null. (No heading, so still flagged.)
pub unsafe fn c_len(s: *const c_char) -> usize { // want "rust.unsafe.fn-no-safety-doc"
    let mut n = 0;
    // SAFETY: documented above, if not under a heading.
    while unsafe { *s.add(n) } != 0 { // safe "rust.unsafe.raw-deref" "rust.unsafe.pointer-offset"
        n += 1;
    }
    n
}

/// Converts a raw handle.
#[inline]
#[must_use]
pub const unsafe fn from_handle(h: usize) -> usize { // want "rust.unsafe.fn-no-safety-doc"
    h
}

pub struct Buffer {
    data: Vec<u8>,
}

impl Buffer {
    /// Returns the byte at `i` without a bounds check.
    pub unsafe fn byte_unchecked(&self, i: usize) -> u8 { // want "rust.unsafe.fn-no-safety-doc"
        // SAFETY: forwarded to the caller.
        unsafe { *self.data.get_unchecked(i) } // safe "rust.unsafe.get-unchecked"
    }

    /// Returns the byte at `i` without a bounds check.
    ///
    /// # Safety
    ///
    /// `i` must be less than `self.len()`.
    pub unsafe fn byte_documented(&self, i: usize) -> u8 { // safe "rust.unsafe.fn-no-safety-doc"
        // SAFETY: forwarded to the caller.
        unsafe { *self.data.get_unchecked(i) }
    }

    // Private unsafe helpers need no public contract.
    unsafe fn byte_private(&self, i: usize) -> u8 { // safe "rust.unsafe.fn-no-safety-doc"
        // SAFETY: forwarded to the caller.
        unsafe { *self.data.get_unchecked(i) } // safe "rust.unsafe.get-unchecked"
    }

    pub(crate) unsafe fn byte_crate(&self, i: usize) -> u8 { // safe "rust.unsafe.fn-no-safety-doc"
        // SAFETY: forwarded to the caller.
        unsafe { *self.data.get_unchecked(i) } // safe "rust.unsafe.get-unchecked"
    }
}

/// Frees a buffer made by `buffer_new`.
///
/// # Safety
/// `b` must come from `buffer_new` and must not be used afterwards.
#[no_mangle]
pub unsafe extern "C" fn buffer_free(b: *mut Buffer) { // safe "rust.unsafe.fn-no-safety-doc"
    if !b.is_null() {
        // SAFETY: see the # Safety section.
        drop(unsafe { Box::from_raw(b) });
    }
}

/// Builds a buffer for C callers.
#[no_mangle]
pub extern "C" fn buffer_new() -> *mut Buffer { // safe "rust.unsafe.fn-no-safety-doc"
    Box::into_raw(Box::new(Buffer { data: Vec::new() }))
}

#[doc = "Reads a value.\n\n# Safety\n\n`p` must be valid."]
pub unsafe fn doc_attr(p: *const u32) -> u32 { // safe "rust.unsafe.fn-no-safety-doc"
    // SAFETY: see the docs.
    unsafe { *p }
}
