import LatchkeyCore
import LatchkeyHTTP
/// The OpenAPI 3.1 description of every route, served at `/openapi.json`. A test checks it
/// against the router's table, so the two cannot drift apart.
enum OpenAPIDocument {
    static let json = #"""
    {
      "openapi": "3.1.0",
      "info": {
        "title": "Latchkey",
        "version": "0.1.0",
        "description": "Account recovery and sign-in for Swift apps: password reset by email with universal links, an OAuth 2.0 authorization server for native apps (code + PKCE S256, JWT access tokens, rotating refresh tokens) and Directus-compatible login."
      },
      "components": {
        "schemas": {
          "Error": {
            "type": "object",
            "required": ["error"],
            "properties": {
              "error": {
                "type": "object",
                "required": ["code", "message"],
                "properties": {
                  "code": {"type": "string", "examples": ["invalid_token"]},
                  "message": {"type": "string"},
                  "reasons": {"type": "array", "items": {"type": "string", "enum": ["too_short", "too_long", "too_weak", "contains_email"]}}
                }
              }
            }
          },
          "DirectusError": {
            "type": "object",
            "required": ["errors"],
            "properties": {"errors": {"$ref": "#/components/schemas/DirectusErrorList"}}
          },
          "DirectusErrorList": {
            "type": "array", "minItems": 1, "maxItems": 1,
            "items": {
              "type": "object", "required": ["message", "extensions"],
              "properties": {
                "message": {"type": "string"},
                "extensions": {"type": "object", "required": ["code"], "properties": {
                  "code": {"type": "string", "enum": ["INVALID_CREDENTIALS", "INVALID_TOKEN", "INVALID_PAYLOAD", "FAILED_VALIDATION", "FORBIDDEN", "REQUESTS_EXCEEDED", "SERVICE_UNAVAILABLE", "INTERNAL_SERVER_ERROR"]},
                  "field": {"type": "string", "enum": ["email", "password"], "description": "With FAILED_VALIDATION: the field that was refused."}
                }}
              }
            }
          },
          "ResetError": {
            "type": "object",
            "description": "The reset routes' errors: Latchkey's error object and Directus's errors array in one body, so Latchkey's SDK and Directus SDKs both read them. The status is Latchkey's (400 for invalid_token, not Directus's 401/403).",
            "required": ["error", "errors"],
            "properties": {
              "error": {"$ref": "#/components/schemas/Error/properties/error"},
              "errors": {"$ref": "#/components/schemas/DirectusErrorList"}
            }
          },
          "OAuthError": {
            "type": "object",
            "required": ["error"],
            "properties": {
              "error": {"type": "string", "enum": ["invalid_request", "invalid_client", "invalid_grant", "unauthorized_client", "unsupported_grant_type", "invalid_scope", "server_error"]},
              "error_description": {"type": "string"}
            }
          },
          "OAuthTokens": {
            "type": "object",
            "required": ["access_token", "token_type", "expires_in", "refresh_token", "scope"],
            "properties": {
              "access_token": {"type": "string", "description": "ES256 JWT (typ at+jwt, RFC 9068) with iss, aud, sub, client_id, scope, jti, iat, exp, cv (credential version) and sid (login id)."},
              "token_type": {"type": "string", "enum": ["Bearer"]},
              "expires_in": {"type": "integer", "description": "Access token lifetime in seconds."},
              "refresh_token": {"type": "string", "description": "Opaque; single use, rotated on every refresh; reuse revokes the login."},
              "scope": {"type": "string"},
              "id_token": {"type": "string", "description": "OpenID Connect ID token, signed with the client's registered algorithm (RS256 unless ES256 or EdDSA was chosen), at code exchange when the scope has openid."}
            }
          },
          "TokenRequest": {
            "type": "object",
            "description": "Client authentication: client_secret_basic (Authorization header) or client_secret_post for confidential clients; client_id alone for package clients. A repeated parameter is invalid_request.",
            "required": ["grant_type"],
            "properties": {
              "grant_type": {"type": "string", "enum": ["authorization_code", "refresh_token"]},
              "code": {"type": "string"}, "redirect_uri": {"type": "string"}, "code_verifier": {"type": "string", "minLength": 43, "maxLength": 128},
              "refresh_token": {"type": "string"}, "scope": {"type": "string"},
              "client_id": {"type": "string"}, "client_secret": {"type": "string"}
            }
          },
          "TokenParameter": {
            "type": "object", "required": ["token"],
            "properties": {"token": {"type": "string"}, "token_type_hint": {"type": "string", "enum": ["access_token", "refresh_token"]}, "client_id": {"type": "string"}, "client_secret": {"type": "string"}}
          },
          "DirectusTokens": {
            "type": "object",
            "required": ["data"],
            "properties": {"data": {"type": "object", "required": ["expires"], "properties": {
              "access_token": {"type": "string", "description": "ES256 JWT (typ at+jwt). Left out in session mode (it is in the directus_session_token cookie)."},
              "refresh_token": {"type": "string", "description": "Opaque; single use, rotated on every refresh. Only in json mode (else in the directus_refresh_token cookie)."},
              "expires": {"type": "integer", "description": "Access token lifetime in milliseconds."}
            }}}
          },
          "DirectusMode": {
            "type": ["string", "null"], "enum": ["json", "cookie", "session", null],
            "description": "json (also null or absent): tokens in the body. cookie: the refresh token in the directus_refresh_token cookie (HttpOnly, SameSite=Strict, Path=/auth, Secure over https). session: the access token in the directus_session_token cookie too (HttpOnly, SameSite=Lax, Path=/). Requests in cookie or session mode must come from the server's own origin (Origin, else Sec-Fetch-Site), else 403 FORBIDDEN."
          },
          "DirectusTokenRequest": {
            "type": "object",
            "description": "May be empty or absent (no body): the refresh token then comes from the directus_refresh_token cookie. Without mode: json when refresh_token is given, else cookie.",
            "properties": {"refresh_token": {"type": "string"}, "mode": {"$ref": "#/components/schemas/DirectusMode"}}
          }
        },
        "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer", "bearerFormat": "JWT"}},
        "responses": {
          "BadRequest": {"description": "Malformed input; see error.code (errors[0].extensions.code for Directus clients).", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ResetError"}}}},
          "TooLarge": {"description": "The body exceeds the size limit.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ResetError"}}}},
          "UnsupportedMediaType": {"description": "The body is not application/json.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ResetError"}}}},
          "RateLimited": {
            "description": "Too many requests from this client (REQUESTS_EXCEEDED for Directus clients).",
            "headers": {"Retry-After": {"schema": {"type": "integer"}, "description": "Seconds to wait."}},
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ResetError"}}}
          },
          "RateLimiterUnavailable": {
            "description": "The shared rate limiter (Redis) is unreachable and the server fails closed.",
            "headers": {"Retry-After": {"schema": {"type": "integer"}, "description": "Seconds to wait."}},
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ResetError"}}}
          }
        }
      },
      "paths": {
        "/auth/password/request": {
          "post": {
            "operationId": "password_request",
            "summary": "Send a password reset link to an address, if it has an account.",
            "description": "Every well-formed request gets the same 200 body whether or not the account exists.",
            "requestBody": {
              "required": true,
              "content": {"application/json": {"schema": {
                "type": "object", "required": ["email"],
                "properties": {
                  "email": {"type": "string", "format": "email", "maxLength": 254},
                  "reset_url": {"type": ["string", "null"], "description": "A link base from LATCHKEY_RESET_URL_ALLOW_LIST; null or absent: the server's reset page."},
                  "locale": {"type": ["string", "null"], "enum": ["en", "pt", "es", "ar", null], "description": "The mail's language; null or absent: the account's, else Accept-Language."}
                }
              }}}
            },
            "responses": {
              "200": {"description": "Accepted (always the same body).", "content": {"application/json": {"schema": {"type": "object", "properties": {"message": {"type": "string"}}}}}},
              "400": {"$ref": "#/components/responses/BadRequest"},
              "413": {"$ref": "#/components/responses/TooLarge"},
              "415": {"$ref": "#/components/responses/UnsupportedMediaType"},
              "429": {"$ref": "#/components/responses/RateLimited"},
              "503": {"$ref": "#/components/responses/RateLimiterUnavailable"}
            }
          }
        },
        "/auth/password/validate": {
          "post": {
            "operationId": "password_validate",
            "summary": "Check a reset token without using it.",
            "requestBody": {"required": true, "content": {"application/json": {"schema": {
              "type": "object", "required": ["token"], "properties": {"token": {"type": "string"}}
            }}}},
            "responses": {
              "200": {"description": "The token can be used.", "content": {"application/json": {"schema": {
                "type": "object", "required": ["valid", "email_hint", "expires_at"],
                "properties": {"valid": {"type": "boolean"}, "email_hint": {"type": "string"}, "expires_at": {"type": "string", "format": "date-time"}}
              }}}},
              "400": {"$ref": "#/components/responses/BadRequest"},
              "413": {"$ref": "#/components/responses/TooLarge"},
              "415": {"$ref": "#/components/responses/UnsupportedMediaType"},
              "429": {"$ref": "#/components/responses/RateLimited"},
              "503": {"$ref": "#/components/responses/RateLimiterUnavailable"}
            }
          }
        },
        "/auth/password/reset": {
          "post": {
            "operationId": "password_reset",
            "summary": "Set a new password with a reset token (single use).",
            "requestBody": {"required": true, "content": {"application/json": {"schema": {
              "type": "object", "required": ["token", "password"],
              "properties": {"token": {"type": "string"}, "password": {"type": "string", "minLength": 8, "maxLength": 128},
                             "locale": {"type": "string", "enum": ["en", "pt", "es", "ar"], "description": "The language of the password-changed mail; else the account's, else Accept-Language."}}
            }}}},
            "responses": {
              "200": {"description": "The password was changed; every session of the account was ended.", "content": {"application/json": {"schema": {"type": "object", "properties": {"message": {"type": "string"}}}}}},
              "400": {"$ref": "#/components/responses/BadRequest"},
              "413": {"$ref": "#/components/responses/TooLarge"},
              "415": {"$ref": "#/components/responses/UnsupportedMediaType"},
              "429": {"$ref": "#/components/responses/RateLimited"},
              "503": {"$ref": "#/components/responses/RateLimiterUnavailable"}
            }
          }
        },
        "/auth/login": {
          "post": {
            "operationId": "directus_login",
            "summary": "Sign in with email and password (Directus-compatible: json, cookie or session mode).",
            "requestBody": {"required": true, "content": {"application/json": {"schema": {
              "type": "object", "required": ["email", "password"],
              "properties": {"email": {"type": "string"}, "password": {"type": "string"}, "mode": {"$ref": "#/components/schemas/DirectusMode"}}
            }}}},
            "responses": {
              "200": {
                "description": "Signed in; in cookie and session mode the tokens left out of the body are set as cookies.",
                "headers": {"Set-Cookie": {"schema": {"type": "string"}, "description": "directus_refresh_token (cookie, session) and directus_session_token (session)."}},
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/DirectusTokens"}}}
              },
              "400": {"description": "Malformed input.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/DirectusError"}}}},
              "401": {"description": "INVALID_CREDENTIALS, the same for every cause.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/DirectusError"}}}},
              "403": {"description": "FORBIDDEN: cookie or session mode from another origin.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/DirectusError"}}}},
              "429": {"description": "Too many failed logins from this client or for this account.", "headers": {"Retry-After": {"schema": {"type": "integer"}}}, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/DirectusError"}}}},
              "503": {"description": "SERVICE_UNAVAILABLE: the shared rate limiter (Redis) is unreachable and the server fails closed.", "headers": {"Retry-After": {"schema": {"type": "integer"}}}, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/DirectusError"}}}}
            }
          }
        },
        "/auth/refresh": {
          "post": {
            "operationId": "directus_refresh",
            "summary": "Exchange a refresh token (body or cookie) for a new pair; a reused refresh token ends the whole login.",
            "requestBody": {"required": false, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/DirectusTokenRequest"}}}},
            "responses": {
              "200": {
                "description": "A new access and refresh token, placed as the mode says.",
                "headers": {"Set-Cookie": {"schema": {"type": "string"}, "description": "The new directus_refresh_token (cookie, session) and directus_session_token (session)."}},
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/DirectusTokens"}}}
              },
              "400": {"description": "Malformed input, or no refresh token in the body or the cookie (INVALID_PAYLOAD).", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/DirectusError"}}}},
              "401": {"description": "INVALID_TOKEN.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/DirectusError"}}}},
              "403": {"description": "FORBIDDEN: cookie or session mode from another origin.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/DirectusError"}}}}
            }
          }
        },
        "/auth/logout": {
          "post": {
            "operationId": "directus_logout",
            "summary": "End the login a refresh token (body or cookie; in session mode also the session cookie) belongs to.",
            "requestBody": {"required": false, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/DirectusTokenRequest"}}}},
            "responses": {
              "204": {"description": "Signed out (also for an unknown token); in cookie and session mode the cookies are cleared."},
              "400": {"description": "Malformed input, or no token in the body or the cookies.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/DirectusError"}}}},
              "403": {"description": "FORBIDDEN: cookie or session mode from another origin.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/DirectusError"}}}}
            }
          }
        },
        "/oauth/authorize": {
          "get": {
            "operationId": "oauth_authorize",
            "summary": "Start the authorization code flow (RFC 6749 §4.1, PKCE S256 required, RFC 9207 iss).",
            "description": "Shows the sign-in page (or the consent page for clients that are not first-party), or redirects (303) to the redirect URI with code, state and iss. An unknown client or unregistered redirect URI gets an HTML error page, never a redirect.",
            "parameters": [
              {"name": "response_type", "in": "query", "required": true, "schema": {"type": "string", "enum": ["code"]}},
              {"name": "client_id", "in": "query", "required": true, "schema": {"type": "string", "minLength": 1}},
              {"name": "redirect_uri", "in": "query", "required": true, "schema": {"type": "string", "minLength": 1}},
              {"name": "code_challenge", "in": "query", "required": true, "schema": {"type": "string", "minLength": 43, "maxLength": 43}},
              {"name": "code_challenge_method", "in": "query", "required": true, "schema": {"type": "string", "enum": ["S256"]}},
              {"name": "state", "in": "query", "required": false, "schema": {"type": "string"}},
              {"name": "scope", "in": "query", "required": false, "schema": {"type": "string"}},
              {"name": "nonce", "in": "query", "required": false, "schema": {"type": "string"}},
              {"name": "prompt", "in": "query", "required": false, "schema": {"type": "string", "enum": ["none", "login", "consent"]}},
              {"name": "login_hint", "in": "query", "required": false, "schema": {"type": "string"}},
              {"name": "ui_locales", "in": "query", "required": false, "schema": {"type": "string"}}
            ],
            "responses": {
              "200": {"description": "Sign-in or consent page.", "content": {"text/html": {}}},
              "303": {"description": "Back to the client with code (or error), state and iss."},
              "400": {"description": "Error page: unknown client, unregistered redirect URI or malformed request.", "content": {"text/html": {}}}
            }
          },
          "post": {
            "operationId": "oauth_authorize_form",
            "summary": "Submit the sign-in or consent form (needs the csrf_token bound to the latchkey_csrf cookie).",
            "requestBody": {"required": true, "content": {"application/x-www-form-urlencoded": {"schema": {
              "type": "object", "required": ["csrf_token", "step"],
              "properties": {"csrf_token": {"type": "string"}, "step": {"type": "string", "enum": ["sign_in", "consent"]}, "email": {"type": "string"}, "password": {"type": "string"}, "decision": {"type": "string", "enum": ["allow", "deny"]}}
            }}}},
            "responses": {
              "200": {"description": "Consent page.", "content": {"text/html": {}}},
              "303": {"description": "Back to the client with code (or access_denied), state and iss."},
              "400": {"description": "Error page: the body is not form-encoded, or a parameter is malformed or repeated.", "content": {"text/html": {}}},
              "401": {"description": "Sign-in page again: wrong credentials (one message for every cause).", "content": {"text/html": {}}},
              "403": {"description": "The form token is missing or does not match the browser.", "content": {"text/html": {}}},
              "429": {"description": "Too many failed sign-ins.", "headers": {"Retry-After": {"schema": {"type": "integer"}}}, "content": {"text/html": {}}}
            }
          }
        },
        "/oauth/token": {
          "post": {
            "operationId": "oauth_token",
            "summary": "Exchange an authorization code or a refresh token (RFC 6749 §4.1.3, §6).",
            "requestBody": {"required": true, "content": {"application/x-www-form-urlencoded": {"schema": {"$ref": "#/components/schemas/TokenRequest"}}}},
            "responses": {
              "200": {"description": "Tokens (Cache-Control: no-store).", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/OAuthTokens"}}}},
              "400": {"description": "OAuth error.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/OAuthError"}}}},
              "401": {"description": "invalid_client.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/OAuthError"}}}}
            }
          }
        },
        "/oauth/revoke": {
          "post": {
            "operationId": "oauth_revoke",
            "summary": "Revoke a refresh or access token and its whole login (RFC 7009).",
            "requestBody": {"required": true, "content": {"application/x-www-form-urlencoded": {"schema": {"$ref": "#/components/schemas/TokenParameter"}}}},
            "responses": {
              "200": {"description": "Revoked, or the token was unknown."},
              "400": {"description": "OAuth error.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/OAuthError"}}}},
              "401": {"description": "invalid_client.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/OAuthError"}}}}
            }
          }
        },
        "/oauth/introspect": {
          "post": {
            "operationId": "oauth_introspect",
            "summary": "Whether a token is valid now (RFC 7662); confidential clients only.",
            "requestBody": {"required": true, "content": {"application/x-www-form-urlencoded": {"schema": {"$ref": "#/components/schemas/TokenParameter"}}}},
            "responses": {
              "200": {"description": "{\"active\": false} for any token not valid now; else active, token_type, sub, scope, client_id, iss, exp, iat (and aud, jti for access tokens).", "content": {"application/json": {}}},
              "400": {"description": "OAuth error: the body is not form-encoded, or a parameter is missing, malformed or repeated.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/OAuthError"}}}},
              "401": {"description": "invalid_client.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/OAuthError"}}}},
              "403": {"description": "unauthorized_client: the client was not registered with --introspect.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/OAuthError"}}}}
            }
          }
        },
        "/userinfo": {
          "get": {
            "operationId": "userinfo",
            "summary": "The signed-in account (OpenID Connect): sub, and email with the email scope.",
            "security": [{"bearer": []}],
            "responses": {
              "200": {"description": "Claims.", "content": {"application/json": {}}},
              "401": {"description": "invalid_token: WWW-Authenticate: Bearer error=... and a JSON body {error, error_description}; without any token a bare WWW-Authenticate: Bearer and no body (RFC 6750 3.1)."},
              "403": {"description": "insufficient_scope: the token lacks openid.", "content": {"application/json": {}}}
            }
          },
          "post": {
            "operationId": "userinfo_post",
            "summary": "The same as GET (OpenID Connect Core 5.3.1); the access token in the Authorization header or as access_token in a form body (RFC 6750 2.2), never both, never in the query string.",
            "security": [{"bearer": []}],
            "requestBody": {"required": false, "content": {"application/x-www-form-urlencoded": {"schema": {
              "type": "object", "properties": {"access_token": {"type": "string"}}
            }}}},
            "responses": {
              "200": {"description": "Claims.", "content": {"application/json": {}}},
              "400": {"description": "invalid_request: the token in both places, or a malformed body (WWW-Authenticate: Bearer).", "content": {"application/json": {}}},
              "401": {"description": "invalid_token: WWW-Authenticate: Bearer error=... and a JSON body {error, error_description}; without any token a bare WWW-Authenticate: Bearer and no body (RFC 6750 3.1)."},
              "403": {"description": "insufficient_scope: the token lacks openid.", "content": {"application/json": {}}},
              "413": {"description": "invalid_request: the body is larger than LATCHKEY_MAX_BODY_BYTES (no WWW-Authenticate).", "content": {"application/json": {}}}
            }
          }
        },
        "/.well-known/oauth-authorization-server": {
          "get": {"operationId": "oauth_metadata", "summary": "Authorization server metadata (RFC 8414).", "responses": {"200": {"description": "Metadata.", "content": {"application/json": {}}}}}
        },
        "/.well-known/openid-configuration": {
          "get": {"operationId": "openid_configuration", "summary": "The same metadata for OpenID Connect clients.", "responses": {"200": {"description": "Metadata.", "content": {"application/json": {}}}}}
        },
        "/reset-password": {
          "get": {
            "operationId": "reset_page",
            "summary": "The web page for setting a new password (token in the URL fragment).",
            "parameters": [{"name": "lang", "in": "query", "required": false, "description": "en, pt, es or ar; any other value is ignored (the page follows Accept-Language).", "schema": {"type": "string"}}],
            "responses": {"200": {"description": "HTML page.", "content": {"text/html": {}}}}
          }
        },
        "/assets/reset-password.js": {
          "get": {"operationId": "reset_script", "summary": "Script of the reset page.", "responses": {"200": {"description": "JavaScript.", "content": {"text/javascript": {}}}}}
        },
        "/assets/latchkey-reset-token.js": {
          "get": {"operationId": "reset_token_script", "summary": "Script for reset pages on any origin (also Directus-style pages): LatchkeyResetToken.read() gives the token from #token= or ?token= and removes it from the address bar.", "responses": {"200": {"description": "JavaScript (Cross-Origin-Resource-Policy: cross-origin).", "content": {"text/javascript": {}}}}}
        },
        "/assets/latchkey.css": {
          "get": {"operationId": "stylesheet", "summary": "Style of the web pages.", "responses": {"200": {"description": "CSS.", "content": {"text/css": {}}}}}
        },
        "/.well-known/apple-app-site-association": {
          "get": {"operationId": "apple_app_site_association", "summary": "Universal links for the configured iOS apps.", "responses": {"200": {"description": "AASA document.", "content": {"application/json": {}}}}}
        },
        "/.well-known/assetlinks.json": {
          "get": {"operationId": "assetlinks", "summary": "Android app links for the configured apps.", "responses": {"200": {"description": "Digital Asset Links statements.", "content": {"application/json": {}}}}}
        },
        "/.well-known/jwks.json": {
          "get": {"operationId": "jwks", "summary": "Public keys (JWK Set) that verify the server's tokens.", "responses": {"200": {"description": "JWK Set.", "content": {"application/jwk-set+json": {}}}}}
        },
        "/healthz": {
          "get": {"operationId": "healthz", "summary": "The process is up.", "responses": {"200": {"description": "OK.", "content": {"application/json": {}}}}}
        },
        "/readyz": {
          "get": {"operationId": "readyz", "summary": "The database answers.", "responses": {"200": {"description": "Ready.", "content": {"application/json": {}}}, "503": {"description": "Not ready.", "content": {"application/json": {}}}}}
        },
        "/metrics": {
          "get": {"operationId": "metrics", "summary": "Prometheus metrics.", "responses": {"200": {"description": "Text exposition format.", "content": {"text/plain": {}}}}}
        },
        "/openapi.json": {
          "get": {"operationId": "openapi", "summary": "This document.", "responses": {"200": {"description": "OpenAPI 3.1.", "content": {"application/json": {}}}}}
        }
      }
    }
    """#
}
