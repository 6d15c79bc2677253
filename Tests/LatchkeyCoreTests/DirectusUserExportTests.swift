import Foundation
@testable import LatchkeyCore
import Testing

@Suite struct DirectusUserExportTests {
    @Test("CSV: quoted fields keep commas, doubled quotes and line breaks; CRLF and LF both end records; blank lines are skipped")
    func csvQuoting() throws {
        let text = "id,email,note\r\n1,a@example.com,\"one, \"\"two\"\"\r\nthree\"\r\n\r\n2,b@example.com,\n"
        let records = try CSVRecords(parsing: text).records
        #expect(records == [
            .init(line: 1, fields: ["id", "email", "note"]),
            .init(line: 2, fields: ["1", "a@example.com", "one, \"two\"\r\nthree"]),
            .init(line: 5, fields: ["2", "b@example.com", ""]),
        ])
    }

    @Test("CSV that is not well formed is refused with the line it breaks on",
        arguments: [
            ("a,\"b\nc", CSVRecords.Failure.unterminatedQuote(line: 1)),
            ("a,b\n\"x\"y,z", .textAfterQuote(line: 2)),
            ("a,b\nx\"y,z", .quoteInUnquotedField(line: 2)),
            ("a,b\nx\0,z", .nul(line: 2)),
        ])
    func csvFailures(text: String, failure: CSVRecords.Failure) {
        #expect(throws: failure) { try CSVRecords(parsing: text) }
    }

    @Test("a Directus CSV export gives each user's fields by the header's names, whatever their order and case")
    func csvExport() throws {
        let csv = """
            status,Email,first_name,password,id,tfa_secret,language
            active,ana@example.com,Ana,$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$dGFn,4f1c,,pt-BR
            suspended,bo@example.com,"Bo, Jr",,77aa,JBSWY3DPEHPK3PXP,
            active,short@example.com
            """
        // The hash has commas, so a real export quotes it; this line checks the quoted form too.
        let quoted = csv.replacingOccurrences(of: "$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$dGFn", with: "\"$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$dGFn\"")
        let users = try DirectusUserExport.records(from: Data(quoted.utf8))
        #expect(users.count == 3)
        #expect(users[0] == DirectusUserRecord(
            location: "line 2", id: "4f1c", email: "ana@example.com", password: "$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$dGFn",
            status: "active", tfaSecret: nil, language: "pt-BR"))
        #expect(users[1].tfaSecret == "JBSWY3DPEHPK3PXP" && users[1].password == nil && users[1].defect == nil)
        #expect(users[2].defect == "has 2 fields where the header has 7")
        #expect(users[2].location == "line 4")
    }

    @Test("a JSON export is an array of users or Directus's {\"data\": [...]}; an element that is not an object is a defect")
    func jsonExport() throws {
        let array = #"[{"id":"1","email":"a@example.com","password":null,"status":"invited","role":{"name":"x"}}, 7]"#
        let users = try DirectusUserExport.records(from: Data(array.utf8))
        #expect(users.map(\.location) == ["user 1", "user 2"])
        #expect(users[0].email == "a@example.com" && users[0].password == nil && users[0].status == "invited")
        #expect(users[1].defect == "is not a JSON object")
        let wrapped = try DirectusUserExport.records(from: Data(#" {"data": [{"email": "b@example.com"}]}"#.utf8))
        #expect(wrapped.map(\.email) == ["b@example.com"])
    }

    @Test("a file that is not UTF-8, broken JSON, JSON of something else or CSV without an email column is refused whole",
        arguments: [
            Data([0xFF, 0xFE, 0x00]), Data("[{\"email\": ".utf8), Data(#"{"users": []}"#.utf8), Data("id,name\n1,x\n".utf8),
        ])
    func unreadableFiles(data: Data) {
        let error = #expect(throws: LatchkeyError.self) { try DirectusUserExport.records(from: data) }
        #expect(error?.code == .invalidRequest)
    }

    @Test("a language becomes the account's language when Latchkey speaks it", arguments: [
        ("pt-BR", "pt"), ("en-US", "en"), ("AR", "ar"), ("es", "es"), ("de-DE", nil), ("", nil), (nil, nil),
    ] as [(String?, String?)])
    func languages(language: String?, locale: String?) {
        #expect(DirectusUserImport.locale(language) == locale)
    }
}
