#pragma once
#include <stddef.h>
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/evp.h>

/// ECDSA over P-256 with nonces prepared ahead, in batches: the one C code of Latchkey's own
/// (CECDSANonces.c), used only by LatchkeyCrypto's `LibCrypto.P256Signer`.
///
/// It goes through OpenSSL's EC_KEY interface, which OpenSSL 3 deprecates but keeps: it is the
/// only one that signs with a nonce prepared beforehand (ECDSA_do_sign_ex), and it skips the
/// provider dispatch and DER encoding of EVP_DigestSign. The deprecated calls stay in the .c
/// file; this header names only OpenSSL's types.

/// A reference to the key pair of `pkey` (an EC key) as an EC_KEY, or NULL; free it with
/// latchkey_ec_key_free.
EC_KEY *latchkey_ec_key(EVP_PKEY *pkey);

/// Releases a reference from latchkey_ec_key.
void latchkey_ec_key_free(EC_KEY *key);

/// Nonces prepared for `count` signatures with `key` from the scalars `k_bytes` (`count` times
/// 32 bytes, big-endian, each of which the caller draws uniformly from [1, n-1] and clears
/// after): `kinv[i]` = k_i^-1 mod n and `r[i]` = x(k_i G) mod n, as OpenSSL's own
/// ECDSA_sign_setup computes them one at a time. 1 on success, the caller then owning each
/// `kinv[i]` and `r[i]` (BN_clear_free); 0 if a scalar is out of range, an r is 0 (odds
/// 2^-256) or OpenSSL failed, and then every `kinv[i]` and `r[i]` is NULL.
///
/// The caller draws k rather than OpenSSL because ECDSA_sign_setup draws it from OpenSSL's
/// DRBG, and every draw there takes process-wide locks (the RAND method's and the primary
/// DRBG's). This runs on idle-class threads: one preempted inside those locks would leave
/// request threads spinning until the scheduler gave it the processor again. Nothing here
/// locks.
///
/// The batch shares the two inversions: the points are made affine together (one field
/// inversion), and the scalars are inverted together by Montgomery's trick (one inversion
/// of their product, in constant time). Every secret number is cleared before it is freed.
int latchkey_ecdsa_prepare(EC_KEY *key, size_t count, const unsigned char *k_bytes, BIGNUM **kinv, BIGNUM **r);

/// Signs the 32-byte `digest` with `key` into `signature` (r || s, 32 bytes each, big-endian):
/// with the prepared nonce `kinv`, `r` when both are given, else with a fresh one OpenSSL
/// draws. 1 on success; 0 if it failed, which with a prepared nonce may mean that nonce
/// cannot sign this digest (s = 0) and a fresh one must. Does not free the nonce.
int latchkey_ecdsa_sign(EC_KEY *key, const unsigned char *digest, const BIGNUM *kinv, const BIGNUM *r, unsigned char *signature);
