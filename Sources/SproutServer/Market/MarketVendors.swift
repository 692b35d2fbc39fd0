import Foundation

/// Making vendors and their credentials, shared by the API and `sprout vendor`.
struct MarketVendors: Sendable {
    let repository: SQLVendorRepository

    static let nameLength = 2...30

    func create(accountID: Int, name: String) async throws -> MarketVendor {
        let name = name.trimmingWhitespace
        guard Self.nameLength.contains(name.count) else {
            throw MarketError.badRequest("name must be \(Self.nameLength.lowerBound) to \(Self.nameLength.upperBound) characters long.")
        }
        guard !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw MarketError.badRequest("name may not hold control characters.")
        }
        let result = try await repository.create(
            accountID: accountID, name: name, identifier: UUID().uuidString.lowercased(), secret: Self.newSecret(), at: Date()
        )
        switch result {
        case .success(let vendor): return vendor
        case .failure(.alreadyAVendor): throw MarketError.alreadyAVendor
        case .failure(.nameTaken): throw MarketError.vendorNameTaken
        }
    }

    func rotateSecret(accountID: Int) async throws -> MarketVendor {
        guard let vendor = try await repository.rotateSecret(accountID: accountID, to: Self.newSecret()) else {
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
