use std::mem;

pub fn bits_to_float(bits: u32) -> f32 {
    unsafe { mem::transmute::<u32, f32>(bits) } // want "rust.unsafe.transmute" "rust.unsafe.block-no-safety"
}

pub fn bits_to_float_safe(bits: u32) -> f32 {
    f32::from_bits(bits) // safe "rust.unsafe.transmute"
}

pub struct Registry<'a> {
    names: Vec<&'a str>,
}

impl<'a> Registry<'a> {
    pub fn leak_name(&self, i: usize) -> &'static str {
        unsafe { std::mem::transmute::<&'a str, &'static str>(self.names[i]) } // want "rust.unsafe.transmute" "rust.unsafe.block-no-safety"
    }
}

pub fn callback(addr: usize) -> fn() {
    unsafe { mem::transmute(addr) } // want "rust.unsafe.transmute" "rust.unsafe.block-no-safety"
}

pub fn documented(raw: [u8; 4]) -> u32 {
    // SAFETY: [u8; 4] and u32 have the same size and every bit pattern is valid.
    unsafe { mem::transmute::<[u8; 4], u32>(raw) } // want "rust.unsafe.transmute"
}

/// Mentions of transmute in docs, strings and names are not calls:
/// `mem::transmute(x)`.
pub fn describe() -> &'static str {
    let transmute = "mem::transmute"; // safe "rust.unsafe.transmute"
    transmute
}
