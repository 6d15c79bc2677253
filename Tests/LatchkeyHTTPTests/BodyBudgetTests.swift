import Dispatch
import LatchkeyCore
import LatchkeyHTTP
import Synchronization
import Testing

@Suite struct BodyBudgetTests {
    @Test("reservations fit within the limit, a refused one takes nothing, a release makes room")
    func accounting() {
        let budget = BodyBudget(limit: 100)
        #expect(budget.reserve(60, share: 60))
        #expect(budget.reserve(40, share: 40))
        #expect(!budget.reserve(1, share: 1))
        #expect(budget.reservedBytes == 100)
        budget.release(40)
        #expect(!budget.reserve(41, share: 41))
        #expect(budget.reserve(40, share: 40) && budget.reservedBytes == 100)
        budget.release(100)
        #expect(budget.reservedBytes == 0)
        #expect(!budget.reserve(101, share: 101))
        #expect(budget.reserve(0, share: 0))
    }

    @Test("large bodies leave the last eighth to small ones; small ones may take all of it")
    func smallBodyReserve() {
        let budget = BodyBudget(limit: 80_000, smallBodyBytes: 4096)
        #expect(budget.smallBodyReserve == 10_000)
        // 64 KiB bodies fill the budget up to the reserve, and no further.
        #expect(budget.reserve(65_536, share: 65_536))
        #expect(!budget.reserve(5000, share: 5000))
        // A chunked body that grows past 4 KiB counts as large from then on.
        #expect(budget.reserve(4000, share: 4000))
        #expect(!budget.reserve(1000, share: 5000))
        #expect(budget.reservedBytes == 69_536)
        // Small bodies still fit, up to the whole limit.
        #expect(budget.reserve(4096, share: 4096) && budget.reserve(4096, share: 4096))
        #expect(budget.reserve(2272, share: 2272) && budget.reservedBytes == 80_000)
        #expect(!budget.reserve(1, share: 1))
    }

    @Test("threads racing for the budget never hold more than the limit together, and get it all back")
    func concurrentReservations() {
        let budget = BodyBudget(limit: 10_000)
        let highest = Atomic<Int>(0)
        let granted = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for round in 0..<20_000 {
                let bytes = 1 + (thread * 7 + round) % 700
                guard budget.reserve(bytes, share: bytes) else { continue }
                granted.add(1, ordering: .relaxed)
                _ = highest.max(budget.reservedBytes, ordering: .relaxed)
                budget.release(bytes)
            }
        }
        #expect(highest.load(ordering: .relaxed) <= 10_000)
        #expect(granted.load(ordering: .relaxed) > 0)
        #expect(budget.reservedBytes == 0)
    }
}

/// IPv6 connections count against the peer's /64, /56 and /48 at once.
@Suite struct ConnectionAdmissionPrefixTests {
    private func address(_ text: String) -> IPAddress { IPAddress(text)! }

    @Test("one /56 holds at most its limit across its /64s; another /56 of the same /48 has its own")
    func slash56() {
        var admission = ConnectionAdmission(limit: 1000, perNetworkLimit: 2, perSlash56Limit: 3, perSlash48Limit: 100)
        var descriptor: Int32 = 10
        func reserve(_ text: String) -> ConnectionAdmission.Outcome {
            descriptor += 1
            return admission.reserve(descriptor: descriptor, peer: address(text))
        }
        let outcomes = [
            reserve("2001:db8:0:100::1"), reserve("2001:db8:0:101::1"), reserve("2001:db8:0:1ff::1"),
            // A fourth /64 of the same /56 (2001:db8:0:100::/56).
            reserve("2001:db8:0:1aa::1"),
            // 2001:db8:0:200::/56 is another /56.
            reserve("2001:db8:0:200::1"),
        ]
        #expect(outcomes == [.admitted, .admitted, .admitted, .networkFull, .admitted])
    }

    @Test("one /48 holds at most its limit across its /56s, the default being 16 times the /64 limit")
    func slash48() {
        var admission = ConnectionAdmission(limit: 1000, perNetworkLimit: 1)
        #expect(admission.perSlash56Limit == 4 && admission.perSlash48Limit == 16)
        var outcomes: [ConnectionAdmission.Outcome] = []
        // 17 /64s spread over five /56s of 2001:db8:7::/48, 4 in each /56 at most.
        for index in 0..<17 {
            let slash56 = index / 4
            let slash64 = index % 4
            let group = String(slash56 << 8 | slash64, radix: 16)
            outcomes.append(admission.reserve(descriptor: Int32(index), peer: address("2001:db8:7:\(group)::1")))
        }
        #expect(outcomes.prefix(16).allSatisfy { $0 == .admitted })
        #expect(outcomes.last == .networkFull)
        // Another /48 is not affected; a closed connection frees a place in every prefix.
        #expect(admission.reserve(descriptor: 100, peer: address("2001:db8:8::1")) == .admitted)
        admission.release(address("2001:db8:7:0::1"))
        #expect(admission.reserve(descriptor: 101, peer: address("2001:db8:7:403::1")) == .admitted)
    }

    @Test("the networks of an address: the address for IPv4, the /64, /56 and /48 for IPv6")
    func networks() {
        let networks = ConnectionAdmission.networks(of: address("2001:db8:1:2:3:4:5:6")).map { "\($0.address)/\($0.prefixLength)" }
        #expect(networks == ["2001:db8:1:2::/64", "2001:db8:1::/56", "2001:db8:1::/48"])
        #expect(ConnectionAdmission.networks(of: address("2001:db8:1:2ff::")) [1].address == address("2001:db8:1:200::"))
    }

    @Test("a trusted proxy on IPv6 is held to none of the prefix limits")
    func trustedProxy() {
        var admission = ConnectionAdmission(limit: 10, perNetworkLimit: 1, unlimitedPeers: [address("2001:db8::5")])
        let outcomes = (0..<5).map { admission.reserve(descriptor: Int32($0), peer: address("2001:db8::5")) }
        #expect(outcomes.allSatisfy { $0 == .admitted })
        #expect(admission.reserve(descriptor: 9, peer: address("2001:db8::6")) == .admitted)
        #expect(admission.reserve(descriptor: 10, peer: address("2001:db8::7")) == .networkFull)
    }
}
