// A build script fails the build by panicking: silent.
use std::env;
use std::fs;

fn main() {
    let out = env::var("OUT_DIR").unwrap(); // safe "rust.panic.unwrap"
    if fs::metadata(&out).is_err() {
        panic!("OUT_DIR {} does not exist", out); // safe "rust.panic.explicit"
    }
}
