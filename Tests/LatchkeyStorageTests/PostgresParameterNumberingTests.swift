@testable import LatchkeyStorage
import Testing

/// How statements written with `?` parameters become PostgreSQL's numbered ones.
@Suite struct PostgresParameterNumberingTests {
    @Test("each ? becomes $1, $2, ... in order")
    func numbersInOrder() {
        #expect(
            PostgresConnection.numberingParameters("UPDATE t SET a = ?, b = ? WHERE id = ? AND c > ?")
                == "UPDATE t SET a = $1, b = $2 WHERE id = $3 AND c > $4")
    }

    @Test("a ? in a string literal, a quoted identifier or a -- comment is left alone")
    func quotedAndCommented() {
        #expect(
            PostgresConnection.numberingParameters(
                "SELECT 'why?', 'it''s?', \"odd?\" FROM t WHERE a = ? -- is it?\nAND b = ?")
                == "SELECT 'why?', 'it''s?', \"odd?\" FROM t WHERE a = $1 -- is it?\nAND b = $2")
    }

    @Test("a statement already numbered is unchanged")
    func alreadyNumbered() {
        #expect(PostgresConnection.numberingParameters("SELECT $1::bigint + 1 AS value") == "SELECT $1::bigint + 1 AS value")
    }
}
