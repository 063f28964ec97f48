// A pointer handed to C together with the function that frees it is not
// leaked, even though the matching from_raw lives in another file.
pub struct Engine {
    pub speed: u32,
}

extern "C" {
    fn register(data: *mut std::os::raw::c_void, dtor: Option<unsafe extern "C" fn(*mut std::os::raw::c_void)>);
}

extern "C" {
    fn engine_free_in_c(p: *mut std::os::raw::c_void);
}

pub fn register_engine(e: Engine) {
    // SAFETY: C keeps the pointer and calls engine_free_in_c when done.
    unsafe { register(Box::into_raw(Box::new(e)).cast(), Some(engine_free_in_c)) } // safe "rust.ffi.into-raw-leak"
}

pub fn hand_over(e: Engine) {
    // SAFETY: (leak) C never gives the engine back.
    unsafe { register(Box::into_raw(Box::new(e)).cast(), None) } // want "rust.ffi.into-raw-leak"
}
