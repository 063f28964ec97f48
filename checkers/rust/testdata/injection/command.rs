use std::env;
use std::io::{self, BufRead};
use std::process::{Command, Output};

const BACKUP_SCRIPT: &str = "tar czf /tmp/backup.tgz /srv/data";

pub fn archive(dir: &str) -> io::Result<Output> {
    Command::new("sh")
        .arg("-c")
        .arg(format!("tar czf /tmp/out.tgz {}", dir)) // want "rust.exec.command-injection"
        .output()
}

pub fn archive_safe(dir: &str) -> io::Result<Output> {
    Command::new("tar")
        .arg("czf")
        .arg("/tmp/out.tgz")
        .arg(dir) // safe "rust.exec.command-injection"
        .output()
}

pub fn backup() -> io::Result<Output> {
    Command::new("/bin/sh").args(["-c", BACKUP_SCRIPT]).output() // safe "rust.exec.command-injection"
}

pub fn run_from_stdin() -> io::Result<Output> {
    let mut line = String::new();
    io::stdin().lock().read_line(&mut line)?;
    let mut cmd = Command::new("bash");
    cmd.arg("-c");
    cmd.arg(&line); // want "rust.exec.command-injection"
    cmd.output()
}

pub fn windows(name: &str) -> io::Result<Output> {
    let script = "dir ".to_string() + name;
    Command::new("cmd").args(&["/C", &script]).output() // want "rust.exec.command-injection"
}

pub fn git_log(user_ref: &str) -> io::Result<Output> {
    // A program without a shell: arguments are not parsed.
    Command::new("git").args(["log", user_ref]).output() // safe "rust.exec.command-injection"
}

pub fn tool_from_args() -> io::Result<Output> {
    let tool = env::args().nth(1).unwrap_or_default();
    Command::new(&tool).output() // want "rust.exec.command-injection"
}

pub fn editor(file: &str) -> io::Result<Output> {
    // $EDITOR is the user's own choice: silent.
    let editor = env::var("EDITOR").unwrap_or_else(|_| "vi".into());
    Command::new(editor).arg(file).output() // safe "rust.exec.command-injection"
}

pub fn fixed() -> io::Result<Output> {
    let prog = "/usr/bin/uptime";
    Command::new(prog).output() // safe "rust.exec.command-injection"
}

pub fn script_from_env() -> io::Result<Output> {
    let hook = env::var("POST_HOOK").unwrap_or_default();
    Command::new("sh").arg("-c").arg(hook).output() // want "rust.exec.command-injection"
}

/// `Command::new("sh").arg("-c").arg(x)` in a doc comment is silent.
pub fn describe() -> &'static str {
    "Command::new(\"sh\").arg(\"-c\").arg(user)" // safe "rust.exec.command-injection"
}
