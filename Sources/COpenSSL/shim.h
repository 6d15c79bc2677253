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
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

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

/// The low-level SHA-256 interface, which OpenSSL 3 deprecates but keeps, is wrapped here so
/// the deprecation stays in this header.
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wdeprecated-declarations"

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

/* TLS client calls for LibTLS. SSL_CTX_set_min_proto_version and SSL_set_tlsext_host_name are
   macros over SSL_CTX_ctrl and SSL_ctrl, which Swift cannot import. */
static inline int latchkey_ssl_ctx_min_tls12(SSL_CTX *context) {
    return (int)SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
}

static inline int latchkey_ssl_set_server_name(SSL *ssl, const char *name) {
    return (int)SSL_set_tlsext_host_name(ssl, name);
}

/* SSL_connect, SSL_write or SSL_read by `operation` (0, 1, 2), so Swift has one call to wrap
   (LibTLS blocks SIGPIPE around it). */
static inline int latchkey_ssl_call(SSL *ssl, int operation, void *buffer, int length) {
    switch (operation) {
    case 0: return SSL_connect(ssl);
    case 1: return SSL_write(ssl, buffer, length);
    default: return SSL_read(ssl, buffer, length);
    }
}
