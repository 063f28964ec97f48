#include <openssl/ssl.h>

/* A server that does not ask clients for certificates: SSL_VERIFY_NONE is
 * the normal server setting, reported at low severity only. */
SSL_CTX *server_ctx(void)
{
	SSL_CTX *ctx = SSL_CTX_new(TLS_server_method());
	SSL_CTX_set_verify(ctx, SSL_VERIFY_NONE, NULL); // want "c.crypto.tls-no-verify"
	return ctx;
}

int serve(SSL *ssl)
{
	return SSL_accept(ssl);
}
