/* SQL assembled from strings and run by SQLite, MySQL and libpq. */
#include <mysql.h>
#include <libpq-fe.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

/* A name from the network spliced into a query. */
int lookup_user(sqlite3 *db, int sock)
{
	char name[64], sql[256];
	ssize_t n = recv(sock, name, sizeof name - 1, 0);

	if (n <= 0)
		return -1;
	name[n] = '\0';
	snprintf(sql, sizeof sql, "SELECT id, email FROM users WHERE name = '%s'", name);
	return sqlite3_exec(db, sql, NULL, NULL, NULL); // want "c.injection.sql"
}

/* A parameter: the caller decides, reported at base confidence. */
int delete_session(MYSQL *conn, const char *token)
{
	char q[512];

	snprintf(q, sizeof q, "DELETE FROM sessions WHERE token='%s'", token);
	return mysql_query(conn, q); // want "c.injection.sql"
}

/* strcpy/strcat assembly. */
PGresult *find_orders(PGconn *conn, const char *customer)
{
	char q[1024];

	strlcpy(q, "SELECT * FROM orders WHERE customer = '", sizeof q);
	strlcat(q, customer, sizeof q);
	strlcat(q, "' ORDER BY created", sizeof q);
	return PQexec(conn, q); // want "c.injection.sql"
}

/* A query taken whole from stdin. */
int run_console(sqlite3 *db)
{
	char line[4096];
	sqlite3_stmt *stmt;

	while (fgets(line, sizeof line, stdin)) {
		if (sqlite3_prepare_v2(db, line, -1, &stmt, NULL) != SQLITE_OK) // want "c.injection.sql"
			continue;
		sqlite3_step(stmt);
		sqlite3_finalize(stmt);
	}
	return 0;
}

/* Escaped, but spliced in without quotes: still injectable. */
int count_items(MYSQL *conn, const char *id)
{
	char esc[256], q[512];

	mysql_real_escape_string(conn, esc, id, strlen(id));
	snprintf(q, sizeof q, "SELECT COUNT(*) FROM items WHERE owner = %s", esc);
	return mysql_query(conn, q); // want "c.injection.sql"
}

/* Prepared statement with a placeholder and a bound value. */
int lookup_user_safe(sqlite3 *db, const char *name)
{
	sqlite3_stmt *stmt;
	int rc = sqlite3_prepare_v2(db, "SELECT id FROM users WHERE name = ?", -1, &stmt, NULL); // safe "c.injection.sql"

	if (rc != SQLITE_OK)
		return rc;
	sqlite3_bind_text(stmt, 1, name, -1, SQLITE_TRANSIENT);
	rc = sqlite3_step(stmt);
	sqlite3_finalize(stmt);
	return rc;
}

/* Numbers cannot inject: %d and %ld of integers. */
int purge_older(sqlite3 *db, long days, int limit)
{
	char sql[256];

	snprintf(sql, sizeof sql, "DELETE FROM events WHERE age > %ld LIMIT %d", days, limit);
	return sqlite3_exec(db, sql, NULL, NULL, NULL); // safe "c.injection.sql"
}

/* Escaped and quoted. */
int delete_session_safe(MYSQL *conn, const char *token)
{
	char esc[512], q[1100];

	mysql_real_escape_string(conn, esc, token, strlen(token));
	snprintf(q, sizeof q, "DELETE FROM sessions WHERE token='%s'", esc);
	return mysql_query(conn, q); // safe "c.injection.sql"
}

/* sqlite3_mprintf's %q quotes for SQL. */
int rename_user(sqlite3 *db, const char *old_name, const char *new_name)
{
	char *sql = sqlite3_mprintf("UPDATE users SET name = '%q' WHERE name = '%q'", new_name, old_name);
	int rc = sqlite3_exec(db, sql, NULL, NULL, NULL); // safe "c.injection.sql"

	sqlite3_free(sql);
	return rc;
}

/* Not SQL keywords: "RESTRING" and "settings" contain IN, SET as substrings. */
int log_restring(MYSQL *conn, const char *label)
{
	char q[256];

	snprintf(q, sizeof q, "CALL log_event('RESTRING settings %s')", label);
	return mysql_query(conn, q); // safe "c.injection.sql"
}

/* A format split by a comment is still one literal: the %s is seen. */
int find_by_field(sqlite3 *db, const char *field)
{
	char *sql = sqlite3_mprintf("SELECT id FROM t"/* the column */" WHERE %s = 1", field);
	int rc = sqlite3_exec(db, sql, NULL, NULL, NULL); // want "c.injection.sql"

	sqlite3_free(sql);
	return rc;
}
