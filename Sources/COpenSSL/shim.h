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
