import Foundation
import LatchkeyCrypto
import LatchkeyCore
import LatchkeyHTTP
import LatchkeyServer
import Synchronization
import Testing
import LatchkeyTestSupport

/// The assembled application, not listening: requests go straight to its router.
func makeApplication(_ extra: [String: String] = [:], logs: MemoryLogSink = MemoryLogSink()) throws -> ServerApplication {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-app-\(UUID().uuidString)")
    var environment = ["LATCHKEY_DATA_DIR": directory.path, "LATCHKEY_LISTEN": "127.0.0.1:0"]
    environment.merge(extra) { $1 }
    return try ServerApplication(configuration: try Configuration.load(environment: environment), logger: Logger(sink: logs))
}

func jsonRequest(_ path: String, _ body: String, contentType: String = "application/json") -> HTTPRequest {
    HTTPRequest(method: "POST", path: path, headers: HTTPHeaders([("Content-Type", contentType)]), body: Data(body.utf8))
}

@Suite struct RouterTests {
    @Test("a control character in any text field is 400 invalid_request in the route's shape, before anything is looked up")
    func controlCharactersAreRefused() throws {
        let app = try makeApplication()
        let characters = [
            (json: "\\u0000", form: "%00"), (json: "\\u0001", form: "%01"), (json: "\\t", form: "%09"),
            (json: "\\n", form: "%0A"), (json: "\\u001f", form: "%1F"), (json: "\\u007f", form: "%7F"),
        ]
        for (character, encoded) in characters {
            let reset = app.router.handle(jsonRequest("/auth/password/request", #"{"email":"a\#(character)@example.com"}"#))
            #expect(reset.status == 400)
            #expect(String(decoding: reset.body, as: UTF8.self).contains(#""code":"invalid_request""#))
            let login = app.router.handle(jsonRequest("/auth/login", #"{"email":"a@example.com","password":"pass\#(character)word"}"#))
            #expect(login.status == 400)
            #expect(String(decoding: login.body, as: UTF8.self).contains("INVALID_PAYLOAD"))
            let token = app.router.handle(jsonRequest(
                "/oauth/token", "grant_type=refresh_token&client_id=app&refresh_token=a\(encoded)",
                contentType: "application/x-www-form-urlencoded"))
            #expect(token.status == 400)
            #expect(String(decoding: token.body, as: UTF8.self).contains(#""error":"invalid_request""#))
        }
        #expect(app.metrics.resetRequests.current == 0)
    }

    @Test("the OpenAPI document describes exactly the routes the router serves")
    func openAPIMatchesRouter() throws {
        let app = try makeApplication()
        let response = app.router.handle(HTTPRequest(method: "GET", path: "/openapi.json"))
        let document = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        var documented = Set<String>()
        for (path, operations) in paths {
            for method in operations.keys { documented.insert("\(method.uppercased()) \(path)") }
        }
        let served = Set(app.router.routes.map { "\($0.method) \($0.path)" })
        #expect(documented == served)
        let names = Set(paths.values.flatMap { $0.values.compactMap { ($0 as? [String: Any])?["operationId"] as? String } })
        #expect(names == Set(app.router.routes.map(\.name)))

        // Routes answering in both error shapes document every error response with that schema, and only they do.
        let components = try #require(document["components"] as? [String: Any])
        let sharedResponses = components["responses"] as? [String: [String: Any]] ?? [:]
        func errorSchemas(_ route: Route) throws -> Set<String> {
            let operation = try #require(paths[route.path]?[route.method.lowercased()] as? [String: Any])
            let responses = try #require(operation["responses"] as? [String: [String: Any]])
            return Set(try responses.filter { $0.key.hasPrefix("4") || $0.key.hasPrefix("5") }.map { _, response in
                let resolved = (response["$ref"] as? String).flatMap { sharedResponses[String($0.split(separator: "/").last ?? "")] } ?? response
                let json = (resolved["content"] as? [String: Any])?["application/json"] as? [String: Any]
                return try #require((json?["schema"] as? [String: Any])?["$ref"] as? String)
            })
        }
        for route in app.router.routes {
            if case .latchkeyAndDirectus = route.errorShape {
                #expect(try errorSchemas(route) == ["#/components/schemas/ResetError"], "\(route.path)")
            } else if route.path.hasPrefix("/auth/") {
                #expect(try !errorSchemas(route).contains("#/components/schemas/ResetError"), "\(route.path)")
            }
        }
    }

    @Test("every response carries the security headers; auth routes are never cached")
    func securityHeaders() throws {
        let app = try makeApplication()
        for request in [jsonRequest("/auth/password/request", #"{"email":"a@example.com"}"#),
                        HTTPRequest(method: "GET", path: "/nowhere"), HTTPRequest(method: "GET", path: "/healthz")] {
            let response = app.router.handle(request)
            #expect(response.headers["X-Content-Type-Options"] == "nosniff")
            #expect(response.headers["Referrer-Policy"] == "no-referrer")
            #expect(response.headers["X-Frame-Options"] == "DENY")
            #expect(response.headers["Cache-Control"] == "no-store")
        }
    }

    @Test("a route's own security fields are replaced once, whatever their case; its own policy and resource policy are kept")
    func routeFieldsMeetSecurityHeaders() {
        let router = Router(routes: [
            Route("GET", "/own", name: "own") { _ in
                HTTPResponse(status: 200, headers: HTTPHeaders([
                    ("x-frame-options", "SAMEORIGIN"), ("cache-control", "max-age=60"), ("Content-Security-Policy", "default-src 'self'"),
                    ("cross-origin-resource-policy", "cross-origin"), ("Content-Type", "text/plain"),
                ]), body: Data("own".utf8))
            },
        ], metrics: ServerMetrics(version: "test"), logger: Logger(sink: MemoryLogSink()))
        let response = router.handle(HTTPRequest(method: "GET", path: "/own"))
        #expect(response.headers.values("X-Frame-Options") == ["DENY"])
        #expect(response.headers.values("Cache-Control") == ["no-store"])
        #expect(response.headers.values("Pragma") == ["no-cache"])
        #expect(response.headers.values("Content-Security-Policy") == ["default-src 'self'"])
        #expect(response.headers.values("Cross-Origin-Resource-Policy") == ["cross-origin"])
        #expect(response.headers.values("X-Content-Type-Options") == ["nosniff"])
        #expect(response.headers.values("Referrer-Policy") == ["no-referrer"])
        #expect(response.headers["Content-Type"] == "text/plain")
    }

    @Test("an answer that awaits a deferred write is finished when the write settles: itself once committed, the route's error shape when it failed, with its completion either way; handle(_:) waits for it")
    func answersAwaitTheirWrite() throws {
        let writes = Mutex<[DeferredWrite]>([])
        let completions = Atomic<Int>(0)
        let metrics = ServerMetrics(version: "test")
        let router = Router(routes: [
            Route("POST", "/stored", name: "stored", body: .json, errorShape: .latchkeyAndDirectus, answersAlike: true) { _ in
                let write = DeferredWrite()
                writes.withLock { $0.append(write) }
                var response = HTTPResponse(status: 200, headers: HTTPHeaders([("Content-Type", "application/json")]), body: Data("{}".utf8))
                response.deferredWrite = write
                response.onCompletion = { completions.add(1, ordering: .relaxed) }
                return response
            },
        ], metrics: metrics, logger: Logger(sink: MemoryLogSink()))
        let replies = Mutex<[HTTPResponse]>([])
        for _ in 0..<2 {
            guard case .awaiting(let write, let finish) = router.answer(jsonRequest("/stored", "{}")) else {
                Issue.record("the answer does not await its write")
                continue
            }
            write.whenSettled { outcome in
                let response = finish(outcome)
                replies.withLock { $0.append(response) }
            }
        }
        // Handled, but not replied to while the writes are pending.
        #expect(replies.withLock { $0 }.isEmpty)
        let (committed, failed) = try #require(writes.withLock { $0.count == 2 ? ($0[0], $0[1]) : nil })
        failed.settle(.failure(LatchkeyError(.storage, "The database is busy.", detail: "a test")))
        committed.settle(.success(()))
        let (refusal, answer) = try #require(replies.withLock { $0.count == 2 ? ($0[0], $0[1]) : nil })
        #expect(refusal.status == 500)
        // In the route's shape (Latchkey's and Directus's), saying no more than any server failure.
        let refusalBody = String(decoding: refusal.body, as: UTF8.self)
        #expect(refusalBody.contains(#""code":"internal_error""#) && refusalBody.contains("INTERNAL_SERVER_ERROR"))
        #expect(refusal.headers["X-Content-Type-Options"] == "nosniff" && refusal.deferredWrite == nil)
        #expect(answer.status == 200 && answer.body == Data("{}".utf8) && answer.deferredWrite == nil)
        #expect(metrics.requestCount(route: "stored", status: 500) == 1 && metrics.requestCount(route: "stored", status: 200) == 1)
        for reply in [refusal, answer] { reply.onCompletion?() }
        #expect(completions.load(ordering: .relaxed) == 2)

        // handle(_:) returns only once the write has settled.
        let waited = Mutex<HTTPResponse?>(nil)
        let returned = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let response = router.handle(jsonRequest("/stored", "{}"))
            waited.withLock { $0 = response }
            returned.signal()
        }
        let third = try #require(eventually { writes.withLock { $0.count } == 3 } ? writes.withLock { $0[2] } : nil)
        #expect(waited.withLock { $0 } == nil)
        third.settle(.success(()))
        #expect(returned.wait(timeout: .now() + 10) == .success)
        #expect(waited.withLock { $0?.status } == 200)
    }

    @Test("a kept route's unchanged answer keeps one wire form, each request with its own completion; a changed answer or a route not kept get none of the old")
    func eventThreadAnswersAreReused() throws {
        let document = Mutex("one")
        let completions = Mutex<[String]>([])
        let metrics = ServerMetrics(version: "test")
        let router = Router(routes: [
            Route("GET", "/document", name: "document", cacheable: true, lane: .eventThread) { _ in
                HTTPResponse(status: 200, headers: HTTPHeaders([("Content-Type", "text/plain")]), body: Data(document.withLock { $0 }.utf8))
            },
            Route("GET", "/completed", name: "completed", answersAlike: true) { request in
                var response = HTTPResponse(status: 200, body: Data("same".utf8))
                let caller = request.clientIP
                response.onCompletion = { completions.withLock { $0.append(caller) } }
                return response
            },
            Route("GET", "/work", name: "work") { _ in HTTPResponse(status: 200, body: Data("same".utf8)) },
        ], metrics: metrics, logger: Logger(sink: MemoryLogSink()))
        let get = { (path: String) in router.handle(HTTPRequest(method: "GET", path: path)) }

        let first = get("/document"), second = get("/document")
        let wire = try #require(first.reusableWire)
        #expect(second.reusableWire === wire)
        #expect(second.headers["X-Content-Type-Options"] == "nosniff" && second.headers["Cache-Control"] == nil)
        #expect(metrics.requestCount(route: "document", status: 200) == 2)

        document.withLock { $0 = "two" }
        let changed = get("/document")
        #expect(String(decoding: changed.body, as: UTF8.self) == "two")
        #expect(changed.reusableWire != nil && changed.reusableWire !== wire)
        #expect(get("/document").reusableWire === changed.reusableWire)

        let completed = ["198.51.100.1", "198.51.100.2", "198.51.100.3"].map { ip in
            var request = HTTPRequest(method: "GET", path: "/completed")
            request.clientIP = ip
            return router.handle(request)
        }
        let completedWire = try #require(completed[0].reusableWire)
        #expect(completed.allSatisfy { $0.reusableWire === completedWire })
        for response in completed.reversed() { response.onCompletion?() }
        #expect(completions.withLock { $0 } == ["198.51.100.3", "198.51.100.2", "198.51.100.1"])
        #expect(get("/work").reusableWire == nil)
    }

    @Test("changing a response's status, header fields or body drops its reusable wire form")
    func changedResponseLosesItsWire() {
        var original = HTTPResponse(status: 200, headers: HTTPHeaders([("Content-Type", "text/plain")]), body: Data("a".utf8))
        original.reusableWire = ReusableWireResponse()
        var status = original, headers = original, body = original, completion = original
        status.status = 201
        headers.headers.set("X-Extra", "1")
        body.body.append(0x62)
        completion.onCompletion = {}
        #expect([status, headers, body].allSatisfy { $0.reusableWire == nil })
        #expect(completion.reusableWire === original.reusableWire)
    }

    @Test("wrong media type is 415, unknown path 404, wrong method 405 with Allow")
    func protocolErrors() throws {
        let app = try makeApplication()
        #expect(app.router.handle(jsonRequest("/auth/password/request", "email=a", contentType: "application/x-www-form-urlencoded")).status == 415)
        #expect(app.router.handle(jsonRequest("/auth/password/request", "{}", contentType: "application/json; charset=utf-8")).status == 400)
        // The media type is judged without parameters, surrounding spaces or tabs, or letter case.
        #expect(app.router.handle(jsonRequest("/auth/password/request", "{}", contentType: " Application/JSON\t;charset=utf-8")).status == 400)
        for notJSON in ["application/jsonx", "application/json-seq", "xapplication/json", "application/js on", "", ";application/json"] {
            #expect(app.router.handle(jsonRequest("/auth/password/request", "{}", contentType: notJSON)).status == 415, "\(notJSON)")
        }
        #expect(app.router.handle(HTTPRequest(method: "GET", path: "/nope")).status == 404)
        let wrongMethod = app.router.handle(HTTPRequest(method: "GET", path: "/auth/password/reset"))
        #expect(wrongMethod.status == 405)
        #expect(wrongMethod.headers["Allow"] == "POST")
        #expect(app.router.handle(HTTPRequest(method: "HEAD", path: "/healthz")).status == 200)
    }

    @Test("the reset-token script is JavaScript other origins may load (CORP cross-origin); everything else stays same-origin")
    func resetTokenScript() throws {
        let app = try makeApplication()
        let script = app.router.handle(HTTPRequest(method: "GET", path: "/assets/latchkey-reset-token.js"))
        #expect(script.status == 200)
        #expect(script.headers["Content-Type"] == "text/javascript; charset=utf-8")
        #expect(script.headers["Cross-Origin-Resource-Policy"] == "cross-origin")
        #expect(script.headers["X-Content-Type-Options"] == "nosniff")
        #expect(script.headers["Cache-Control"] == "public, max-age=300")
        let text = String(decoding: script.body, as: UTF8.self)
        #expect(text.contains("LatchkeyResetToken") && text.contains("history.replaceState"))
        let page = app.router.handle(HTTPRequest(method: "GET", path: "/assets/reset-password.js"))
        #expect(page.headers["Cross-Origin-Resource-Policy"] == "same-origin")
    }

    @Test("/metrics answers only the configured clients, since mail counters reveal accounts")
    func metricsRestricted() throws {
        let app = try makeApplication(["LATCHKEY_METRICS_ALLOW": "10.1.2.3,::1"])
        #expect(app.router.handle(HTTPRequest(method: "GET", path: "/metrics", clientIP: "203.0.113.5")).status == 404)
        #expect(app.router.handle(HTTPRequest(method: "GET", path: "/metrics", clientIP: "127.0.0.1")).status == 404)
        #expect(app.router.handle(HTTPRequest(method: "GET", path: "/metrics", clientIP: "10.1.2.3")).status == 200)
        #expect(app.router.handle(HTTPRequest(method: "GET", path: "/metrics", clientIP: "0:0::1")).status == 200)
    }

    @Test("one IP or one email domain over the threshold logs one warning, without addresses")
    func abuseWarning() throws {
        let logs = MemoryLogSink()
        let app = try makeApplication(["LATCHKEY_ABUSE_WARNING_THRESHOLD": "3"], logs: logs)
        for i in 0..<5 {
            _ = app.router.handle(jsonRequest("/auth/password/request", #"{"email":"victim\#(i)@target.example"}"#))
        }
        let warnings = logs.lines.filter { $0.contains("reset_abuse_suspected") }
        #expect(warnings.count == 2)
        #expect(warnings.contains { $0.contains(#""source":"ip""#) })
        #expect(warnings.contains { $0.contains(#""domain":"target.example""#) })
        #expect(!logs.lines.joined().contains("victim"))
    }

    @Test("an IPv6 client is limited as its /64, so rotating addresses does not escape the IP budget")
    func ipv6SharesABudget() throws {
        let app = try makeApplication(["LATCHKEY_RESET_IP_LIMIT": "2/600"])
        let statuses = (1...3).map { i in
            var request = jsonRequest("/auth/password/request", #"{"email":"a@example.com"}"#)
            request.clientIP = "2001:db8:1:2::\(i)"
            return app.router.handle(request).status
        }
        #expect(statuses == [200, 200, 429])
        var other = jsonRequest("/auth/password/request", #"{"email":"a@example.com"}"#)
        other.clientIP = "2001:db8:1:3::1"
        #expect(app.router.handle(other).status == 200)
    }

    @Test("with the reset inbox full the request route answers 503 with Retry-After in both error shapes")
    func fullInbox() throws {
        let app = try makeApplication(["LATCHKEY_RESET_INBOX_LIMIT": "1"])
        #expect(app.router.handle(jsonRequest("/auth/password/request", #"{"email":"a@example.com"}"#)).status == 200)
        let refused = app.router.handle(jsonRequest("/auth/password/request", #"{"email":"b@example.com"}"#))
        #expect(refused.status == 503)
        #expect(refused.headers["Retry-After"] == "5")
        let (code, directusCode) = try errorCodes(refused)
        // As every 503: a code that says to come back, never internal_error.
        #expect(code == "server_busy" && directusCode == "SERVICE_UNAVAILABLE")
    }

    @Test("the request route's answer goes out in one wire form for every address, and each request's completion releases its own")
    func requestAnswersShareAWire() throws {
        let app = try makeApplication()
        try app.accounts.createAccount(email: "known@example.com", password: .init("correct horse battery staple"))
        let answers = ["known@example.com", "unknown@example.com"].map {
            app.router.handle(jsonRequest("/auth/password/request", #"{"email":"\#($0)"}"#))
        }
        let wire = try #require(answers[0].reusableWire)
        #expect(answers[1].reusableWire === wire)
        // Nothing is taken before its answer is sent; each completion releases its own request.
        #expect(app.recovery.processPendingRequests() == 0)
        answers[1].onCompletion?()
        #expect(app.recovery.processPendingRequests() == 1)
        #expect(try app.store.pendingResetRequestCount(upTo: 10) == 1)
        answers[0].onCompletion?()
        #expect(app.recovery.processPendingRequests() == 1)
        #expect(try app.store.pendingMailCount() == 1)
    }

    @Test("the request route answers known, unknown and malformed-but-valid addresses with one body")
    func sameBytes() throws {
        let app = try makeApplication()
        try app.accounts.createAccount(email: "known@example.com", password: .init("correct horse battery staple"))
        let bodies = ["known@example.com", "unknown@example.com", "KNOWN@example.com"].map {
            app.router.handle(jsonRequest("/auth/password/request", #"{"email":"\#($0)"}"#)).body
        }
        #expect(Set(bodies).count == 1)
    }

    @Test("hostile bodies get 400 with a stable code, never a crash", arguments: [
        "", "null", "[1,2]", "\"text\"", "{\"email\": {\"$gt\": \"\"}}", "{\"email\": \"" + String(repeating: "a", count: 400) + "@example.com\"}",
        "{\"email\": \"a@b.c\", \"reset_url\": 5}", "{\"email\": \"\\u0000@example.com\"}", "{\"token\": null}",
    ])
    func hostileBodies(body: String) throws {
        let app = try makeApplication()
        for path in ["/auth/password/request", "/auth/password/validate", "/auth/password/reset"] {
            let response = app.router.handle(jsonRequest(path, body))
            #expect(response.status == 400)
            let (code, directusCode) = try errorCodes(response)
            #expect(!code.isEmpty && !directusCode.isEmpty)
        }
    }

    @Test("reset route errors carry Latchkey's and Directus's shapes in one body, with Latchkey's statuses")
    func resetErrorsInBothShapes() throws {
        let app = try makeApplication()
        let token = String(repeating: "A", count: 43)
        let cases: [(HTTPRequest, Int, String, String)] = [
            (jsonRequest("/auth/password/request", "{"), 400, "invalid_json", "INVALID_PAYLOAD"),
            (jsonRequest("/auth/password/request", #"{"email":"not an address"}"#), 400, "invalid_email", "FAILED_VALIDATION"),
            (jsonRequest("/auth/password/validate", #"{"token":"\#(token)"}"#), 400, "invalid_token", "INVALID_TOKEN"),
            (jsonRequest("/auth/password/reset", #"{"token":"\#(token)","password":"x"}"#), 400, "invalid_token", "INVALID_TOKEN"),
            (jsonRequest("/auth/password/reset", "{}", contentType: "text/plain"), 415, "unsupported_media_type", "INVALID_PAYLOAD"),
            (jsonRequest("/auth/password/reset", #"{"token":"\#(token)"}"#), 400, "invalid_request", "INVALID_PAYLOAD"),
        ]
        for (request, status, code, directusCode) in cases {
            let response = app.router.handle(request)
            #expect(response.status == status)
            #expect(try errorCodes(response) == (code, directusCode))
        }
        let limitedApp = try makeApplication(["LATCHKEY_RESET_VALIDATE_IP_LIMIT": "1/600"])
        #expect(limitedApp.router.handle(jsonRequest("/auth/password/validate", #"{"token":"\#(token)"}"#)).status == 400)
        let limited = limitedApp.router.handle(jsonRequest("/auth/password/validate", #"{"token":"\#(token)"}"#))
        #expect(limited.status == 429)
        #expect(limited.headers["Retry-After"] != nil)
        #expect(try errorCodes(limited) == ("rate_limited", "REQUESTS_EXCEEDED"))
    }

    @Test("a refused new password is FAILED_VALIDATION on the password field for Directus, with the reasons for Latchkey")
    func weakPasswordInBothShapes() throws {
        let refusal = LatchkeyError(.weakPassword, "Choose a longer password.", reasons: ["too_short"])
        let response = refusal.response(in: .latchkeyAndDirectus, requestHeaders: HTTPHeaders())
        #expect(response.status == 400)
        let object = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
        let error = try #require(object["error"] as? [String: Any])
        #expect(error["code"] as? String == "weak_password")
        #expect(error["reasons"] as? [String] == ["too_short"])
        let entry = try #require((object["errors"] as? [[String: Any]])?.first)
        #expect(entry["message"] as? String == "Choose a longer password.")
        #expect(entry["extensions"] as? [String: String] == ["code": "FAILED_VALIDATION", "field": "password"])
    }
}

/// The Latchkey code and the Directus code of an error response that carries both shapes.
private func errorCodes(_ response: HTTPResponse) throws -> (String, String) {
    let object = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
    #expect(object.count == 2)
    let code = try #require((object["error"] as? [String: Any])?["code"] as? String)
    let entries = try #require(object["errors"] as? [[String: Any]])
    #expect(entries.count == 1)
    let directusCode = try #require((entries.first?["extensions"] as? [String: Any])?["code"] as? String)
    return (code, directusCode)
}
