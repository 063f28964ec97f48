use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::Path;

pub fn write_once(path: &Path, data: &[u8]) -> io::Result<()> {
    if path.exists() {
        return Err(io::ErrorKind::AlreadyExists.into());
    }
    let mut f = File::create(path)?; // want "rust.file.toctou"
    f.write_all(data)
}

pub fn write_once_safe(path: &Path, data: &[u8]) -> io::Result<()> {
    let mut f = OpenOptions::new().write(true).create_new(true).open(path)?; // safe "rust.file.toctou"
    f.write_all(data)
}

pub fn replace(path: &str, data: &[u8]) -> io::Result<()> {
    if Path::new(path).is_file() {
        fs::remove_file(path)?; // want "rust.file.toctou"
    }
    fs::write(path, data) // want "rust.file.toctou"
}

pub fn append_log(path: &Path, line: &str) -> io::Result<()> {
    let existed = path.exists();
    let mut f = OpenOptions::new().append(true).create(true).open(path)?; // want "rust.file.toctou"
    if !existed {
        f.write_all(b"# log\n")?;
    }
    f.write_all(line.as_bytes())
}

pub fn read_if_present(path: &Path) -> io::Result<String> {
    // Reading after a check is not a write race: silent.
    if path.exists() {
        return fs::read_to_string(path); // safe "rust.file.toctou"
    }
    Ok(String::new())
}

pub fn other_path(a: &Path, b: &Path) -> io::Result<()> {
    if a.exists() {
        File::create(b)?; // safe "rust.file.toctou"
    }
    Ok(())
}

pub fn size(path: &Path) -> io::Result<u64> {
    let meta = fs::metadata(path)?;
    fs::write(path, b"")?; // safe "rust.file.toctou"
    Ok(meta.len())
}
