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
