use std::collections::HashMap;
use std::env;
use std::fs::{self, File};
use std::io::Read;
use std::net::TcpStream;
use std::sync::Mutex;

pub struct Server {
    config: HashMap<String, String>,
    peers: Mutex<Vec<String>>,
}

impl Server {
    pub fn port(&self, raw: &str) -> u16 {
        raw.trim().parse::<u16>().unwrap() // want "rust.panic.unwrap"
    }

    pub fn default_port(&self) -> u16 {
        "8080".parse::<u16>().unwrap() // safe "rust.panic.unwrap"
    }

    pub fn load(&self, path: &str) -> String {
        let mut f = File::open(path).expect("config file"); // want "rust.panic.unwrap"
        let mut s = String::new();
        f.read_to_string(&mut s).unwrap(); // want "rust.panic.unwrap"
        s
    }

    pub fn home(&self) -> String {
        let home = env::var("HOME");
        home.unwrap() // want "rust.panic.unwrap"
    }

    pub fn home_or_default(&self) -> String {
        env::var("HOME").unwrap_or_else(|_| "/".to_string()) // safe "rust.panic.unwrap"
    }

    pub fn lookup(&self, key: &str) -> &String {
        self.config.get(key).unwrap() // want "rust.panic.unwrap"
    }

    pub fn lookup_checked(&self, key: &str) -> &String {
        if !self.config.contains_key(key) {
            panic!("missing {}", key); // want "rust.panic.explicit"
        }
        self.config.get(key).unwrap() // safe "rust.panic.unwrap"
    }

    pub fn add_peer(&self, p: String) {
        self.peers.lock().unwrap().push(p); // want "rust.panic.unwrap"
    }

    pub fn connect(&self, addr: &str) -> TcpStream {
        TcpStream::connect(addr).unwrap() // want "rust.panic.unwrap"
    }

    pub fn decode(&self, bytes: Vec<u8>) -> String {
        String::from_utf8(bytes).unwrap() // want "rust.panic.unwrap"
    }

    pub fn greeting(&self) -> &'static str {
        std::str::from_utf8(b"hello").unwrap() // safe "rust.panic.unwrap"
    }

    pub fn checked(&self) -> String {
        let v = env::var("APP_MODE");
        if v.is_ok() {
            return v.unwrap(); // safe "rust.panic.unwrap"
        }
        String::new()
    }

    pub fn local(&self, items: &[u32]) -> u32 {
        // unwrap on values the code guarantees is not an external failure.
        let first = items.iter().max();
        *first.unwrap() // safe "rust.panic.unwrap"
    }

    pub fn settings(&self, text: &str) -> serde_json::Value {
        serde_json::from_str(text).unwrap() // want "rust.panic.unwrap"
    }

    pub fn remove(&self, path: &str) {
        fs::remove_file(path).unwrap(); // want "rust.panic.unwrap"
    }
}

/// Doc comments mention `File::open(p).unwrap()` and stay silent.
pub fn describe() -> &'static str {
    "call .parse().unwrap() on input" // safe "rust.panic.unwrap"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses() {
        assert_eq!("7".parse::<u8>().unwrap(), 7);
        let _ = File::open("Cargo.toml").unwrap(); // safe "rust.panic.unwrap"
    }
}

pub fn ascii_name(raw: &[u8]) -> &str {
    if raw.iter().all(|b| *b < 0x80) {
        return std::str::from_utf8(raw).unwrap(); // safe "rust.panic.unwrap"
    }
    "?"
}

pub fn lossy_prefix(data: &[u8]) -> &str {
    match std::str::from_utf8(data) {
        Ok(s) => s,
        Err(e) => std::str::from_utf8(&data[..e.valid_up_to()]).unwrap(), // safe "rust.panic.unwrap"
    }
}

pub fn name_of(raw: &[u8]) -> &str {
    std::str::from_utf8(raw).expect("names are UTF-8") // want "rust.panic.unwrap"
}
