use rand::rngs::{OsRng, SmallRng, StdRng};
use rand::{Rng, RngCore, SeedableRng};

const SEED: u64 = 0x5eed;

pub fn shuffle_deck(deck: &mut Vec<u32>) {
    let mut rng = StdRng::seed_from_u64(42); // want "rust.random.fixed-seed"
    for i in (1..deck.len()).rev() {
        let j = rng.gen_range(0..=i);
        deck.swap(i, j);
    }
}

pub fn keygen() -> [u8; 32] {
    let mut rng = rand_chacha::ChaCha20Rng::from_seed([0u8; 32]); // want "rust.random.fixed-seed"
    let mut key = [0u8; 32];
    rng.fill_bytes(&mut key);
    key
}

pub fn simulation() -> StdRng {
    StdRng::seed_from_u64(SEED) // want "rust.random.fixed-seed"
}

pub fn seeded(seed: u64) -> StdRng {
    StdRng::seed_from_u64(seed) // safe "rust.random.fixed-seed"
}

pub fn session_token() -> String {
    let mut rng = SmallRng::from_entropy();
    let token: String = (0..32).map(|_| rng.sample(rand::distributions::Alphanumeric) as char).collect(); // want "rust.random.non-crypto"
    token
}

pub fn nonce() -> u64 {
    fastrand::u64(..) // want "rust.random.non-crypto"
}

pub fn jitter_ms() -> u64 {
    fastrand::u64(0..100) // safe "rust.random.non-crypto"
}

pub fn salt() -> [u8; 16] {
    let mut salt = [0u8; 16];
    OsRng.fill_bytes(&mut salt); // safe "rust.random.non-crypto"
    salt
}

pub fn sample_index(len: usize) -> usize {
    let mut rng = SmallRng::from_entropy();
    let idx = rng.gen_range(0..len); // safe "rust.random.non-crypto"
    idx
}

pub struct Session {
    pub id: u64,
    pub csrf: u64,
}

pub fn new_session() -> Session {
    let mut rng = SmallRng::from_entropy();
    Session {
        id: 1,
        csrf: rng.gen(), // want "rust.random.non-crypto"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic() {
        let mut rng = StdRng::seed_from_u64(7); // safe "rust.random.fixed-seed"
        let _ = rng.gen::<u8>();
    }
}

pub fn demo_seed() -> u64 {
    // `StdRng::seed_from_u64(42)` in a comment is silent.
    let seed = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs();
    let mut rng = StdRng::seed_from_u64(seed); // safe "rust.random.fixed-seed"
    rng.gen()
}
