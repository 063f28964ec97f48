#include <string.h>
#include <openssl/des.h>
#include <openssl/evp.h>
#include <openssl/rc4.h>
#include <gcrypt.h>

/* NTLM-style DES block encryption of a challenge. */
static void ntlm_des_encrypt(const unsigned char *key56, const unsigned char *in, unsigned char *out)
{
	DES_key_schedule ks;
	DES_cblock key;

	memcpy(key, key56, sizeof(key));
	DES_set_key_unchecked(&key, &ks); // want "c.crypto.weak-cipher"
	DES_ecb_encrypt((DES_cblock *)in, (DES_cblock *)out, &ks, DES_ENCRYPT); // want "c.crypto.weak-cipher"
}

int stream_obfuscate(const unsigned char *k, int klen, unsigned char *buf, size_t n)
{
	RC4_KEY rc4;
	RC4_set_key(&rc4, klen, k); // want "c.crypto.weak-cipher"
	RC4(&rc4, n, buf, buf); // want "c.crypto.weak-cipher"
	return 0;
}

int seal_record(EVP_CIPHER_CTX *ctx, const unsigned char *key, const unsigned char *iv, int legacy)
{
	const EVP_CIPHER *c;
	if (legacy)
		c = EVP_des_ede3_cbc(); // want "c.crypto.weak-cipher"
	else
		c = EVP_aes_256_gcm(); // safe "c.crypto.weak-cipher"
	return EVP_EncryptInit_ex(ctx, c, NULL, key, iv);
}

int seal_block(EVP_CIPHER_CTX *ctx, const unsigned char *key)
{
	return EVP_EncryptInit_ex(ctx, EVP_aes_128_ecb(), NULL, key, NULL); // want "c.crypto.weak-cipher"
}

int seal_ctr(EVP_CIPHER_CTX *ctx, const unsigned char *key, const unsigned char *iv)
{
	return EVP_EncryptInit_ex(ctx, EVP_aes_128_ctr(), NULL, key, iv); // safe "c.crypto.weak-cipher"
}

const EVP_CIPHER *cipher_from_config(void)
{
	const EVP_CIPHER *legacy = EVP_get_cipherbyname("des-cbc"); // want "c.crypto.weak-cipher"
	const EVP_CIPHER *modern = EVP_get_cipherbyname("aes-256-gcm"); // safe "c.crypto.weak-cipher"
	return legacy ? legacy : modern;
}

int gcry_open_des(gcry_cipher_hd_t *h)
{
	return gcry_cipher_open(h, GCRY_CIPHER_DES, GCRY_CIPHER_MODE_ECB, 0); // want "c.crypto.weak-cipher"
}

int gcry_open_aes(gcry_cipher_hd_t *h)
{
	return gcry_cipher_open(h, GCRY_CIPHER_AES256, GCRY_CIPHER_MODE_GCM, 0); // safe "c.crypto.weak-cipher"
}

/* Declarations, comments, strings and dead code stay silent. */
const EVP_CIPHER *EVP_des_ecb(void); // safe "c.crypto.weak-cipher"
static const char *doc = "call DES_ecb_encrypt() only for NTLM";
/* RC4_set_key(&k, 16, key); */
#if 0
void old(void) { RC4_set_key(0, 0, 0); }
#endif

int cipher_is_des(int id)
{
	return id == GCRY_CIPHER_DES; // safe "c.crypto.weak-cipher"
}

/* An algorithm constant in a name table selects nothing. */
void register_algorithms(void)
{
	register_alg("CALG_RC4", CALG_RC4); // safe "c.crypto.weak-cipher"
	register_alg("CALG_DES", CALG_DES); // safe "c.crypto.weak-cipher"
}

int derive_rc4(HCRYPTPROV prov, HCRYPTHASH hash, HCRYPTKEY *key)
{
	return CryptDeriveKey(prov, CALG_RC4, hash, 0, key); // want "c.crypto.weak-cipher"
}
