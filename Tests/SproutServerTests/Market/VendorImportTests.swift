import Foundation
import HTTPTypes
import Testing
@testable import SproutServer

/// `sprout vendor create --identifier --secret --vendor-id`: an original Open Market app, unchanged, sells with the
/// credentials compiled into it.
@Suite struct VendorImportTests {
    /// As the seed apps carried them: a lowercase version-1 UUID, the example vendor's secret, vendor id 58.
    static let compiledIn = ImportedVendorCredentials(identifier: "cd706a3e-66db-11ec-9626-796401f2341a", secret: "password", vendorID: 58)

    @Test func anImportedVendorRegistersEditsAndDeletesWithItsCompiledInCredentials() async throws {
        try await withTestApp { client, database in
            let account = try await client.signUp("sesac")
            let administration = VendorAdministration(database: database, sealer: .forTests)
            // The identifier in capitals is still the same UUID: kept lowercase, as the header is matched.
            let imported = ImportedVendorCredentials(identifier: "CD706A3E-66DB-11EC-9626-796401F2341A", secret: "password", vendorID: 58)
            let summary = try await administration.create(account: "sesac", name: "새싹상회", credentials: imported, by: .commandLine())
            #expect(summary.id == 58 && summary.identifier == "cd706a3e-66db-11ec-9626-796401f2341a" && summary.secret == "password")

            let vendor = TestVendor(account: account, id: 58, name: "새싹상회", identifier: "cd706a3e-66db-11ec-9626-796401f2341a", secret: "password")
            let product = try await client.registerProduct(as: vendor)
            let id = try #require(product["id"]?.int)
            #expect(product["vendor_id"]?.int == 58)
            let modified = try await client.modify(id, #"{"secret": "password", "stock": "7"}"#, as: vendor)
            #expect(modified.status == .accepted && modified.json?["stock"]?.int == 7)
            var headers = vendor.identifierHeader
            headers[.contentType] = "application/json"
            let lookup = try await client.raw(.post, "/api/products/\(id)/secret", headers: headers, body: Array(#"{"secret": "password"}"#.utf8))
            #expect(lookup.status == .ok)
            #expect(try await client.send(.delete, "/api/products/\(id)/\(lookup.text)", headers: vendor.identifierHeader).status == .ok)

            // The next vendor made through the API is numbered after the imported one, on either database.
            let next = try await client.makeVendor("newcomer")
            #expect(next.id == 59)
        }
    }

    @Test func importedCredentialsAreCheckedAndUnique() async throws {
        try await withTestApp { client, database in
            _ = try await client.signUp("first")
            _ = try await client.signUp("second")
            let administration = VendorAdministration(database: database, sealer: .forTests)
            _ = try await administration.create(account: "first", name: "첫 가게", credentials: Self.compiledIn, by: .commandLine())
            let refusals: [(ImportedVendorCredentials, String)] = [
                (ImportedVendorCredentials(identifier: "not-a-uuid"), "identifier must be a UUID"),
                (ImportedVendorCredentials(secret: "short"), "secret must be 8 to 64"),
                (ImportedVendorCredentials(secret: "has a space"), "visible ASCII"),
                (ImportedVendorCredentials(secret: String(repeating: "x", count: 65)), "secret must be 8 to 64"),
                (ImportedVendorCredentials(vendorID: 0), "vendor id must be"),
                (ImportedVendorCredentials(identifier: "CD706A3E-66DB-11EC-9626-796401F2341A"), "identifier belongs to another vendor"),
                (ImportedVendorCredentials(vendorID: 58), "vendor id is taken"),
            ]
            for (credentials, words) in refusals {
                await #expect(throws: VendorAdministrationError.self, "\(credentials)") {
                    do {
                        _ = try await administration.create(account: "second", name: "둘째 가게", credentials: credentials, by: .commandLine())
                    } catch let error as VendorAdministrationError {
                        #expect(error.description.contains(words), "\(credentials): \(error.description)")
                        throw error
                    }
                }
            }
            // Nothing was written by the refusals: the second account can still become a vendor.
            let second = try await administration.create(account: "second", name: "둘째 가게", by: .commandLine())
            #expect(second.id != 58 && second.secret.count == 20)
        }
    }
}
