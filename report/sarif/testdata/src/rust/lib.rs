use std::mem;

/// Converts wire bits to a float.
pub fn decode(bits: u32) -> f32 {
    unsafe { mem::transmute::<u32, f32>(bits) }
}
