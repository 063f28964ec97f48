#include <openssl/md5.h>
#include <openssl/sha.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

/* A password "hash" made with MD5: one finding for the context. */
void hash_password(const char *pw, size_t n, unsigned char out[16])
{
	MD5_CTX ctx;
	MD5_Init(&ctx); // want "c.crypto.weak-hash"
	MD5_Update(&ctx, pw, n); // safe "c.crypto.weak-hash"
	MD5_Final(out, &ctx); // safe "c.crypto.weak-hash"
}

/* A wrapper that only continues a context reports its own step. */
void digest_more(SHA_CTX *ctx, const void *p, size_t n)
{
	SHA1_Update(ctx, p, n); // want "c.crypto.weak-hash"
}

void fingerprint(const unsigned char *der, size_t n, unsigned char *out)
{
	SHA1(der, n, out); // want "c.crypto.weak-hash"
	SHA256(der, n, out); // safe "c.crypto.weak-hash"
}

int sign_digest(EVP_MD_CTX *ctx, int strong)
{
	return EVP_DigestInit_ex(ctx, strong ? EVP_sha256() : EVP_md5(), NULL); // want "c.crypto.weak-hash"
}

const EVP_MD *digest_by_name(void)
{
	return EVP_get_digestbyname("sha1"); // want "c.crypto.weak-hash"
}

/* HMAC-SHA1 is still sound: reported at low severity, not silent. */
unsigned char *totp_hmac(const void *key, int klen, const unsigned char *msg, size_t n, unsigned char *md, unsigned int *mdlen)
{
	return HMAC(EVP_sha1(), key, klen, msg, n, md, mdlen); // want "c.crypto.weak-hash"
}

int hmac_setup(HMAC_CTX *h, const void *key, int klen)
{
	const EVP_MD *md = EVP_sha1(); // want "c.crypto.weak-hash"
	return HMAC_Init_ex(h, key, klen, md, NULL);
}

/* A function of our own that happens to be called like the API. */
struct digest_ops {
	int (*MD5_Init)(void *);
};

int call_op(struct digest_ops *ops, void *c)
{
	return ops->MD5_Init(c); // safe "c.crypto.weak-hash"
}

/* The OCSP CertID is an identifier whose hash the protocol fixes. */
OCSP_CERTID *status_id(X509 *cert, X509 *issuer)
{
	return OCSP_cert_to_id(EVP_sha1(), cert, issuer); // want "c.crypto.weak-hash"
}

/* Comments, strings and dead code stay silent: MD5_Init(&ctx); */
static const char *hash_doc = "EVP_md5() is deprecated";
#if 0
void legacy_digest(MD5_CTX *c) { MD5_Init(c); }
#endif
