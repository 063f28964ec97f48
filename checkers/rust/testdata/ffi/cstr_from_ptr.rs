use std::ffi::{CStr, CString};
use std::os::raw::c_char;

extern "C" {
    fn getenv(name: *const c_char) -> *const c_char;
    fn current_user() -> *const c_char;
}

pub fn name_of(p: *const c_char) -> String {
    // SAFETY: (wrong) p is assumed non-null.
    let s = unsafe { CStr::from_ptr(p) }; // want "rust.ffi.cstr-from-ptr"
    s.to_string_lossy().into_owned()
}

pub fn home() -> String {
    let key = CString::new("HOME").unwrap_or_default();
    // SAFETY: (wrong) getenv returns null when HOME is unset.
    let v = unsafe { CStr::from_ptr(getenv(key.as_ptr())) }; // want "rust.ffi.cstr-from-ptr"
    v.to_string_lossy().into_owned()
}

pub fn user() -> String {
    // SAFETY: (wrong) the library may return null.
    unsafe {
        let raw = current_user();
        std::ffi::CStr::from_ptr(raw).to_string_lossy().into_owned() // want "rust.ffi.cstr-from-ptr"
    }
}

pub extern "C" fn on_event(msg: *const c_char) {
    // SAFETY: (wrong) C may pass null.
    let m = unsafe { CStr::from_ptr(msg) }; // want "rust.ffi.cstr-from-ptr"
    eprintln!("{}", m.to_string_lossy());
}

// Safe look-alikes.

pub fn name_checked(p: *const c_char) -> Option<String> {
    if p.is_null() {
        return None;
    }
    // SAFETY: non-null; C guarantees a NUL terminator.
    let s = unsafe { CStr::from_ptr(p) }; // safe "rust.ffi.cstr-from-ptr"
    Some(s.to_string_lossy().into_owned())
}

pub fn home_checked() -> Option<String> {
    let key = CString::new("HOME").ok()?;
    // SAFETY: key outlives the call.
    let v = unsafe { getenv(key.as_ptr()) };
    if v.is_null() {
        return None;
    }
    // SAFETY: checked above.
    Some(unsafe { CStr::from_ptr(v) }.to_string_lossy().into_owned()) // safe "rust.ffi.cstr-from-ptr"
}

pub fn round_trip(s: &CString) -> String {
    // SAFETY: as_ptr of a live CString is valid and terminated.
    unsafe { CStr::from_ptr(s.as_ptr()) }.to_string_lossy().into_owned() // safe "rust.ffi.cstr-from-ptr"
}

/// Reads a C string.
///
/// # Safety
///
/// `p` must be a valid, NUL-terminated C string.
pub unsafe fn from_c(p: *const c_char) -> String {
    // SAFETY: guaranteed by the caller.
    unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned() // safe "rust.ffi.cstr-from-ptr"
}

pub fn literal() -> &'static CStr {
    CStr::from_bytes_with_nul(b"ok\0").unwrap_or_default() // safe "rust.ffi.cstr-from-ptr"
}

extern "C" {
    fn last_message(out: *mut *const c_char) -> i32;
}

pub fn message() -> Option<String> {
    let mut out: *const c_char = std::ptr::null();
    // SAFETY: last_message stores a C string in out when it returns 0.
    unsafe {
        if last_message(&mut out) == 0 {
            return Some(CStr::from_ptr(out).to_string_lossy().into_owned()); // safe "rust.ffi.cstr-from-ptr"
        }
    }
    None
}

pub fn stale() -> String {
    let p: *const c_char = std::ptr::null();
    // SAFETY: (wrong) p is still null.
    unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned() // want "rust.ffi.cstr-from-ptr"
}
