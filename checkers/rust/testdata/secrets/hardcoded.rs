pub const API_KEY: &str = "AKIAIOSF0DNN7QWERT12"; // want "rust.secrets.hardcoded"
pub const API_KEY_ENV: &str = "SERVICE_API_KEY"; // safe "rust.secrets.hardcoded"
static DB_PASSWORD: &str = "s3cr3t-Passw0rd!"; // want "rust.secrets.hardcoded"
const PASSWORD_PROMPT: &str = "Enter your password:"; // safe "rust.secrets.hardcoded"
const MONKEY_NAME: &str = "george-the-monkey"; // safe "rust.secrets.hardcoded"
const TOKEN_HEADER: &str = "x-auth-token"; // safe "rust.secrets.hardcoded"
const MAX_PASSWORD_LEN: usize = 128;

pub struct Config { // want "rust.secrets.no-zeroize"
    pub user: String,
    pub password: String,
    pub client_secret: String,
}

pub fn default_config() -> Config {
    Config {
        user: "admin".into(),
        password: "hunter2hunter2".into(), // want "rust.secrets.hardcoded"
        client_secret: String::from("7f3c9a1be2d44c0f8e6a"), // want "rust.secrets.hardcoded"
    }
}

pub fn from_env() -> Config {
    Config {
        user: std::env::var("APP_USER").unwrap_or_default(),
        password: std::env::var("APP_PASSWORD").unwrap_or_default(), // safe "rust.secrets.hardcoded"
        client_secret: "changeme".to_string(), // safe "rust.secrets.hardcoded"
    }
}

pub fn connect() -> String {
    let db_url = "postgres://app:Sup3rS3cret@db.internal/app"; // safe "rust.secrets.hardcoded"
    let auth_token = "ghp_aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5"; // want "rust.secrets.hardcoded"
    let password_hint = "the usual one"; // safe "rust.secrets.hardcoded"
    let secret = format!("{}:{}", db_url, auth_token); // safe "rust.secrets.hardcoded"
    secret
}

pub fn keys() -> Vec<&'static str> {
    // "key" alone is not a secret word: map keys, config keys.
    let key = "user.preferences.theme"; // safe "rust.secrets.hardcoded"
    let keyboard_layout = "dvorak-programmer"; // safe "rust.secrets.hardcoded"
    vec![key, keyboard_layout]
}

/// Docs may show `const API_KEY: &str = "sk_live_abcdefghijklmnop";` and stay silent.
pub fn documented() {}

#[cfg(test)]
mod tests {
    #[test]
    fn login() {
        let password = "correct-horse-battery"; // safe "rust.secrets.hardcoded"
        let api_key = "AKIAZ7Q3R5T7V9X1B3D5"; // want "rust.secrets.hardcoded"
        assert!(!password.is_empty() && !api_key.is_empty());
    }
}
