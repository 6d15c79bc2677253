#pragma once
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/err.h>
#include <openssl/sha.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/param_build.h>
#include <openssl/rsa.h>
#include <string.h>

/// EVP_PKEY_PUBLIC_KEY and EVP_PKEY_KEYPAIR are nested macros Swift cannot import.
static inline int latchkey_selection_public_key(void) { return EVP_PKEY_PUBLIC_KEY; }
static inline int latchkey_selection_keypair(void) { return EVP_PKEY_KEYPAIR; }

/// OSSL_PARAM_BLD keeps parameter names by pointer until OSSL_PARAM_BLD_to_param, so they
/// must outlive the call that pushes them; Swift's bridged C strings do not. These return
/// the static strings.
static inline const char *latchkey_param_group_name(void) { return OSSL_PKEY_PARAM_GROUP_NAME; }
static inline const char *latchkey_param_public_key(void) { return OSSL_PKEY_PARAM_PUB_KEY; }
static inline const char *latchkey_param_private_key(void) { return OSSL_PKEY_PARAM_PRIV_KEY; }
static inline const char *latchkey_param_rsa_n(void) { return OSSL_PKEY_PARAM_RSA_N; }
static inline const char *latchkey_param_rsa_e(void) { return OSSL_PKEY_PARAM_RSA_E; }
static inline const char *latchkey_param_rsa_d(void) { return OSSL_PKEY_PARAM_RSA_D; }
static inline const char *latchkey_param_rsa_factor1(void) { return OSSL_PKEY_PARAM_RSA_FACTOR1; }
static inline const char *latchkey_param_rsa_factor2(void) { return OSSL_PKEY_PARAM_RSA_FACTOR2; }
static inline const char *latchkey_param_rsa_exponent1(void) { return OSSL_PKEY_PARAM_RSA_EXPONENT1; }
static inline const char *latchkey_param_rsa_exponent2(void) { return OSSL_PKEY_PARAM_RSA_EXPONENT2; }
static inline const char *latchkey_param_rsa_coefficient1(void) { return OSSL_PKEY_PARAM_RSA_COEFFICIENT1; }

/// ECDSA over P-256 through the EC_KEY interface, which OpenSSL 3 deprecates but keeps: it is
/// the only one that signs with a nonce prepared beforehand (ECDSA_sign_setup), and it skips
/// the provider dispatch and DER encoding of EVP_DigestSign (about 24 instead of 36 us a
/// signature here). Wrapped so the deprecation stays in this header, as is the low-level
/// SHA-256 that HMAC-SHA256 below runs on.
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wdeprecated-declarations"

/// A reference to the key pair of `pkey` (an EC key) as an EC_KEY, or NULL.
static inline EC_KEY *latchkey_ec_key(EVP_PKEY *pkey) { return EVP_PKEY_get1_EC_KEY(pkey); }

static inline void latchkey_ec_key_free(EC_KEY *key) { EC_KEY_free(key); }

/// A nonce prepared for one signature with `key`: `*kinv` = k^-1 mod n and `*r` = x(kG) mod n
/// for a fresh random k. 1 on success. Each pair may sign once: two signatures with one k
/// reveal the private key.
static inline int latchkey_ecdsa_prepare(EC_KEY *key, BIGNUM **kinv, BIGNUM **r) {
    *kinv = NULL;
    *r = NULL;
    return ECDSA_sign_setup(key, NULL, kinv, r);
}

/// Signs the 32-byte `digest` with `key` into `signature` (r || s, 32 bytes each, big-endian):
/// with the prepared nonce `kinv`, `r` when both are given, else with a fresh one. 1 on
/// success; 0 if it failed, which with a prepared nonce may mean that nonce cannot sign this
/// digest (s = 0) and a fresh one must.
static inline int latchkey_ecdsa_sign(
    EC_KEY *key, const unsigned char *digest, const BIGNUM *kinv, const BIGNUM *r, unsigned char *signature
) {
    ECDSA_SIG *sig = ECDSA_do_sign_ex(digest, 32, kinv, r, key);
    if (sig == NULL) return 0;
    const BIGNUM *sig_r = NULL, *sig_s = NULL;
    ECDSA_SIG_get0(sig, &sig_r, &sig_s);
    int ok = BN_bn2binpad(sig_r, signature, 32) == 32 && BN_bn2binpad(sig_s, signature + 32, 32) == 32;
    ECDSA_SIG_free(sig);
    return ok;
}

/// The 32-byte SHA-256 of `message` into `digest`, on a state on the stack: about 65 ns for a
/// token where EVP_Digest, with its context allocated and its provider dispatch, took about
/// 170 ns (every token a request presents or is issued is hashed here).
static inline void latchkey_sha256(const unsigned char *message, size_t length, unsigned char *digest) {
    SHA256_CTX context;
    SHA256_Init(&context);
    SHA256_Update(&context, message, length);
    SHA256_Final(digest, &context);
    OPENSSL_cleanse(&context, sizeof context);
}

/// An HMAC-SHA256 key prepared once (RFC 2104): the SHA-256 states after the key's inner
/// and outer padded blocks. A code then costs two SHA-256 runs over the message and a digest
/// and no allocation, where EVP_MAC_CTX_dup allocates and copies a provider context for
/// every code (SHA256_CTX is deprecated with the rest of the low-level digest interface).
typedef struct {
    SHA256_CTX inner;
    SHA256_CTX outer;
} latchkey_hmac_sha256_key;

/// Prepares `key` (`length` bytes, any length: a key longer than a block is hashed first).
static inline void latchkey_hmac_sha256_prepare(latchkey_hmac_sha256_key *prepared, const unsigned char *key, size_t length) {
    unsigned char block[64] = {0};
    if (length > sizeof block) {
        SHA256(key, length, block);
    } else if (length > 0) {
        memcpy(block, key, length);
    }
    for (size_t i = 0; i < sizeof block; i++) block[i] ^= 0x36;
    SHA256_Init(&prepared->inner);
    SHA256_Update(&prepared->inner, block, sizeof block);
    for (size_t i = 0; i < sizeof block; i++) block[i] ^= 0x36 ^ 0x5c;
    SHA256_Init(&prepared->outer);
    SHA256_Update(&prepared->outer, block, sizeof block);
    OPENSSL_cleanse(block, sizeof block);
}

/// The 32-byte HMAC-SHA256 of `message` under `prepared` into `code`; `prepared` is only read.
static inline void latchkey_hmac_sha256(
    const latchkey_hmac_sha256_key *prepared, const unsigned char *message, size_t length, unsigned char *code
) {
    SHA256_CTX context = prepared->inner;
    unsigned char inner[32];
    SHA256_Update(&context, message, length);
    SHA256_Final(inner, &context);
    context = prepared->outer;
    SHA256_Update(&context, inner, sizeof inner);
    SHA256_Final(code, &context);
    OPENSSL_cleanse(&context, sizeof context);
    OPENSSL_cleanse(inner, sizeof inner);
}

#pragma clang diagnostic pop
