use std::ffi::CStr;
use std::os::raw::c_char;
use std::slice;

#[repr(C)]
pub struct Point {
    pub x: f64,
    pub y: f64,
}

#[no_mangle]
pub extern "C" fn point_norm(p: *const Point) -> f64 {
    // SAFETY: (wrong) C may pass NULL.
    let pt = unsafe { &*p }; // want "rust.ffi.export-null-check"
    (pt.x * pt.x + pt.y * pt.y).sqrt()
}

#[no_mangle]
pub unsafe extern "C" fn sum_bytes(data: *const u8, len: usize) -> u64 { // want "rust.unsafe.fn-no-safety-doc"
    // SAFETY: (wrong) data may be NULL.
    let s = unsafe { slice::from_raw_parts(data, len) }; // want "rust.ffi.export-null-check"
    s.iter().map(|&b| u64::from(b)).sum()
}

#[no_mangle]
pub extern "C" fn name_len(name: *const c_char) -> usize {
    // SAFETY: (wrong).
    unsafe { CStr::from_ptr(name) }.to_bytes().len() // want "rust.ffi.export-null-check"
}

#[export_name = "point_x"]
pub extern "C" fn point_x(p: *mut Point) -> f64 {
    // SAFETY: (wrong).
    unsafe { (*p).x } // want "rust.ffi.export-null-check"
}

// Safe look-alikes.

#[no_mangle]
pub extern "C" fn point_norm_checked(p: *const Point) -> f64 {
    if p.is_null() {
        return f64::NAN;
    }
    // SAFETY: checked above; C passes a live Point.
    let pt = unsafe { &*p }; // safe "rust.ffi.export-null-check"
    (pt.x * pt.x + pt.y * pt.y).sqrt()
}

#[no_mangle]
pub extern "C" fn point_y(p: Option<&Point>) -> f64 {
    p.map_or(0.0, |q| q.y) // safe "rust.ffi.export-null-check"
}

#[no_mangle]
pub extern "C" fn forward(p: *const Point) -> f64 {
    norm_or_zero(p) // safe "rust.ffi.export-null-check"
}

fn norm_or_zero(p: *const Point) -> f64 {
    // SAFETY: as_ref handles null.
    match unsafe { p.as_ref() } {
        Some(pt) => pt.x.hypot(pt.y),
        None => 0.0,
    }
}
