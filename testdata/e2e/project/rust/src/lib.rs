//! A tiny FFI-facing helper crate.
use std::ffi::CString;
use std::mem;
use std::os::raw::c_char;

/// Converts wire bits to a float.
pub fn decode(bits: u32) -> f32 {
    unsafe { mem::transmute::<u32, f32>(bits) }
}

/// The fixed version.
pub fn decode_safe(bits: u32) -> f32 {
    f32::from_bits(bits)
}

pub fn greeting(name: &str) -> *const c_char {
    let owned = CString::new(name).expect("no NUL");
    owned.into_raw()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roundtrip() {
        let f: f32 = unsafe { mem::transmute(1u32) };
        assert!(f > 0.0);
    }
}
