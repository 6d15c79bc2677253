import Dispatch
import Foundation
import LatchkeyCore
import LatchkeyHTTP
import Synchronization
import LatchkeyTestSupport
import Testing

/// Answers with a JSON description of the request it received.
private struct EchoHandler: HTTPHandler {
    struct Echo: Codable {
        let method: String
        let path: String
        let query: [[String]]
        let headers: [[String]]
        let body: String
        let clientIP: String
    }

    func handle(_ request: HTTPRequest) -> HTTPResponse {
        let echo = Echo(
            method: request.method, path: request.path, query: request.query.map { [$0.name, $0.value] },
            headers: request.headers.map { [$0.name, $0.value] }, body: String(decoding: request.body, as: UTF8.self),
            clientIP: request.clientIP)
        let body = (try? JSONEncoder().encode(echo)) ?? Data()
        return HTTPResponse(
            status: 200, headers: HTTPHeaders([("Content-Type", "application/json"), ("X-Echo", "yes")]), body: body)
    }
}

/// Records events from several threads in the order they happen.
private final class EventLog: Sendable {
    private let events = Mutex<[String]>([])

    func record(_ event: String) { events.withLock { $0.append(event) } }

    var all: [String] { events.withLock { $0 } }
}

/// Answers with whatever the closure returns.
private struct ClosureHandler: HTTPHandler {
    let respond: @Sendable (HTTPRequest) -> HTTPResponse

    func handle(_ request: HTTPRequest) -> HTTPResponse { respond(request) }
}

private func startedServer(
    _ configuration: HTTPServerConfiguration = HTTPServerConfiguration(port: 0),
    handler: any HTTPHandler = EchoHandler()
) throws -> HTTPServer {
    let server = HTTPServer(configuration: configuration, handler: handler, logger: nil)
    try server.start()
    return server
}

private func echo(of response: RawHTTPResponse) throws -> EchoHandler.Echo {
    try JSONDecoder().decode(EchoHandler.Echo.self, from: response.body)
}

