use std::fs;
use std::io::Read;
use std::thread;
use std::time::Duration;

pub async fn handler(path: String) -> std::io::Result<String> {
    thread::sleep(Duration::from_millis(100)); // want "rust.async.blocking-call"
    let data = fs::read_to_string(&path)?; // want "rust.async.blocking-call"
    Ok(data)
}

pub async fn handler_async(path: String) -> std::io::Result<String> {
    tokio::time::sleep(Duration::from_millis(100)).await; // safe "rust.async.blocking-call"
    let data = tokio::fs::read_to_string(&path).await?; // safe "rust.async.blocking-call"
    Ok(data)
}

pub async fn offloaded(path: String) -> std::io::Result<Vec<u8>> {
    tokio::task::spawn_blocking(move || {
        let mut f = std::fs::File::open(&path)?; // safe "rust.async.blocking-call"
        let mut buf = Vec::new();
        f.read_to_end(&mut buf)?;
        Ok(buf)
    })
    .await
    .unwrap()
}

pub fn sync_helper(path: &str) -> std::io::Result<Vec<u8>> {
    // Not async: blocking is fine here.
    fs::read(path) // safe "rust.async.blocking-call"
}

pub fn spawn_worker() -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let conn = std::net::TcpStream::connect("10.0.0.1:9000"); // want "rust.async.blocking-call"
        drop(conn);
    })
}

pub async fn prompt() -> String {
    let mut line = String::new();
    std::io::stdin().read_line(&mut line).unwrap(); // want "rust.async.blocking-call" "rust.panic.unwrap"
    line
}

pub async fn run_tool() -> std::io::Result<std::process::Output> {
    std::process::Command::new("convert").arg("in.png").output() // want "rust.async.blocking-call"
}

pub async fn run_tool_async() -> std::io::Result<std::process::Output> {
    tokio::process::Command::new("convert").arg("in.png").output().await // safe "rust.async.blocking-call"
}

pub async fn fetch() -> String {
    reqwest::blocking::get("https://example.com").unwrap().text().unwrap() // want "rust.async.blocking-call"
}

pub async fn open_async(p: &str) -> tokio::fs::File {
    tokio::fs::File::open(p).await.unwrap() // safe "rust.async.blocking-call" want "rust.panic.unwrap"
}

pub async fn later() -> impl Fn() {
    // A nested fn item is not async code.
    fn inner() {
        thread::sleep(Duration::from_secs(1)); // safe "rust.async.blocking-call"
    }
    inner
}

/// `std::thread::sleep` in an async fn's docs is not a call.
pub async fn documented() {}

async fn asyncify<F, T>(f: F) -> T
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    tokio::task::spawn_blocking(f).await.expect("blocking task") // safe "rust.panic.unwrap"
}

pub async fn remove(path: String) -> std::io::Result<()> {
    asyncify(move || std::fs::remove_file(path)).await // safe "rust.async.blocking-call"
}

pub async fn builder() -> std::fs::OpenOptions {
    std::fs::OpenOptions::new() // safe "rust.async.blocking-call"
}
