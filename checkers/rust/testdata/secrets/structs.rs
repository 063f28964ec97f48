use secrecy::SecretString;
use zeroize::{Zeroize, ZeroizeOnDrop, Zeroizing};

#[derive(Debug, Clone)] // want "rust.secrets.debug-derive"
pub struct Credentials { // want "rust.secrets.no-zeroize"
    pub username: String,
    pub password: String,
}

#[derive(Clone)]
pub struct ApiClient { // want "rust.secrets.no-zeroize"
    base_url: String,
    api_key: Vec<u8>,
}

impl std::fmt::Debug for ApiClient {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.debug_struct("ApiClient").field("base_url", &self.base_url).field("api_key", &"[REDACTED]").finish()
    }
}

#[derive(Debug, Zeroize, ZeroizeOnDrop)] // want "rust.secrets.debug-derive"
pub struct SigningKey { // safe "rust.secrets.no-zeroize"
    private_key: [u8; 32],
}

#[derive(Debug)] // safe "rust.secrets.debug-derive"
pub struct Session { // safe "rust.secrets.no-zeroize"
    user: String,
    access_token: SecretString,
}

#[derive(Debug)] // safe "rust.secrets.debug-derive"
pub struct Lexer { // safe "rust.secrets.no-zeroize"
    token: String,
    pos: usize,
}

#[derive(Debug, Default)] // safe "rust.secrets.debug-derive"
pub struct LoginForm<'a> { // safe "rust.secrets.no-zeroize"
    has_password: bool,
    password_len: usize,
    user: &'a str,
}

pub struct Vault { // safe "rust.secrets.no-zeroize"
    master_key: Zeroizing<Vec<u8>>,
}

pub struct Keyring { // safe "rust.secrets.no-zeroize"
    secret: Vec<u8>,
}

impl Drop for Keyring {
    fn drop(&mut self) {
        self.secret.zeroize();
    }
}

#[derive(Debug)] // want "rust.secrets.debug-derive"
pub enum Auth { // want "rust.secrets.no-zeroize"
    Password(String),
    Bearer { access_token: String },
    Anonymous,
}
