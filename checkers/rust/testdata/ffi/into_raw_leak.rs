use std::ffi::CString;
use std::os::raw::c_char;

pub struct Engine {
    pub speed: u32,
}

#[no_mangle]
pub extern "C" fn engine_version() -> *mut c_char {
    let v = CString::new("1.2.3").unwrap_or_default();
    v.into_raw() // want "rust.ffi.into-raw-leak"
}

#[no_mangle]
pub extern "C" fn engine_new() -> *mut Engine {
    Box::into_raw(Box::new(Engine { speed: 0 })) // want "rust.ffi.into-raw-leak"
}

#[no_mangle]
pub extern "C" fn engine_name() -> *mut c_char {
    CString::new("turbo").unwrap_or_default().into_raw() // want "rust.ffi.into-raw-leak"
}

// Safe look-alikes: Rc has a matching from_raw in this file.

pub fn share(v: std::rc::Rc<u32>) -> *const u32 {
    std::rc::Rc::into_raw(v) // safe "rust.ffi.into-raw-leak"
}

/// Takes back a pointer made by `share`.
///
/// # Safety
/// `p` must come from `share` and be released once.
pub unsafe fn unshare(p: *const u32) -> std::rc::Rc<u32> {
    // SAFETY: see # Safety.
    unsafe { std::rc::Rc::from_raw(p) }
}

pub struct Handle {
    raw: u64,
}

impl Handle {
    pub fn into_raw(self) -> u64 {
        self.raw
    }
}

pub fn raw_handle(h: Handle) -> u64 {
    h.into_raw() // safe "rust.ffi.into-raw-leak"
}

pub struct Task {
    pub id: u64,
}

// Box::into_raw kept inside Rust (an intrusive list, a task header) is not
// handed to C: its from_raw may live in another module.
pub fn task_ptr(t: Task) -> std::ptr::NonNull<Task> {
    let raw = Box::into_raw(Box::new(t)); // safe "rust.ffi.into-raw-leak"
    // SAFETY: into_raw never returns null.
    unsafe { std::ptr::NonNull::new_unchecked(raw) }
}
