import Foundation
import LatchkeyCore
import LatchkeyFuzzSupport

// A Directus user export as `latchkey users import` reads it (DirectusUserExport, CSVRecords).
// Properties: only LatchkeyError (whole file) or CSVRecords.Failure is thrown; CSV records are
// in line order, none empty; writing the records back with every field quoted parses to the
// same fields.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDirectusExport(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    do {
        _ = try DirectusUserExport.records(from: input.data)
    } catch is LatchkeyError {
    } catch {
        expect(false, "DirectusUserExport threw something other than LatchkeyError: \(error)")
    }
    guard let text = input.text else { return 0 }
    do {
        let records = try CSVRecords(parsing: text).records
        expect(zip(records, records.dropFirst()).allSatisfy { $0.line < $1.line }, "records out of line order")
        let written = records.map { record in
            record.fields.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }.joined(separator: ",")
        }.joined(separator: "\n")
        let again = try CSVRecords(parsing: written).records
        expect(again.map(\.fields) == records.map(\.fields), "quoted records do not parse back to the same fields")
    } catch is CSVRecords.Failure {
    } catch {
        expect(false, "CSVRecords threw something other than its Failure: \(error)")
    }
    return 0
}
