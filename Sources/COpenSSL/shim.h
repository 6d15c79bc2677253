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
/// the provider dispatch and DER encoding of EVP_DigestSign (measured: docs/performance.md,
/// "ES256 through EC_KEY"). Wrapped so the deprecation stays in this header, as is the
/// low-level SHA-256 that HMAC-SHA256 below runs on.
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wdeprecated-declarations"

/// A reference to the key pair of `pkey` (an EC key) as an EC_KEY, or NULL.
static inline EC_KEY *latchkey_ec_key(EVP_PKEY *pkey) { return EVP_PKEY_get1_EC_KEY(pkey); }

static inline void latchkey_ec_key_free(EC_KEY *key) { EC_KEY_free(key); }

/// Nonces prepared for `count` signatures with `key` from the scalars `k_bytes` (`count` times
/// 32 bytes, big-endian, each of which the caller draws uniformly from [1, n-1] and clears
/// after): `kinv[i]` = k_i^-1 mod n and `r[i]` = x(k_i G) mod n, as OpenSSL's own
/// ECDSA_sign_setup computes them one at a time. 1 on success; 0 if a scalar is out of range,
/// an r is 0 (odds 2^-256) or OpenSSL failed, and then nothing is returned.
///
/// The caller draws k rather than OpenSSL because ECDSA_sign_setup draws it from OpenSSL's
/// DRBG, and every draw there takes process-wide locks (the RAND method's and the primary
/// DRBG's, glibc rwlocks whose waiters spin through a hand-over). This runs on idle-class
/// threads: one preempted inside those locks would leave request threads spinning until the
/// scheduler gave it the processor again, for seconds under load. Nothing here locks.
///
/// The batch shares the two inversions: the points are made affine together (one field
/// inversion, EC_POINTs_make_affine; a point not left with Z = 1 fails the batch), and the
/// scalars are inverted together by Montgomery's trick: the running products k_0...k_i in
/// Montgomery form, one inversion of the whole product by Fermat's little theorem (k^(n-2)
/// mod n, in constant time, as OpenSSL inverts when a curve has no faster way), then each
/// k_i^-1 as the inverse of the products up to i times the product before i: a nonce prepared
/// so costs less than one from ECDSA_sign_setup (measured: docs/performance.md, "No request thread
/// waits for an idle-class thread"). Every secret number is cleared before it is freed.
static inline int latchkey_ecdsa_prepare(
    EC_KEY *key, size_t count, const unsigned char *k_bytes, BIGNUM **kinv, BIGNUM **r
) {
    const EC_GROUP *group = EC_KEY_get0_group(key);
    const BIGNUM *order = group != NULL ? EC_GROUP_get0_order(group) : NULL;
    BN_MONT_CTX *mont = group != NULL ? EC_GROUP_get_mont_data(group) : NULL;
    if (count == 0 || order == NULL || mont == NULL) return 0;
    for (size_t i = 0; i < count; i++) kinv[i] = r[i] = NULL;
    int ok = 0;
    BN_CTX *ctx = BN_CTX_secure_new();
    BIGNUM **k = OPENSSL_zalloc(count * sizeof(BIGNUM *));
    BIGNUM **prefix = OPENSSL_zalloc(count * sizeof(BIGNUM *));
    EC_POINT **points = OPENSSL_zalloc(count * sizeof(EC_POINT *));
    BIGNUM *x = BN_new(), *z = BN_new(), *exponent = BN_new(), *inverse = BN_secure_new(), *product = BN_secure_new();
    if (ctx == NULL || k == NULL || prefix == NULL || points == NULL || x == NULL || z == NULL || exponent == NULL
        || inverse == NULL || product == NULL)
        goto done;
    BN_set_flags(inverse, BN_FLG_CONSTTIME);
    BN_set_flags(product, BN_FLG_CONSTTIME);
    for (size_t i = 0; i < count; i++) {
        if ((k[i] = BN_secure_new()) == NULL || (prefix[i] = BN_secure_new()) == NULL
            || (points[i] = EC_POINT_new(group)) == NULL || (r[i] = BN_new()) == NULL)
            goto done;
        BN_set_flags(k[i], BN_FLG_CONSTTIME);
        BN_set_flags(prefix[i], BN_FLG_CONSTTIME);
        if (BN_bin2bn(k_bytes + 32 * i, 32, k[i]) == NULL || BN_is_zero(k[i]) || BN_cmp(k[i], order) >= 0
            || !EC_POINT_mul(group, points[i], k[i], NULL, NULL, ctx))
            goto done;
    }
    // Affine (Z = 1) together, so each x is read off as it is: EC_POINT_get_affine_coordinates
    // would invert Z again for every point.
    if (!EC_POINTs_make_affine(group, count, points, ctx)) goto done;
    for (size_t i = 0; i < count; i++) {
        if (!EC_POINT_get_Jprojective_coordinates_GFp(group, points[i], x, NULL, z, ctx) || !BN_is_one(z)
            || !BN_nnmod(r[i], x, order, ctx) || BN_is_zero(r[i]))
            goto done;
    }
    // k_i in Montgomery form (k_i R, in place) and the running products (k_0...k_i) R.
    for (size_t i = 0; i < count; i++) {
        if (!BN_to_montgomery(k[i], k[i], mont, ctx)) goto done;
        if (i == 0 ? BN_copy(prefix[0], k[0]) == NULL : !BN_mod_mul_montgomery(prefix[i], prefix[i - 1], k[i], mont, ctx))
            goto done;
    }
    // inverse = (k_0...k_{count-1})^-1 R.
    if (!BN_from_montgomery(product, prefix[count - 1], mont, ctx) || BN_copy(exponent, order) == NULL
        || !BN_sub_word(exponent, 2) || !BN_mod_exp_mont_consttime(inverse, product, exponent, order, ctx, mont)
        || !BN_to_montgomery(inverse, inverse, mont, ctx))
        goto done;
    for (size_t i = count; i-- > 1;) {
        // (k_0...k_i)^-1 R times (k_0...k_{i-1}) R is k_i^-1 R; times k_i R, (k_0...k_{i-1})^-1 R.
        if ((kinv[i] = BN_secure_new()) == NULL || !BN_mod_mul_montgomery(kinv[i], inverse, prefix[i - 1], mont, ctx)
            || !BN_from_montgomery(kinv[i], kinv[i], mont, ctx)
            || !BN_mod_mul_montgomery(inverse, inverse, k[i], mont, ctx))
            goto done;
    }
    if ((kinv[0] = BN_secure_new()) == NULL || !BN_from_montgomery(kinv[0], inverse, mont, ctx)) goto done;
    ok = 1;
done:
    for (size_t i = 0; i < count; i++) {
        if (k != NULL) BN_clear_free(k[i]);
        if (prefix != NULL) BN_clear_free(prefix[i]);
        if (points != NULL) EC_POINT_clear_free(points[i]);
        if (!ok) {
            BN_clear_free(kinv[i]);
            BN_clear_free(r[i]);
            kinv[i] = r[i] = NULL;
        }
    }
    OPENSSL_free(k);
    OPENSSL_free(prefix);
    OPENSSL_free(points);
    BN_clear_free(x);
    BN_free(z);
    BN_free(exponent);
    BN_clear_free(inverse);
    BN_clear_free(product);
    BN_CTX_free(ctx);
    return ok;
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

/// The 32-byte SHA-256 of `message` into `digest`, on a state on the stack, where EVP_Digest
/// allocates a context and dispatches to the provider on every call (every token a request
/// presents or is issued is hashed here; measured: docs/performance.md, "SHA-256 on a stack
/// state").
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
