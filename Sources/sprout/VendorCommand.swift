import ArgumentParser
import Foundation
import SproutServer
import SproutWire

/// `sprout vendor …`: open-market vendors, the credentials an account's apps use to sell.
struct VendorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vendor",
        abstract: "Make an account a vendor, show a vendor's credentials, or rotate its secret.",
        subcommands: [Create.self, Show.self, RotateSecret.self]
    )

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Make an account a vendor (once per account).")
        @Argument(help: "The account: an id, a username or an email.") var account: String
        @Option(help: "The vendor's name (2…30 characters, unique).") var name: String
        @OptionGroup var data: DataOptions

        func run() async throws {
            let (reference, name) = (account, name)
            try await withVendors(data) { vendors in
                print(try await vendors.create(account: reference, name: name).text)
            }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show a vendor's id, identifier and secret.")
        @Argument(help: "The vendor's name, or its account's id, username or email.") var vendor: String
        @OptionGroup var data: DataOptions

        func run() async throws {
            let reference = vendor
            try await withVendors(data) { vendors in print(try await vendors.find(reference).text) }
        }
    }

    struct RotateSecret: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rotate-secret",
            abstract: "Give a vendor a new secret; the old one stops working at once."
        )
        @Argument(help: "The vendor's name, or its account's id, username or email.") var vendor: String
        @OptionGroup var data: DataOptions

        func run() async throws {
            let reference = vendor
            try await withVendors(data) { vendors in print(try await vendors.rotateSecret(reference).text) }
        }
    }
}

private func withVendors(_ data: DataOptions, _ body: @escaping @Sendable (VendorAdministration) async throws -> Void) async throws {
    let configuration = try data.configuration()
    do {
        try await withDatabase(configuration) { database in
            try await database.migrate()
            try await body(VendorAdministration(database: database))
        }
    } catch let error as VendorAdministrationError {
        throw ValidationError(error.description)
    } catch let error as AccountAdministrationError {
        throw ValidationError(error.description)
    }
}

extension VendorSummary {
    var text: String {
        """
        vendor id:  \(id)
        name:       \(name)
        identifier: \(identifier)
        secret:     \(secret)
        account id: \(accountID)
        created:    \(MarketTimestamp.string(from: createdAt))
        """
    }
}
