import HummingbirdBcrypt
import NIOPosix

/// bcrypt, as Strapi's users-permissions plugin hashes passwords (10 rounds). A hash or a check costs tens of
/// milliseconds of CPU, so it runs on a thread pool of its own (`WorkPools.passwordHashing`): never on an event
/// loop, never on one of the few threads Swift's cooperative pool has (two on this machine), where it would stall
/// every other request, and never behind image decoding or file I/O.
struct PasswordHasher: Sendable {
    var cost: UInt8 = 10

    func hash(_ password: String) async throws -> String {
        let cost = cost
        return try await WorkPools.passwordHashing.runIfActive { Bcrypt.hash(password, cost: cost) }
    }

    func verify(_ password: String, against hash: String) async throws -> Bool {
        try await WorkPools.passwordHashing.runIfActive { Bcrypt.verify(password, hash: hash) }
    }

    /// A hash of no real password, checked when the account does not exist, so that a wrong username costs as
    /// long as a wrong password and the answer's timing does not tell which accounts exist.
    static let decoyHash = Bcrypt.hash("sprout decoy password", cost: 10)
}
