import CArgon2
package import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one place that calls libargon2. It computes raw Argon2 tags through `argon2_ctx`,
/// which (unlike the convenience functions) accepts a secret key and associated data.
package enum LibArgon2 {
    /// The raw Argon2 tag of `password` with `salt` (at least 8 bytes), the optional secret key
    /// (`K`) and associated data (`X`) of RFC 9106 §3.1, and `tagLength` bytes (4…1024).
    /// Throws ``LatchkeyCryptoError`` `invalid_parameters` for a short salt or a tag length out
    /// of range, `argon2_failure` if libargon2 cannot run.
    package static func tag(
        _ variant: Argon2Variant, version: Argon2Version = .v13, password: Data, salt: Data,
        secret: Data = Data(), associatedData: Data = Data(), parameters: Argon2Parameters,
        tagLength: Int
    ) throws -> Data {
        guard tagLength >= 4, tagLength <= 1024 else {
            throw LatchkeyCryptoError(.invalidParameters, "Argon2 tag length must be between 4 and 1024 bytes.")
        }
        guard salt.count >= 8 else {
            throw LatchkeyCryptoError(.invalidParameters, "Argon2 salt must be at least 8 bytes.")
        }
        // One buffer holds every input, so a single closure lends all the pointers.
        var inputs = [UInt8]()
        var ranges = [Range<Int>]()
        for part in [password, salt, secret, associatedData] {
            guard part.count <= Int(UInt32.max) else {
                throw LatchkeyCryptoError(.invalidParameters, "Argon2 input is too long.")
            }
            ranges.append(inputs.count..<inputs.count + part.count)
            inputs.append(contentsOf: part)
        }
        var tag = [UInt8](repeating: 0, count: tagLength)
        let status = inputs.withUnsafeMutableBufferPointer { buffer in
            tag.withUnsafeMutableBufferPointer { output in
                func pointer(_ index: Int) -> UnsafeMutablePointer<UInt8>? {
                    ranges[index].isEmpty ? nil : buffer.baseAddress! + ranges[index].lowerBound
                }
                var context = argon2_context(
                    out: output.baseAddress, outlen: UInt32(output.count),
                    pwd: pointer(0), pwdlen: UInt32(ranges[0].count),
                    salt: pointer(1), saltlen: UInt32(ranges[1].count),
                    secret: pointer(2), secretlen: UInt32(ranges[2].count),
                    ad: pointer(3), adlen: UInt32(ranges[3].count),
                    t_cost: UInt32(parameters.iterations),
                    m_cost: UInt32(parameters.memoryKiB),
                    lanes: UInt32(parameters.parallelism),
                    threads: UInt32(parameters.parallelism),
                    version: version.rawValue,
                    allocate_cbk: mapMemory, free_cbk: unmapMemory,
                    flags: clearPasswordAndSecret)
                return argon2_ctx(&context, type(of: variant))
            }
        }
        guard status == ARGON2_OK.rawValue else {
            let detail = String(cString: argon2_error_message(status))
            if status == ARGON2_MEMORY_ALLOCATION_ERROR.rawValue || status == ARGON2_THREAD_FAIL.rawValue {
                throw LatchkeyCryptoError(.argon2Failure, "Argon2 could not run.", detail: detail)
            }
            throw LatchkeyCryptoError(.invalidParameters, "Argon2 rejected its input.", detail: detail)
        }
        return Data(tag)
    }

    /// Argon2's memory (the configured cost, 19 MiB and more per hash) is mapped for each hash
    /// and unmapped after it (libargon2 wipes it first), never taken from malloc: glibc would
    /// raise its mmap threshold after the first free of such a block and keep later ones in
    /// its heap arenas, so a sign-in flood would leave hundreds of MiB behind.
    private static let mapMemory: allocate_fptr = { memory, size in
        guard let memory, let mapped = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
            mapped != MAP_FAILED
        else { return ARGON2_MEMORY_ALLOCATION_ERROR.rawValue }
        memory.pointee = mapped.assumingMemoryBound(to: UInt8.self)
        return ARGON2_OK.rawValue
    }

    /// Returns memory ``mapMemory`` mapped.
    private static let unmapMemory: deallocate_fptr = { memory, size in
        _ = munmap(memory, size)
    }

    /// ARGON2_FLAG_CLEAR_PASSWORD | ARGON2_FLAG_CLEAR_SECRET: libargon2 wipes our copies of
    /// the password and secret once it has read them.
    private static let clearPasswordAndSecret: UInt32 = (1 << 0) | (1 << 1)

    private static func type(of variant: Argon2Variant) -> argon2_type {
        switch variant {
        case .argon2d: Argon2_d
        case .argon2i: Argon2_i
        case .argon2id: Argon2_id
        }
    }
}
