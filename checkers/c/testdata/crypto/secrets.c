#include <string.h>
#include <mysql/mysql.h>
#include <curl/curl.h>
#include <sqlite3.h>

static const char *db_password = "Tr0ub4dor&3"; // want "c.secrets.hardcoded"
static const char api_key[] = "AKIAIOSFODNN7EXAMPLE"; // want "c.secrets.hardcoded"
static char *DB_PASSWORD_ENV = "DB_PASSWORD"; // safe "c.secrets.hardcoded"
static const char *password_prompt = "Password: "; // safe "c.secrets.hardcoded"
static const char *password_file = "/etc/myapp/secret.pw"; // safe "c.secrets.hardcoded"

struct db_config {
	const char *host;
	const char *user;
	const char *password;
	const char *token;
};

static struct db_config defaults = {
	.host = "localhost",
	.user = "admin",
	.password = "s3cr3t-admin", // want "c.secrets.hardcoded"
	.token = "NOMKSTREAM", // safe "c.secrets.hardcoded"
};

/* A lexer's token is not a credential unless its value looks like one. */
void init_lexer(struct db_config *c)
{
	c->token = "identifier"; // safe "c.secrets.hardcoded"
	c->token = "ghp_16C7e42F292c6912E7710c838347Ae178B4a"; // want "c.secrets.hardcoded"
}

void set_defaults(struct db_config *c)
{
	c->password = "hunter22"; // want "c.secrets.hardcoded"
	c->password = ""; // safe "c.secrets.hardcoded"
	c->password = "password"; // safe "c.secrets.hardcoded"
}

int check_login(const char *user, const char *password)
{
	if (strcmp(user, "admin") == 0 && strcmp(password, "letmein!") == 0) // want "c.secrets.hardcoded"
		return 1;
	if (strcmp(user, "guest") == 0) // safe "c.secrets.hardcoded"
		return 2;
	return 0;
}

MYSQL *db_connect(MYSQL *m, const char *pw)
{
	if (pw)
		return mysql_real_connect(m, "db", "app", pw, "appdb", 0, NULL, 0); // safe "c.secrets.hardcoded"
	return mysql_real_connect(m, "db", "app", "app-pass-2023", "appdb", 0, NULL, 0); // want "c.secrets.hardcoded"
}

void curl_auth(CURL *h, const char *userpwd)
{
	curl_easy_setopt(h, CURLOPT_USERPWD, "deploy:Zx81-secret"); // want "c.secrets.hardcoded"
	curl_easy_setopt(h, CURLOPT_USERPWD, userpwd); // safe "c.secrets.hardcoded"
	curl_easy_setopt(h, CURLOPT_USERNAME, "deploy"); // safe "c.secrets.hardcoded"
	curl_easy_setopt(h, CURLOPT_PASSWORD, "Zx81-secret"); // want "c.secrets.hardcoded"
	curl_easy_setopt(h, CURLOPT_PASSWORD, "secret"); // want "c.secrets.hardcoded"
	curl_easy_setopt(h, CURLOPT_PASSWORD, ""); // safe "c.secrets.hardcoded"
}

int open_encrypted(sqlite3 *db)
{
	return sqlite3_key(db, "k3y-m4terial", 12); // want "c.secrets.hardcoded"
}

int pg_connect(void)
{
	PGconn *c = PQconnectdb("host=db user=app password=pg-Secret9 dbname=app"); // want "c.secrets.hardcoded"
	PGconn *d = PQconnectdb("host=db user=app dbname=app"); // safe "c.secrets.hardcoded"
	return c != NULL && d != NULL;
}

void locals(void)
{
	char admin_pass[] = "Adm1nAdm1n"; // want "c.secrets.hardcoded"
	char passwd_buf[64];
	const char *secret_len_fmt = "%zu"; // safe "c.secrets.hardcoded"
	const char *key_name = "api_key"; // safe "c.secrets.hardcoded"
	const char *monkey = "bananas123"; // safe "c.secrets.hardcoded"
	passwd_buf[0] = 0;
	(void)admin_pass;
	(void)secret_len_fmt;
	(void)key_name;
	(void)monkey;
}

/* Comments and strings stay silent: password = "hunter22" */
static const char *help = "set password = \"hunter22\" in the config";

int netrc_matches(const char *password)
{
	return strncmp(password, "none", 4) == 0; // safe "c.secrets.hardcoded"
}
