// SQL assembled with std::string concatenation.
#include <sqlite3.h>
#include <string>

int find_by_email(sqlite3 *db, const std::string &email)
{
    std::string sql = "SELECT id FROM accounts WHERE email = '" + email + "'";
    return sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr); // want "c.injection.sql"
}

int tag_post(sqlite3 *db, const std::string &tag, int post)
{
    std::string sql = "INSERT INTO tags(post, tag) VALUES(";
    sql += std::to_string(post);
    sql += ", '";
    sql += tag;
    sql += "')";
    return sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr); // want "c.injection.sql"
}

int count_posts(sqlite3 *db)
{
    std::string sql = std::string("SELECT COUNT(*) FROM posts") + " WHERE deleted = 0";
    return sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr); // safe "c.injection.sql"
}
