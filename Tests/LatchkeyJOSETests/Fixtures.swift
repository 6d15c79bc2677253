import LatchkeyCrypto
import LatchkeyJOSE

/// Keys and tokens from the RFCs named, plus one RS256 token made with Python's
/// `cryptography` package (an independent implementation).
enum Fixtures {
    /// RFC 7515 Appendix A.3: the P-256 key.
    static let rfc7515ES256Key = JWK(
        kty: "EC", crv: "P-256", x: "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU",
        y: "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0",
        d: Redacted("jpsQnnGQmL-YBIffH1136cspYG6-0iY7X1fCE9-E9LI"))
    /// RFC 7515 Appendix A.3: the token, exactly as printed (its parts contain CR LF).
    static let rfc7515ES256Token =
        "eyJhbGciOiJFUzI1NiJ9.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ.DtEhU3ljbEg8L38VWAfUAqOyKAM6-Xx-F4GawxaepmXFCgfTjDxw5djxLa8ISlSApmWQxfKTUJqPP3-Kg6NU1Q"

    /// RFC 7515 Appendix A.2.1: the RSA key, with every private member (RFC 7518 §6.3.2).
    static let rfc7515RS256Key = JWK(
        kty: "RSA",
        n: "ofgWCuLjybRlzo0tZWJjNiuSfb4p4fAkd_wWJcyQoTbji9k0l8W26mPddxHmfHQp-Vaw-4qPCJrcS2mJPMEzP1Pt0Bm4d4QlL-yRT-SFd2lZS-pCgNMsD1W_YpRPEwOWvG6b32690r2jZ47soMZo9wGzjb_7OMg0LOL-bSf63kpaSHSXndS5z5rexMdbBYUsLA9e-KXBdQOS-UTo7WTBEMa2R2CapHg665xsmtdVMTBQY4uDZlxvb3qCo5ZwKh9kG4LT6_I5IhlJH7aGhyxXFvUK-DWNmoudF8NAco9_h9iaGNj8q2ethFkMLs91kzk2PAcDTW9gb54h4FRWyuXpoQ",
        e: "AQAB",
        d: Redacted("Eq5xpGnNCivDflJsRQBXHx1hdR1k6Ulwe2JZD50LpXyWPEAeP88vLNO97IjlA7_GQ5sLKMgvfTeXZx9SE-7YwVol2NXOoAJe46sui395IW_GO-pWJ1O0BkTGoVEn2bKVRUCgu-GjBVaYLU6f3l9kJfFNS3E0QbVdxzubSu3Mkqzjkn439X0M_V51gfpRLI9JYanrC4D4qAdGcopV_0ZHHzQlBjudU2QvXt4ehNYTCBr6XCLQUShb1juUO1ZdiYoFaFQT5Tw8bGUl_x_jTj3ccPDVZFD9pIuhLhBOneufuBiB4cS98l2SR_RQyGWSeWjnczT0QU91p1DhOVRuOopznQ"),
        p: Redacted("4BzEEOtIpmVdVEZNCqS7baC4crd0pqnRH_5IB3jw3bcxGn6QLvnEtfdUdiYrqBdss1l58BQ3KhooKeQTa9AB0Hw_Py5PJdTJNPY8cQn7ouZ2KKDcmnPGBY5t7yLc1QlQ5xHdwW1VhvKn-nXqhJTBgIPgtldC-KDV5z-y2XDwGUc"),
        q: Redacted("uQPEfgmVtjL0Uyyx88GZFF1fOunH3-7cepKmtH4pxhtCoHqpWmT8YAmZxaewHgHAjLYsp1ZSe7zFYHj7C6ul7TjeLQeZD_YwD66t62wDmpe_HlB-TnBA-njbglfIsRLtXlnDzQkv5dTltRJ11BKBBypeeF6689rjcJIDEz9RWdc"),
        dp: Redacted("BwKfV3Akq5_MFZDFZCnW-wzl-CCo83WoZvnLQwCTeDv8uzluRSnm71I3QCLdhrqE2e9YkxvuxdBfpT_PI7Yz-FOKnu1R6HsJeDCjn12Sk3vmAktV2zb34MCdy7cpdTh_YVr7tss2u6vneTwrA86rZtu5Mbr1C1XsmvkxHQAdYo0"),
        dq: Redacted("h_96-mK1R_7glhsum81dZxjTnYynPbZpHziZjeeHcXYsXaaMwkOlODsWa7I9xXDoRwbKgB719rrmI2oKr6N3Do9U0ajaHF-NKJnwgjMd2w9cjz3_-kyNlxAr2v4IKhGNpmM5iIgOS1VZnOZ68m6_pbLBSp3nssTdlqvd0tIiTHU"),
        qi: Redacted("IYd7DHOhrWvxkwPQsRM2tOgrjbcrfvtQJipd-DlcxyVuuM9sQLdgjVk2oy26F0EmpScGLq2MowX7fhd_QJQ3ydy5cY7YIBi87w93IKLEdfnbJtoOPLUW0ITrJReOgo1cq9SbsxYawBgfp_gh6A5603k2-ZQwVK0JKSHuLFkuQ3U"))
    /// RFC 7515 Appendix A.2: the token, exactly as printed (its payload contains CR LF).
    static let rfc7515RS256Token =
        "eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ.cC4hiUPoj9Eetdgtv3hF80EGrhuB__dzERat0XF9g2VtQgr9PJbu3XOiZj5RZmh7AAuHIm4Bh-0Qc_lF5YKt_O8W2Fp5jujGbds9uJdbF9CUAr7t1dnZcAcQjbKBYNX4BAynRFdiuB--f_nZLgrnbyTyWzO75vRK5h6xBArLIARNPvkSjtQBMHlb1L07Qe7K0GarZRmB_eSN9383LcOLn6_dO--xi12jzDwusC-eOkHWEsqtFZESc6BfI7noOPqvhJ1phCnvWh6IeYI2w9QOYEUipUTI8np6LbgGY9Fs98rqVt5AXLIhWkWywlVmtVrBp0igcN_IoypGlUPQGe77Rw"

