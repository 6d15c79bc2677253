import Foundation
import LatchkeyCore
import LatchkeyHTTP
import LatchkeyTestSupport
import Testing

/// Answers 200 with the length of the body it received.
private struct LengthHandler: HTTPHandler {
    func handle(_ request: HTTPRequest) -> HTTPResponse {
        HTTPResponse(status: 200, body: Data("\(request.body.count)".utf8))
    }
}

private func startedServer(_ configuration: HTTPServerConfiguration) throws -> HTTPServer {
    let server = HTTPServer(configuration: configuration, handler: LengthHandler(), logger: nil)
    try server.start()
    return server
}

/// The head of a POST announcing `length` bytes of body.
private func postHead(length: Int) -> String {
    "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: \(length)\r\n\r\n"
}

/// Whether a whole POST of `length` bytes on a fresh connection is answered 200.
private func fullPostSucceeds(port: Int, length: Int) -> Bool {
    guard let connection = try? RawHTTPConnection(port: port, receiveTimeoutSeconds: 5),
          (try? connection.send(postHead(length: length) + String(repeating: "a", count: length))) != nil else { return false }
    return (try? connection.readResponse())?.status == 200
}

/// A connection holding `length` bytes of the body budget with a half-sent body, once a whole
/// POST of `probeLength` bytes is refused beside it (a probe that came first could have taken
/// the budget and had the holder refused: then both are tried again); with that refusal.
private func holdBudget(port: Int, length: Int, probeLength: Int) throws -> (RawHTTPConnection, RawHTTPResponse)? {
    for _ in 0..<20 {
        let holder = try RawHTTPConnection(port: port)
        try holder.send(postHead(length: length) + "partial")
        Thread.sleep(forTimeInterval: 0.2)
        let probe = try RawHTTPConnection(port: port, receiveTimeoutSeconds: 5)
        try probe.send(postHead(length: probeLength) + String(repeating: "a", count: probeLength))
        let response = try probe.readResponse()
        if response.status == 503 {
            #expect(probe.waitUntilClosed(milliseconds: 5000))
            return (holder, response)
        }
        holder.hangUp()
    }
    return nil
}

@Suite struct HTTPServerLimitsTests {
    @Test("an ambiguous head gets 400 and a closed connection before its body is read; a fresh connection still works")
    func framingRefusal() throws {
        let server = try startedServer(HTTPServerConfiguration(port: 0))
        defer { server.stop() }
        let heads = [
            "POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding : chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
            "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
            "GET /upload HTTP/1.1\r\n\r\n",
            "GET  /upload HTTP/1.1\r\nHost: x\r\n\r\n",
        ]
        for head in heads {
            let connection = try RawHTTPConnection(port: server.boundPort, receiveTimeoutSeconds: 5)
            try connection.send(head)
            let response = try connection.readResponse()
            #expect(response.status == 400, "\(head)")
            #expect(response["Connection"]?.lowercased() == "close")
            #expect(response.text.contains("invalid_request"))
            #expect(connection.waitUntilClosed(milliseconds: 5000))
        }
        let unsupported = try RawHTTPConnection(port: server.boundPort, receiveTimeoutSeconds: 5)
        try unsupported.send("POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n")
        #expect(try unsupported.readResponse().status == 501)
        #expect(unsupported.waitUntilClosed(milliseconds: 5000))
        #expect(fullPostSucceeds(port: server.boundPort, length: 5))
    }

    @Test("past the body budget a request gets 503 with Retry-After and a closed connection; a holder that hangs up gives its share back")
    func bodyBudgetReleasedOnHangUp() throws {
        let server = try startedServer(HTTPServerConfiguration(port: 0, maxBodyBytes: 1000, bodyBytesInFlight: 1500))
        defer { server.stop() }
        let (holder, refused) = try #require(try holdBudget(port: server.boundPort, length: 1000, probeLength: 600))
        #expect(refused["Retry-After"] == "1")
        #expect(refused["Connection"]?.lowercased() == "close")
        #expect(refused.text.contains("server_busy"))
        // A body within what is left still fits.
        #expect(fullPostSucceeds(port: server.boundPort, length: 500))
        holder.hangUp()
        #expect(eventually { fullPostSucceeds(port: server.boundPort, length: 1000) })
    }

    @Test("a body cut off at the request deadline gives its share back")
    func bodyBudgetReleasedOnDeadline() throws {
        let server = try startedServer(HTTPServerConfiguration(port: 0, maxBodyBytes: 1000, bodyBytesInFlight: 1000, requestTimeout: 1))
        defer { server.stop() }
        let holder = try RawHTTPConnection(port: server.boundPort)
        try holder.send(postHead(length: 1000) + "partial")
        #expect(holder.waitUntilClosed(milliseconds: 5000))
        #expect(eventually { fullPostSucceeds(port: server.boundPort, length: 1000) })
    }

    @Test("a chunked body is counted as it arrives: past the budget 503 and closed, and its share is given back")
    func chunkedBodyBudget() throws {
        let server = try startedServer(HTTPServerConfiguration(port: 0, maxBodyBytes: 4000, bodyBytesInFlight: 4000))
        defer { server.stop() }
        let (holder, _) = try #require(try holdBudget(port: server.boundPort, length: 3000, probeLength: 1500))
        let chunked = try RawHTTPConnection(port: server.boundPort, receiveTimeoutSeconds: 5)
        let chunk = String(repeating: "b", count: 800)
        try chunked.send("POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n320\r\n\(chunk)\r\n320\r\n\(chunk)\r\n0\r\n\r\n")
        let response = try chunked.readResponse()
        #expect(response.status == 503 && response["Retry-After"] == "1")
        #expect(chunked.waitUntilClosed(milliseconds: 5000))
        holder.hangUp()
        #expect(eventually { fullPostSucceeds(port: server.boundPort, length: 4000) })
    }

    @Test("at the connection limit the connection silent for longest is closed to let a fresh one in")
    func silentConnectionEvicted() throws {
        let server = try startedServer(HTTPServerConfiguration(port: 0, perIPConnectionLimit: 10, connectionLimit: 3))
        defer { server.stop() }
        // Opened a moment apart, so that which is silent for longest is plain.
        let silent = try (0..<3).map { _ in
            defer { Thread.sleep(forTimeInterval: 0.05) }
            return try RawHTTPConnection(port: server.boundPort)
        }
        // The deadline sweep (every 0.5 s) lists the silent connections.
        Thread.sleep(forTimeInterval: 1.2)
        let fresh = try RawHTTPConnection(port: server.boundPort, receiveTimeoutSeconds: 5)
        try fresh.send("GET /x HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try fresh.readResponse().status == 200)
        #expect(silent[0].waitUntilClosed(milliseconds: 5000))
        #expect(!silent[1].waitUntilClosed(milliseconds: 200) && !silent[2].waitUntilClosed(milliseconds: 200))
    }

    @Test("connections that have sent a request head are never closed to make room: the new one is")
    func busyConnectionsKept() throws {
        let server = try startedServer(HTTPServerConfiguration(port: 0, perIPConnectionLimit: 10, connectionLimit: 2))
        defer { server.stop() }
        let busy = try (0..<2).map { _ in try RawHTTPConnection(port: server.boundPort) }
        for connection in busy {
            try connection.send(postHead(length: 10) + "part")
        }
        Thread.sleep(forTimeInterval: 1.2)
        let extra = try RawHTTPConnection(port: server.boundPort, receiveTimeoutSeconds: 5)
        #expect(extra.isClosedByServer())
        try busy[0].send("ial-ok")
        #expect(try busy[0].readResponse().status == 200)
    }
}
