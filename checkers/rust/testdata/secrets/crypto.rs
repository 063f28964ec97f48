use md5::{Digest, Md5};
use openssl::hash::{hash, MessageDigest};
use openssl::ssl::{SslConnector, SslMethod, SslVerifyMode};
use sha1::Sha1;
use sha2::Sha256;

pub fn hash_password(password: &str) -> String {
    let digest = md5::compute(password.as_bytes()); // want "rust.crypto.weak-hash"
    format!("{:x}", digest)
}

pub fn verify_signature(data: &[u8]) -> Vec<u8> {
    let mut h = Sha1::new(); // want "rust.crypto.weak-hash"
    h.update(data);
    h.finalize().to_vec()
}

pub fn etag(body: &[u8]) -> Vec<u8> {
    Md5::digest(body).to_vec() // want "rust.crypto.weak-hash"
}

pub fn fingerprint(der: &[u8]) -> Vec<u8> {
    hash(MessageDigest::sha1(), der).unwrap().to_vec() // want "rust.crypto.weak-hash"
}

pub fn strong(data: &[u8]) -> Vec<u8> {
    Sha256::digest(data).to_vec() // safe "rust.crypto.weak-hash"
}

pub fn hmac_sha1(key: &[u8], data: &[u8]) -> Vec<u8> {
    use hmac::{Hmac, Mac};
    let mut mac = Hmac::<Sha1>::new_from_slice(key).unwrap(); // safe "rust.crypto.weak-hash"
    mac.update(data);
    mac.finalize().into_bytes().to_vec()
}

pub fn insecure_client() -> reqwest::Client {
    reqwest::Client::builder()
        .danger_accept_invalid_certs(true) // want "rust.crypto.tls-no-verify"
        .build()
        .unwrap()
}

pub fn secure_client(allow_self_signed: bool) -> reqwest::Client {
    reqwest::Client::builder()
        .danger_accept_invalid_certs(false) // safe "rust.crypto.tls-no-verify"
        .build()
        .unwrap()
}

pub fn configurable(insecure: bool) -> native_tls::TlsConnector {
    native_tls::TlsConnector::builder()
        .danger_accept_invalid_hostnames(insecure) // want "rust.crypto.tls-no-verify"
        .build()
        .unwrap()
}

pub fn openssl_client() -> SslConnector {
    let mut b = SslConnector::builder(SslMethod::tls()).unwrap();
    b.set_verify(SslVerifyMode::NONE); // want "rust.crypto.tls-no-verify"
    b.build()
}

pub fn openssl_peer() -> SslConnector {
    let mut b = SslConnector::builder(SslMethod::tls()).unwrap();
    b.set_verify(SslVerifyMode::PEER); // safe "rust.crypto.tls-no-verify"
    b.set_verify_callback(SslVerifyMode::PEER, |_ok, _ctx| true); // want "rust.crypto.tls-no-verify"
    b.build()
}

pub struct NoVerifier;

impl rustls::client::ServerCertVerifier for NoVerifier {
    fn verify_server_cert(
        &self,
        _end_entity: &rustls::Certificate,
        _intermediates: &[rustls::Certificate],
        _server_name: &rustls::ServerName,
        _scts: &mut dyn Iterator<Item = &[u8]>,
        _ocsp: &[u8],
        _now: std::time::SystemTime,
    ) -> Result<rustls::client::ServerCertVerified, rustls::Error> {
        Ok(rustls::client::ServerCertVerified::assertion()) // want "rust.crypto.tls-no-verify"
    }
}

pub struct PinnedVerifier {
    pin: Vec<u8>,
}

impl rustls::client::ServerCertVerifier for PinnedVerifier {
    fn verify_server_cert(
        &self,
        end_entity: &rustls::Certificate,
        _intermediates: &[rustls::Certificate],
        _server_name: &rustls::ServerName,
        _scts: &mut dyn Iterator<Item = &[u8]>,
        _ocsp: &[u8],
        _now: std::time::SystemTime,
    ) -> Result<rustls::client::ServerCertVerified, rustls::Error> {
        if end_entity.0 != self.pin {
            return Err(rustls::Error::General("pin mismatch".into()));
        }
        Ok(rustls::client::ServerCertVerified::assertion()) // safe "rust.crypto.tls-no-verify"
    }
}

pub fn curl_fetch(easy: &mut curl::easy::Easy) {
    easy.ssl_verify_peer(false).unwrap(); // want "rust.crypto.tls-no-verify"
    easy.ssl_verify_host(true).unwrap(); // safe "rust.crypto.tls-no-verify"
}

pub fn legacy_token_digest(token: &[u8]) -> Vec<u8> {
    let mut h = Md5::new(); // want "rust.crypto.weak-hash"
    h.update(token);
    h.finalize().to_vec()
}

// "md5::compute" in a comment or a string is not a call.
pub const ALGORITHM: &str = "md5::compute"; // safe "rust.crypto.weak-hash"
