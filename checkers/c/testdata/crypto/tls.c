#include <openssl/ssl.h>
#include <curl/curl.h>

static int accept_all(int preverify_ok, X509_STORE_CTX *x509)
{
	(void)preverify_ok;
	(void)x509;
	return 1;
}

static int check_pinned(int preverify_ok, X509_STORE_CTX *x509)
{
	if (!preverify_ok)
		return 0;
	return pin_matches(x509);
}

SSL_CTX *client_ctx(void)
{
	SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
	SSL_CTX_set_verify(ctx, SSL_VERIFY_NONE, NULL); // want "c.crypto.tls-no-verify"
	return ctx;
}

SSL_CTX *client_ctx_cb(void)
{
	SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
	SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, accept_all); // want "c.crypto.tls-no-verify"
	return ctx;
}

SSL_CTX *client_ctx_pinned(void)
{
	SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
	SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, check_pinned); // safe "c.crypto.tls-no-verify"
	return ctx;
}

void connect_conf(SSL *ssl, int verifypeer)
{
	/* A configuration choice, not a hard-coded "off". */
	SSL_set_verify(ssl, verifypeer ? SSL_VERIFY_PEER : SSL_VERIFY_NONE, NULL); // safe "c.crypto.tls-no-verify"
	SSL_connect(ssl);
}

int fetch(const char *url)
{
	CURL *h = curl_easy_init();
	long verify = 0;
	curl_easy_setopt(h, CURLOPT_URL, url);
	curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 0L); // want "c.crypto.tls-no-verify"
	curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, 0); // want "c.crypto.tls-no-verify"
	curl_easy_setopt(h, CURLOPT_PROXY_SSL_VERIFYPEER, verify); // want "c.crypto.tls-no-verify"
	curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, 2L); // safe "c.crypto.tls-no-verify"
	return curl_easy_perform(h);
}

int fetch_opt(CURL *h, int insecure)
{
	if (insecure)
		curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 0L); // want "c.crypto.tls-no-verify"
	else
		curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 1L); // safe "c.crypto.tls-no-verify"
	return curl_easy_perform(h);
}

int fetch_example(void)
{
	CURL *curl = curl_easy_init();
	if (curl) {
		curl_easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, 0L); // want "c.crypto.tls-no-verify"
		curl_easy_perform(curl);
	}
	return 0;
}

int fetch_strict(CURL *h, long level)
{
	return curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, level); // safe "c.crypto.tls-no-verify"
}

void conf_mbedtls(mbedtls_ssl_config *conf)
{
	mbedtls_ssl_conf_authmode(conf, MBEDTLS_SSL_VERIFY_NONE); // want "c.crypto.tls-no-verify"
	mbedtls_ssl_conf_authmode(conf, MBEDTLS_SSL_VERIFY_REQUIRED); // safe "c.crypto.tls-no-verify"
}

int setopt_dispatch(int option, long arg)
{
	switch (option) {
	case CURLOPT_SSL_VERIFYPEER: // safe "c.crypto.tls-no-verify"
		return arg != 0;
	}
	/* curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 0L); */
	return -1;
}

static const char *tls_doc = "SSL_CTX_set_verify(ctx, SSL_VERIFY_NONE, NULL) disables checks";
#if 0
void insecure(SSL_CTX *ctx) { SSL_CTX_set_verify(ctx, SSL_VERIFY_NONE, NULL); }
#endif
