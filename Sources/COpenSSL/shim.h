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
static inline const char *latchkey_param_mac_digest(void) { return OSSL_MAC_PARAM_DIGEST; }
static inline const char *latchkey_param_rsa_coefficient1(void) { return OSSL_PKEY_PARAM_RSA_COEFFICIENT1; }

/// ECDSA over P-256 through the EC_KEY interface, which OpenSSL 3 deprecates but keeps: it is
/// the only one that signs with a nonce prepared beforehand (ECDSA_sign_setup), and it skips
/// the provider dispatch and DER encoding of EVP_DigestSign (about 24 instead of 36 us a
/// signature here). Wrapped so the deprecation stays in this header.
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

#pragma clang diagnostic pop
