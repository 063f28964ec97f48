use std::fmt;
use std::fs::{self, File};
use std::io::{self, Write};
use std::process::Child;
use std::sync::mpsc::Sender;

pub struct Store {
    file: File,
    tmp: String,
}

impl Store {
    pub fn save(&mut self, data: &[u8]) {
        let _ = self.file.write_all(data); // want "rust.errors.ignored-result"
        let _ = self.file.sync_all(); // want "rust.errors.ignored-result"
    }

    pub fn save_checked(&mut self, data: &[u8]) -> io::Result<()> {
        self.file.write_all(data)?; // safe "rust.errors.ignored-result"
        self.file.sync_all()
    }

    pub fn lock_down(&self, path: &str, perms: fs::Permissions) {
        let _ = fs::set_permissions(path, perms); // want "rust.errors.ignored-result"
    }

    pub fn cleanup(&self) {
        fs::remove_file(&self.tmp).ok(); // want "rust.errors.ignored-result"
    }

    pub fn log(&mut self, msg: &str) {
        let _ = writeln!(self.file, "{}", msg); // want "rust.errors.ignored-result"
        let _ = writeln!(io::stderr(), "{}", msg); // safe "rust.errors.ignored-result"
        let _ = io::stdout().flush(); // safe "rust.errors.ignored-result"
    }
}

impl Drop for Store {
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.tmp); // want "rust.errors.ignored-result"
    }
}

pub fn notify(tx: &Sender<String>, child: &mut Child) {
    let _ = tx.send("done".to_string()); // want "rust.errors.ignored-result"
    let _ = child.kill(); // want "rust.errors.ignored-result"
    let _guard = child.kill(); // safe "rust.errors.ignored-result"
}

pub struct Point(i32, i32);

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let _ = write!(f, "({}, {})", self.0, self.1); // safe "rust.errors.ignored-result"
        Ok(())
    }
}

pub fn render(items: &[u32]) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    for i in items {
        let _ = write!(out, "{},", i); // safe "rust.errors.ignored-result"
    }
    out
}

pub fn unused(v: Vec<u8>) {
    let _ = v; // safe "rust.errors.ignored-result"
    // let _ = fs::remove_file("x"); in a comment
}

pub fn parse_opt(s: &str) -> Option<u32> {
    s.parse::<u32>().ok() // safe "rust.errors.ignored-result"
}
