use rusqlite::{params, Connection, Result};

pub struct Repo {
    conn: Connection,
}

impl Repo {
    pub fn find(&self, name: &str) -> Result<i64> {
        let sql = format!("SELECT id FROM users WHERE name = '{}'", name);
        self.conn.query_row(&sql, [], |r| r.get(0)) // want "rust.injection.sql"
    }

    pub fn find_safe(&self, name: &str) -> Result<i64> {
        self.conn.query_row("SELECT id FROM users WHERE name = ?1", params![name], |r| r.get(0)) // safe "rust.injection.sql"
    }

    pub fn delete(&self, id_text: &str) -> Result<usize> {
        self.conn.execute(&format!("DELETE FROM sessions WHERE token = '{id_text}'"), []) // want "rust.injection.sql"
    }

    pub fn page(&self, limit: u32) -> Result<usize> {
        // Integers cannot carry SQL.
        self.conn.execute(&format!("DELETE FROM log WHERE id < {}", limit), []) // safe "rust.injection.sql"
    }

    pub fn rename(&self, old: &str, new: &str) -> Result<usize> {
        let q = "UPDATE users SET name = '".to_string() + new + "' WHERE name = '" + old + "'";
        self.conn.execute(&q, []) // want "rust.injection.sql"
    }

    pub fn search(&self, term: &str) -> Result<usize> {
        let mut q = String::from("SELECT count(*) FROM docs WHERE body LIKE '%");
        q.push_str(term);
        q.push_str("%'");
        self.conn.execute(&q, []) // want "rust.injection.sql"
    }

    pub fn label(&self, value: &str) -> String {
        // Not SQL: "IN" inside "STRING" or "INTO" inside words is not a keyword.
        let s = format!("STRING INTERNAL {}", value);
        self.conn.execute(&s, []).map(|_| s.clone()).unwrap_or_default() // safe "rust.injection.sql"
    }
}

const TABLE: &str = "audit";

pub async fn count(pool: &sqlx::PgPool, user: &str) -> sqlx::Result<i64> {
    let q = format!("SELECT count(*) FROM {} WHERE owner = $1", TABLE);
    let row: (i64,) = sqlx::query_as(&q).bind(user).fetch_one(pool).await?; // safe "rust.injection.sql"
    Ok(row.0)
}

pub async fn count_bad(pool: &sqlx::PgPool, user: &str) -> sqlx::Result<i64> {
    let q = format!("SELECT count(*) FROM audit WHERE owner = '{}'", user);
    let row: (i64,) = sqlx::query_as(&q).fetch_one(pool).await?; // want "rust.injection.sql"
    Ok(row.0)
}

pub async fn count_macro(pool: &sqlx::PgPool, user: &str) -> sqlx::Result<i64> {
    let row = sqlx::query!("SELECT count(*) AS n FROM audit WHERE owner = $1", user) // safe "rust.injection.sql"
        .fetch_one(pool)
        .await?;
    Ok(row.n.unwrap_or(0))
}