@Suite struct HTTPServerTests {
    @Test("a GET with query and headers and a POST with a body reach the handler intact")
    func roundTrip() throws {
        let server = try startedServer()
        defer { server.stop() }
        let connection = try RawHTTPConnection(port: server.boundPort)

        try connection.send("GET /echo/a%20b?a=1&a=2&b=x+y&c=%2F&flag HTTP/1.1\r\nHost: x\r\nX-Test: hello\r\n\r\n")
        let get = try connection.readResponse()
        #expect(get.status == 200)
        #expect(get["X-Echo"] == "yes")
        #expect(get["Content-Type"] == "application/json")
        let getEcho = try echo(of: get)
        #expect(getEcho.method == "GET")
        #expect(getEcho.path == "/echo/a%20b")
        #expect(getEcho.query == [["a", "1"], ["a", "2"], ["b", "x y"], ["c", "/"], ["flag", ""]])
        #expect(getEcho.headers.contains(["X-Test", "hello"]))
        #expect(getEcho.clientIP == "127.0.0.1")

        let body = #"{"email":"ana@example.com"}"#
        try connection.send("POST /auth HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
        let postEcho = try echo(of: try connection.readResponse())
        #expect(postEcho.method == "POST")
        #expect(postEcho.path == "/auth")
        #expect(postEcho.body == body)
    }

    @Test("a response keeps its status, headers and body")
    func responsePassesThrough() throws {
        let server = try startedServer(handler: ClosureHandler { _ in
            HTTPResponse(
                status: 201, headers: HTTPHeaders([("Location", "/things/1"), ("Set-Cookie", "a=1"), ("Set-Cookie", "b=2")]),
                body: Data("created".utf8))
        })
        defer { server.stop() }
        let connection = try RawHTTPConnection(port: server.boundPort)
        try connection.send("POST /things HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
        let response = try connection.readResponse()
        #expect(response.status == 201)
        #expect(response["Location"] == "/things/1")
        #expect(response.headers.filter { $0.name == "Set-Cookie" }.map(\.value) == ["a=1", "b=2"])
        #expect(response.text == "created")
    }

    @Test("HEAD answers with the headers and Content-Length of GET but no body")
    func head() throws {
        let server = try startedServer()
        defer { server.stop() }
        let connection = try RawHTTPConnection(port: server.boundPort)
        try connection.send("HEAD /x HTTP/1.1\r\nHost: x\r\n\r\n")
        let head = try connection.readResponse(head: true)
        #expect(head.status == 200)
        #expect(head["X-Echo"] == "yes")
        #expect(Int(head["Content-Length"] ?? "0") ?? 0 > 0)
        // No body bytes followed: the next response on the connection parses cleanly.
        try connection.send("GET /after HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try echo(of: try connection.readResponse()).path == "/after")
    }

    @Test("a query that is not valid form encoding gets 400 invalid_request", arguments: ["%zz", "%C3%28", "%4"])
    func malformedQuery(value: String) throws {
        let server = try startedServer()
        defer { server.stop() }
        let connection = try RawHTTPConnection(port: server.boundPort)
        try connection.send("GET /x?a=\(value) HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try connection.readResponse()
        #expect(response.status == 400)
        #expect(response.text.contains(#""code":"invalid_request""#))
    }

    @Test("a body of exactly the limit is accepted")
    func bodyAtLimit() throws {
        let server = try startedServer(HTTPServerConfiguration(port: 0, maxBodyBytes: 1024))
        defer { server.stop() }
        let connection = try RawHTTPConnection(port: server.boundPort)
        let body = String(repeating: "a", count: 1024)
        try connection.send("POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 1024\r\n\r\n\(body)")
        #expect(try echo(of: try connection.readResponse()).body == body)
    }

    @Test("a Content-Length over the limit gets 413 payload_too_large before the body is sent")
    func announcedBodyTooLarge() throws {
        let server = try startedServer(HTTPServerConfiguration(port: 0, maxBodyBytes: 1024))
        defer { server.stop() }
        let connection = try RawHTTPConnection(port: server.boundPort)
        try connection.send("POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 1025\r\n\r\n")
        let response = try connection.readResponse()
        #expect(response.status == 413)
        #expect(response["Content-Type"] == "application/json")
        #expect(response.text == #"{"error":{"code":"payload_too_large","message":"The request body must not exceed 1024 bytes."}}"#)
        #expect(connection.isClosedByServer())
    }

    @Test("a chunked body is accepted under the limit and gets 413 over it")
    func chunkedBody() throws {
        let server = try startedServer(HTTPServerConfiguration(port: 0, maxBodyBytes: 1024))
        defer { server.stop() }
        let chunk = "200\r\n" + String(repeating: "c", count: 512) + "\r\n"

        let small = try RawHTTPConnection(port: server.boundPort)
        try small.send("POST /x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n\(chunk)\(chunk)0\r\n\r\n")
        #expect(try echo(of: try small.readResponse()).body == String(repeating: "c", count: 1024))

        let large = try RawHTTPConnection(port: server.boundPort)
        try large.send("POST /x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n\(chunk)\(chunk)\(chunk)0\r\n\r\n")
        let response = try large.readResponse()
        #expect(response.status == 413)
        #expect(response.text.contains(#""code":"payload_too_large""#))
    }

    @Test("an endless chunked upload is cut off instead of being read forever")
    func endlessChunkedUpload() throws {
        let server = try startedServer(HTTPServerConfiguration(port: 0, maxBodyBytes: 1024))
        defer { server.stop() }
        let connection = try RawHTTPConnection(port: server.boundPort)
        let chunk = "10000\r\n" + String(repeating: "e", count: 65_536) + "\r\n"
        try connection.send("POST /x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
        var sendFailed = false
        for _ in 0..<64 where !sendFailed {
            do { try connection.send(chunk) } catch { sendFailed = true }
        }
        #expect(sendFailed || connection.isClosedByServer())
    }

    @Test("headers or a target too big for the connection memory get 431 and 414")
    func oversizedHead() throws {
        let server = try startedServer(HTTPServerConfiguration(port: 0, connectionMemoryLimit: 16_384))
        defer { server.stop() }
        let bigHeader = try RawHTTPConnection(port: server.boundPort)
        try bigHeader.send("GET /x HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "b", count: 20_000))\r\n\r\n")
        #expect(try bigHeader.readResponse().status == 431)

        let manyHeaders = try RawHTTPConnection(port: server.boundPort)
        try manyHeaders.send("GET /x HTTP/1.1\r\nHost: x\r\n" + (0..<3000).map { "h\($0): v\r\n" }.joined() + "\r\n")
        #expect(try manyHeaders.readResponse().status == 431)

        let longTarget = try RawHTTPConnection(port: server.boundPort)
        try longTarget.send("GET /\(String(repeating: "p", count: 20_000)) HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try longTarget.readResponse().status == 414)
    }

    @Test("connections beyond the per-IP limit are closed at once")
    func perIPConnectionLimit() throws {
        let server = try startedServer(HTTPServerConfiguration(port: 0, perIPConnectionLimit: 2))
        defer { server.stop() }
        let admitted = try (0..<2).map { _ in try RawHTTPConnection(port: server.boundPort) }
        for connection in admitted {
            try connection.send("GET /x HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try connection.readResponse().status == 200)
        }
        let extra = try RawHTTPConnection(port: server.boundPort, receiveTimeoutSeconds: 5)
        #expect(extra.isClosedByServer())
        try admitted[0].send("GET /still-open HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try admitted[0].readResponse().status == 200)
    }

    @Test("connections beyond the global limit are closed at once while every open one is sending a request")
    func globalConnectionLimit() throws {
        let server = try startedServer(HTTPServerConfiguration(port: 0, perIPConnectionLimit: 10, connectionLimit: 2))
        defer { server.stop() }
        let admitted = try (0..<2).map { _ in try RawHTTPConnection(port: server.boundPort) }
        for connection in admitted {
            try connection.send("GET /x HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try connection.readResponse().status == 200)
            // A connection that has sent a head is not one to close to make room.
            try connection.send("POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n")
        }
        let extra = try RawHTTPConnection(port: server.boundPort, receiveTimeoutSeconds: 5)
        #expect(extra.isClosedByServer())
    }

    @Test("an idle connection is closed after the configured timeout")
    func idleTimeout() throws {
        let server = try startedServer(HTTPServerConfiguration(port: 0, connectionTimeout: 1))
        defer { server.stop() }
        // The client would wait 10 s; the server's 1 s timeout must close the socket first.
        let idle = try RawHTTPConnection(port: server.boundPort, receiveTimeoutSeconds: 10)
        #expect(idle.isClosedByServer())
    }

    @Test(
        "X-Forwarded-For is believed only from a trusted proxy, read from the right",
        arguments: [
            ([], "127.0.0.1"),
            (["127.0.0.1"], "198.51.100.7"),
            (["127.0.0.1", "198.51.100.7"], "203.0.113.9"),
            (["::ffff:127.0.0.1", "198.51.100.7", "203.0.113.9"], "192.0.2.1"),
        ] as [([String], String)])
    func forwardedFor(trustedProxies: [String], expectedClientIP: String) throws {
        let server = try startedServer(HTTPServerConfiguration(port: 0, trustedProxies: trustedProxies))
        defer { server.stop() }
        let connection = try RawHTTPConnection(port: server.boundPort)
        try connection.send(
            "GET /x HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 192.0.2.1, 203.0.113.9\r\nX-Forwarded-For: 198.51.100.7\r\n\r\n")
        #expect(try echo(of: try connection.readResponse()).clientIP == expectedClientIP)
    }

    @Test(
        "stop() refuses new connections at once but lets a request in progress finish, with Connection: close",
        arguments: [false, true])
    func gracefulStop(reusable: Bool) throws {
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let log = EventLog()
        var answer = HTTPResponse(status: 200, body: Data("slow".utf8))
        answer.reusableWire = reusable ? ReusableWireResponse() : nil
        let server = try startedServer(handler: ClosureHandler { [answer] request in
            guard request.path == "/slow" else { return answer }
            entered.signal()
            release.wait()
            log.record("handler finished")
            return answer
        })
        let port = server.boundPort
        // A reusable answer is first sent before the stop, so its wire form is built without
        // Connection: close.
        let warm = try RawHTTPConnection(port: port)
        try warm.send("GET /warm HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try warm.readResponse()["Connection"] == nil)
        let connection = try RawHTTPConnection(port: port)
        try connection.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
        try #require(entered.wait(timeout: .now() + 10) == .success)

        let stopped = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            server.stop()
            log.record("stop returned")
            stopped.signal()
        }
        var attempts = 0
        while !RawHTTPConnection.isRefused(port: port), attempts < 500 {
            attempts += 1
            usleep(10_000)
        }
        #expect(RawHTTPConnection.isRefused(port: port))
        release.signal()

        let response = try connection.readResponse()
        #expect(response.status == 200)
        #expect(response.text == "slow")
        #expect(response["Connection"] == "close")
        #expect(stopped.wait(timeout: .now() + 10) == .success)
        #expect(log.all == ["handler finished", "stop returned"])
    }

    @Test("a client that hangs up during a large response does not take the process down")
    func clientHangsUp() throws {
        let server = try startedServer(handler: ClosureHandler { _ in
            HTTPResponse(status: 200, body: Data(count: 8 << 20))
        })
        defer { server.stop() }
        for _ in 0..<3 {
            let leaving = try RawHTTPConnection(port: server.boundPort)
            try leaving.send("GET /big HTTP/1.1\r\nHost: x\r\n\r\n")
            leaving.hangUp()
        }
        let staying = try RawHTTPConnection(port: server.boundPort)
        try staying.send("GET /big HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try staying.readResponse().body.count == 8 << 20)
    }

    @Test("starting on a port in use fails with an error naming the address")
    func portInUse() throws {
        let first = try startedServer()
        defer { first.stop() }
        let second = HTTPServer(configuration: HTTPServerConfiguration(port: first.boundPort), handler: EchoHandler())
        let error = #expect(throws: LatchkeyError.self) { try second.start() }
        #expect(error?.code == .httpServer)
        #expect(error?.message == "Could not listen on 127.0.0.1:\(first.boundPort): the port is already in use.")
    }

    @Test("a stopped server can be started again, on a new port when 0 is configured")
    func restart() throws {
        let server = try startedServer()
        let firstPort = server.boundPort
        #expect(firstPort > 0)
        server.stop()
        #expect(server.boundPort == 0)
        try server.start()
        defer { server.stop() }
        let connection = try RawHTTPConnection(port: server.boundPort)
        try connection.send("GET /again HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try echo(of: try connection.readResponse()).path == "/again")
    }

    @Test("50 concurrent requests are all answered")
    func concurrentRequests() throws {
        let server = try startedServer(HTTPServerConfiguration(port: 0, perIPConnectionLimit: 64))
        defer { server.stop() }
        let connections = try (0..<50).map { _ in try RawHTTPConnection(port: server.boundPort) }
        for (index, connection) in connections.enumerated() {
            try connection.send("GET /n/\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
        }
        for (index, connection) in connections.enumerated() {
            #expect(try echo(of: try connection.readResponse()).path == "/n/\(index)")
        }
    }

    @Test("one reusable response goes out whole to 50 connections at once, round after round")
    func reusableResponseUnderConcurrency() throws {
        let body = Data((0..<(256 << 10)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        var answer = HTTPResponse(status: 200, headers: HTTPHeaders([("Content-Type", "application/octet-stream")]), body: body)
        answer.reusableWire = ReusableWireResponse()
        let server = try startedServer(HTTPServerConfiguration(port: 0, perIPConnectionLimit: 64), handler: ClosureHandler { [answer] _ in answer })
        defer { server.stop() }
        let connections = try (0..<50).map { _ in try RawHTTPConnection(port: server.boundPort) }
        for round in 0..<3 {
            // Every request is out before any answer is read: the server's event threads send
            // the one body to all of them at once, each as far as its socket takes it.
            for connection in connections {
                try connection.send("GET /r\(round) HTTP/1.1\r\nHost: x\r\n\r\n")
            }
            for connection in connections {
                let response = try connection.readResponse()
                #expect(response.status == 200 && response.body == body, "round \(round)")
            }
        }
    }

    @Test("the server listens on IPv6 loopback and on both families with ::")
    func ipv6() throws {
        let loopback = try startedServer(HTTPServerConfiguration(host: "::1", port: 0))
        defer { loopback.stop() }
        let viaIPv6 = try RawHTTPConnection(host: "::1", port: loopback.boundPort)
        try viaIPv6.send("GET /x HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try echo(of: try viaIPv6.readResponse()).clientIP == "::1")

        let dualStack = try startedServer(HTTPServerConfiguration(host: "::", port: 0))
        defer { dualStack.stop() }
        let viaIPv4 = try RawHTTPConnection(host: "127.0.0.1", port: dualStack.boundPort)
        try viaIPv4.send("GET /x HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try echo(of: try viaIPv4.readResponse()).clientIP == "127.0.0.1")
    }

    @Test("a response that cannot go on the wire (split header, bad status, empty header, a name not a token, NUL) becomes a 500")
    func unsendableResponse() throws {
        let server = try startedServer(handler: ClosureHandler { request in
            switch request.path {
            case "/status": HTTPResponse(status: 1000)
            case "/empty": HTTPResponse(status: 200, headers: HTTPHeaders([("X-Empty", "")]))
            case "/space": HTTPResponse(status: 200, headers: HTTPHeaders([("X Note", "a")]))
            case "/colon": HTTPResponse(status: 200, headers: HTTPHeaders([("X-Note:", "a")]))
            case "/unicode": HTTPResponse(status: 200, headers: HTTPHeaders([("X-Nöte", "a")]))
            case "/nameless": HTTPResponse(status: 200, headers: HTTPHeaders([("", "a")]))
            case "/nul": HTTPResponse(status: 200, headers: HTTPHeaders([("X-Note", "a\u{0}b")]))
            case "/line-feed": HTTPResponse(status: 200, headers: HTTPHeaders([("X-Note", "a\nb")]))
            case "/fine": HTTPResponse(status: 204, headers: HTTPHeaders([("X-Note_1.~!#$%&'*+^`|", "a b\t\u{7F}ü")]))
            default: HTTPResponse(status: 200, headers: HTTPHeaders([("X-Note", "a\r\nSet-Cookie: session=evil")]))
            }
        })
        defer { server.stop() }
        let connection = try RawHTTPConnection(port: server.boundPort)
        try connection.send("GET /header HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try connection.readResponse()
        #expect(response.status == 500)
        #expect(response["Set-Cookie"] == nil)
        #expect(response.text.contains(#""code":"internal_error""#))
        for path in ["/status", "/empty", "/space", "/colon", "/unicode", "/nameless", "/nul", "/line-feed"] {
            try connection.send("GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try connection.readResponse().status == 500, "\(path)")
        }
        // Every token character in a name, and in a value anything but CR, LF and NUL, go out.
        try connection.send("GET /fine HTTP/1.1\r\nHost: x\r\n\r\n")
        let fine = try connection.readResponse()
        #expect(fine.status == 204)
        #expect(fine["X-Note_1.~!#$%&'*+^`|"] != nil)
    }

    @Test(
        "an invalid configuration is refused naming the setting",
        arguments: [
            (HTTPServerConfiguration(host: "localhost"), "localhost"),
            (HTTPServerConfiguration(port: 70_000), "70000"),
            (HTTPServerConfiguration(maxBodyBytes: 0), "maxBodyBytes"),
            (HTTPServerConfiguration(trustedProxies: ["10.0.0.0/8"]), "10.0.0.0/8"),
        ])
    func invalidConfiguration(configuration: HTTPServerConfiguration, named setting: String) throws {
        let server = HTTPServer(configuration: configuration, handler: EchoHandler())
        let error = #expect(throws: LatchkeyError.self) { try server.start() }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.message.contains(setting) == true)
    }
}