    /// RFC 8037 Appendix A.1/A.2: the Ed25519 key.
    static let rfc8037Ed25519Key = JWK(
        kty: "OKP", crv: "Ed25519", x: "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo",
        d: Redacted("nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A"))
    /// RFC 8037 Appendix A.4: the signed token.
    static let rfc8037EdDSAToken =
        "eyJhbGciOiJFZERTQSJ9.RXhhbXBsZSBvZiBFZDI1NTE5IHNpZ25pbmc.hgyY0il_MGCjP0JzlnLWG1PPOt7-09PGcvMg3AIbQR6dWbhijcNR4ki4iylGjg5BhVsPt9g7sVvpAr_MuM0KAg"

    /// RFC 7638 §3.1: the RSA key (its `n` checked against the RFC's thumbprint).
    static let rfc7638RSAKey = JWK(
        kty: "RSA",
        n: "0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw",
        e: "AQAB", kid: "2011-04-29", alg: "RS256")

    /// A 2048-bit RSA key generated with Python `cryptography`.
    static let rsaFixtureKey = JWK(
        kty: "RSA",
        n: "rgCOT-mrhGILo6jKpj27LzDzSYrxO7ntDp5UMJDwYhoVmWhQBEFtPmZhaVA_rr1uZm9Tcaj7A9ga2XrWr4neIk0hqgAVZJPvPiuD3DxyY4gJBvnSG--NJCXAiJOiNz3i8ZpZEiGJzueDOw40dUDQ_wVaJdV_FPDvEdS760vNTTYcGI-UfSyAOCno7jb_lB9pb7s9OPI0jekENHxCVTv0kcmA2qbKydMRvoP1ZDHNLrv8F62eBHbj_JqDq7dv50FO34w3OF1EqyayCko89eOdmVBiUYyPaxidfn7EahMAq51SAU1B7UdT6bzeHCq0-VLhWOw0vdq8k_5tKddXGN6t-w",
        e: "AQAB", kid: "rsa-fixture")
    /// An RS256 token signed by that key with Python `cryptography` (PKCS#1 v1.5, SHA-256).
    static let rsaFixtureToken =
        "eyJhbGciOiJSUzI1NiIsImtpZCI6InJzYS1maXh0dXJlIn0.eyJpc3MiOiJodHRwczovL2lkcC5leGFtcGxlIiwic3ViIjoiNDIifQ.j_aV62roDTJYG6hIK-wfdx13QvGCMfZH9Ixfz2lavTDWQI80YvX9WW5D7XcTRhaNCUPl-SxTXEXq4R2sBFYOsu-sL_MFImG7PSt6ES7R_mDi1ATLSNRwO0heM8Z_H0EsvfVW1cR09jpWqy4DQyXVyCys_LwUV1jkveaJ1CUeNhNJwYFHhLBHqAFXa3MAHu-vduLSgRluozGOaY94yozu5bQeak9PcIeMLWWTRsPY3IHCnW05oi49QI_GaVzoek9RrN5tz72GOlco8hX1-7ApglQur6942woMeay38wUzJT0KbSZ60PNG_d49dOPcxYJMOS-GfPheyNeHG2B9uT-5pA"
}

/// Runs `body` and returns the code of the ``JOSEError`` it throws, or nil.
func joseErrorCode(_ body: () throws -> Void) -> JOSEError.Code? {
    do {
        try body()
        return nil
    } catch let error as JOSEError {
        return error.code
    } catch {
        return nil
    }
}
