#include "CECDSANonces.h"
#include <openssl/crypto.h>

// The EC_KEY interface is deprecated in OpenSSL 3 (see the header): its warnings end here.
#pragma clang diagnostic ignored "-Wdeprecated-declarations"

EC_KEY *latchkey_ec_key(EVP_PKEY *pkey) { return EVP_PKEY_get1_EC_KEY(pkey); }

void latchkey_ec_key_free(EC_KEY *key) { EC_KEY_free(key); }

// kinv_i and r_i as ECDSA_sign_setup makes them, for the whole batch at once. The points are
// made affine together (EC_POINTs_make_affine: one field inversion; a point not left with
// Z = 1 fails the batch), and the scalars are inverted together by Montgomery's trick: the
// running products k_0...k_i in Montgomery form, one inversion of the whole product by
// Fermat's little theorem (k^(n-2) mod n, in constant time, as OpenSSL inverts when a curve
// has no faster way), then each k_i^-1 as the inverse of the products up to i times the
// product before i.
int latchkey_ecdsa_prepare(EC_KEY *key, size_t count, const unsigned char *k_bytes, BIGNUM **kinv, BIGNUM **r) {
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

int latchkey_ecdsa_sign(EC_KEY *key, const unsigned char *digest, const BIGNUM *kinv, const BIGNUM *r, unsigned char *signature) {
    ECDSA_SIG *sig = ECDSA_do_sign_ex(digest, 32, kinv, r, key);
    if (sig == NULL) return 0;
    const BIGNUM *sig_r = NULL, *sig_s = NULL;
    ECDSA_SIG_get0(sig, &sig_r, &sig_s);
    int ok = BN_bn2binpad(sig_r, signature, 32) == 32 && BN_bn2binpad(sig_s, signature + 32, 32) == 32;
    ECDSA_SIG_free(sig);
    return ok;
}
