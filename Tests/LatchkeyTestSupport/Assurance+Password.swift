package import Foundation
package import LatchkeyCore

extension Assurance {
    /// A sign-in with the password alone at `date`: what most tests sign in with.
    package static func signedIn(at date: Date) -> Assurance {
        Assurance(methods: [.password], authTime: date)
    }
}
