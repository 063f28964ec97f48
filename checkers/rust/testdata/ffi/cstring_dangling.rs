use std::ffi::CString;
use std::os::raw::c_char;

extern "C" {
    fn puts(s: *const c_char) -> i32;
    fn set_title(s: *const c_char);
}

#[repr(C)]
pub struct Opts {
    pub name: *const c_char,
    pub level: i32,
}

pub fn greet(who: &str) {
    let p = CString::new(who).unwrap().as_ptr(); // want "rust.ffi.cstring-dangling"
    // SAFETY: (wrong) p dangles.
    unsafe { puts(p) };
}

pub fn title(t: &str) -> *const c_char {
    CString::new(t).expect("no NUL in title").as_ptr() // want "rust.ffi.cstring-dangling"
}

pub fn options(name: &str) -> Opts {
    let o = Opts { name: CString::new(name).unwrap_or_default().as_ptr(), level: 1 }; // want "rust.ffi.cstring-dangling"
    o
}

pub fn relabel(o: &mut Opts, name: &str) -> Result<(), std::ffi::NulError> {
    o.name = CString::new(name)?.as_ptr(); // want "rust.ffi.cstring-dangling"
    Ok(())
}

// Safe look-alikes.

pub fn greet_bound(who: &str) {
    let s = CString::new(who).unwrap_or_default();
    let p = s.as_ptr(); // safe "rust.ffi.cstring-dangling"
    // SAFETY: s outlives p.
    unsafe { puts(p) };
}

pub fn set_title_inline(t: &str) {
    // SAFETY: the temporary lives until the end of this statement.
    unsafe { set_title(CString::new(t).unwrap_or_default().as_ptr()) }; // safe "rust.ffi.cstring-dangling"
}

pub fn length(v: &[u8]) -> *const u8 {
    v.as_ptr() // safe "rust.ffi.cstring-dangling"
}

/// Never write `let p = CString::new(s).unwrap().as_ptr();`: it dangles.
pub fn advice() -> &'static str {
    "let p = CString::new(s).unwrap().as_ptr();" // safe "rust.ffi.cstring-dangling"
}
