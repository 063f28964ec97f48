use std::env;
use std::fs::{self, File};
use std::io::{self, BufRead, Read};
use std::path::{Component, Path, PathBuf};

use actix_web::{web, HttpResponse};

const BASE: &str = "/srv/files";

pub async fn download(name: web::Path<String>) -> HttpResponse {
    let path = Path::new(BASE).join(name.as_str());
    match fs::read(&path) { // want "rust.path.traversal" "rust.async.blocking-call"
        Ok(data) => HttpResponse::Ok().body(data),
        Err(_) => HttpResponse::NotFound().finish(),
    }
}

pub async fn download_safe(name: web::Path<String>) -> HttpResponse {
    let requested = Path::new(name.as_str());
    if requested.components().any(|c| !matches!(c, Component::Normal(_))) {
        return HttpResponse::BadRequest().finish();
    }
    let path = Path::new(BASE).join(requested);
    match fs::read(&path) { // safe "rust.path.traversal" want "rust.async.blocking-call"
        Ok(data) => HttpResponse::Ok().body(data),
        Err(_) => HttpResponse::NotFound().finish(),
    }
}

pub fn config_from_env() -> io::Result<String> {
    let profile = env::var("APP_PROFILE").unwrap_or_default();
    let mut p = PathBuf::from("/etc/app");
    p.push(format!("{}.toml", profile));
    let mut s = String::new();
    File::open(&p)?.read_to_string(&mut s)?; // want "rust.path.traversal"
    Ok(s)
}

pub fn cat_argument() -> io::Result<String> {
    // A CLI opening the file its user named is the point of the tool.
    let file = env::args().nth(1).unwrap_or_default();
    fs::read_to_string(&file) // safe "rust.path.traversal"
}

pub fn upload_dir() -> io::Result<()> {
    let stdin = io::stdin();
    let mut line = String::new();
    stdin.lock().read_line(&mut line)?;
    let target = format!("/var/uploads/{}", line.trim());
    fs::write(&target, b"data") // want "rust.path.traversal"
}

pub fn canonical(user: web::Query<String>) -> io::Result<Vec<u8>> {
    let base = Path::new(BASE).canonicalize()?;
    let full = base.join(user.as_str()).canonicalize()?;
    if !full.starts_with(&base) {
        return Err(io::ErrorKind::PermissionDenied.into());
    }
    fs::read(full) // safe "rust.path.traversal"
}

pub async fn serve(axum::extract::Path(file): axum::extract::Path<String>) -> std::io::Result<Vec<u8>> {
    let full = format!("{}/{}", BASE, file);
    tokio::fs::read(full).await // want "rust.path.traversal"
}

pub async fn serve_name(axum::extract::Path(file): axum::extract::Path<String>) -> std::io::Result<Vec<u8>> {
    let name = Path::new(&file).file_name().unwrap_or_default().to_owned();
    tokio::fs::read(Path::new(BASE).join(name)).await // safe "rust.path.traversal"
}
