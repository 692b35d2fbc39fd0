import Foundation

/// Making vendors and their credentials, shared by the API and `sprout vendor`.
struct MarketVendors: Sendable {
    let repository: SQLVendorRepository
    var clock = WallClock.system

    static let nameLength = 2...30

    func create(accountID: Int, name: String) async throws -> MarketVendor {
        try await create(accountID: accountID, name: name, credentials: ImportedVendorCredentials())
    }

    /// Makes a vendor; credentials given in `imported` (an old app's compiled-in identifier, secret and vendor id)
    /// are checked and kept, the rest are issued as for any new vendor.
    func create(
        accountID: Int, name: String, credentials imported: ImportedVendorCredentials,
        recording audit: ((_ made: SQLStatement, _ madeID: SQLStatement) -> [SQLStatement])? = nil
    ) async throws -> MarketVendor {
        let name = name.trimmingWhitespace
        guard Self.nameLength.contains(name.count) else {
            throw MarketError.badRequest("name must be \(Self.nameLength.lowerBound) to \(Self.nameLength.upperBound) characters long.")
        }
        guard !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw MarketError.badRequest("name may not hold control characters.")
        }
        let credentials = try imported.checked()
        let result = try await repository.create(
            accountID: accountID, name: name, identifier: credentials.identifier ?? UUID().uuidString.lowercased(),
            secret: credentials.secret ?? Self.newSecret(), id: credentials.vendorID, at: clock.now, recording: audit
        )
        switch result {
        case .success(let vendor): return vendor
        case .failure(.alreadyAVendor): throw MarketError.alreadyAVendor
        case .failure(.nameTaken): throw MarketError.vendorNameTaken
        case .failure(.identifierTaken): throw MarketError.vendorIdentifierTaken
        case .failure(.idTaken): throw MarketError.vendorIDTaken
        }
    }

    func rotateSecret(accountID: Int, recording audit: [SQLStatement] = []) async throws -> MarketVendor {
        guard let vendor = try await repository.rotateSecret(accountID: accountID, to: Self.newSecret(), recording: audit) else {
            throw MarketError.notAVendor
        }
        return vendor
    }

    /// 20 lowercase letters and digits (~103 bits), like the v3 server's secrets: safe in JSON, URLs and forms.
    static func newSecret() -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        var generator = SystemRandomNumberGenerator()
        return String((0..<20).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
    }
}

/// Credentials an old app carries compiled in, imported by `sprout vendor create --identifier --secret --vendor-id`
/// so the unchanged app can sell against Sprout. Each is optional; what is missing is issued anew.
public struct ImportedVendorCredentials: Sendable, Equatable {
    /// A UUID in any case (the apps' were lowercase version-1 UUIDs); kept lowercase, as the header is matched.
    public var identifier: String?
    /// The apps' secrets were 10–19 letters and digits, some with symbols, and one example vendor's `password`.
    public var secret: String?
    public var vendorID: Int?

    public init(identifier: String? = nil, secret: String? = nil, vendorID: Int? = nil) {
        self.identifier = identifier
        self.secret = secret
        self.vendorID = vendorID
    }

    static let secretLength = 8...64
    /// Within PostgreSQL's and SQLite's integer ids, and what an app would have compiled in.
    static let vendorIDs = 1...Int(Int32.max)

    /// The credentials normalised, or a 400 naming what is wrong.
    func checked() throws -> ImportedVendorCredentials {
        var checked = self
        if let identifier {
            guard let uuid = UUID(uuidString: identifier) else {
                throw MarketError.badRequest("identifier must be a UUID such as 9f1c2a8e-66db-11ec-9626-796401f2341a, got '\(identifier)'.")
            }
            checked.identifier = uuid.uuidString.lowercased()
        }
        if let secret {
            guard Self.secretLength.contains(secret.count) else {
                throw MarketError.badRequest("secret must be \(Self.secretLength.lowerBound) to \(Self.secretLength.upperBound) characters long.")
            }
            // It travels in JSON bodies and forms, typed by hand into apps: visible ASCII only.
            guard secret.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) }) else {
                throw MarketError.badRequest("secret may hold only visible ASCII characters (letters, digits, symbols; no spaces).")
            }
        }
        if let vendorID, !Self.vendorIDs.contains(vendorID) {
            throw MarketError.badRequest("vendor id must be a whole number from 1 to \(Self.vendorIDs.upperBound).")
        }
        return checked
    }
}
