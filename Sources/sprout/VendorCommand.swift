import ArgumentParser
import Foundation
import SproutServer
import SproutWire

/// `sprout vendor …`: open-market vendors, the credentials an account's apps use to sell.
struct VendorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vendor",
        abstract: "Make an account a vendor, list vendors, show one's credentials, rotate its secret, disable or enable it.",
        subcommands: [Create.self, List.self, Show.self, RotateSecret.self, Disable.self, Enable.self]
    )

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make an account a vendor (once per account).",
            discussion: """
                To run an original Open Market app unchanged, import the vendor credentials it has compiled in:
                  sprout vendor create --account sesac --name 새싹상회 \\
                    --identifier cd706a3e-66db-11ec-9626-796401f2341a --secret password --vendor-id 58
                Without --identifier, --secret or --vendor-id, new ones are issued.
                """
        )
        @Argument(help: "The account: an id, a username or an email (or give it with --account).") var account: String?
        @Option(name: .customLong("account"), help: "The account: an id, a username or an email.") var accountOption: String?
        @Option(help: "The vendor's name (2…30 characters, unique).") var name: String
        @Option(help: "An identifier to keep instead of a new one: a UUID (an old app's compiled-in identifier).") var identifier: String?
        @Option(help: "A secret to keep instead of a new one: 8…64 visible ASCII characters.") var secret: String?
        @Option(name: .customLong("vendor-id"), help: "A vendor id to keep instead of the next one (a whole number, unused).") var vendorID: Int?
        @OptionGroup var data: DataOptions

        func validate() throws {
            guard (account == nil) != (accountOption == nil) else {
                throw ValidationError("Name the account once: as an argument or with --account.")
            }
        }

        func run() async throws {
            let (reference, name) = (account ?? accountOption ?? "", name)
            let credentials = ImportedVendorCredentials(identifier: identifier, secret: secret, vendorID: vendorID)
            try await withVendors(data) { vendors in
                print(try await vendors.create(account: reference, name: name, credentials: credentials, by: .commandLine()).text)
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
            try await withVendors(data) { vendors in print(try await vendors.rotateSecret(reference, by: .commandLine()).text) }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List vendors in id order (no secrets).")
        @Option(help: "Show vendors after this id.") var after: Int = 0
        @Option(help: "At most this many (1…1000).") var limit: Int = 100
        @OptionGroup var data: DataOptions

        func run() async throws {
            let (after, limit) = (after, limit)
            try await withVendors(data) { vendors in
                let list = try await vendors.list(afterID: after, limit: limit)
                if list.isEmpty { print("No vendors.") }
                for vendor in list {
                    print("\(vendor.id)\t\(vendor.name)\t\(vendor.identifier)\taccount \(vendor.accountID)\t\(vendor.disabled ? "disabled" : "active")")
                }
            }
        }
    }

    struct Disable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Disable a vendor: it can change no product until enabled (its products stay listed).")
        @Argument(help: "The vendor's id or name, or its account's id, username or email.") var vendor: String
        @OptionGroup var data: DataOptions

        func run() async throws {
            let reference = vendor
            try await withVendors(data) { vendors in print(try await vendors.setDisabled(reference, true, by: .commandLine()).text) }
        }
    }

    struct Enable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Let a disabled vendor change its products again.")
        @Argument(help: "The vendor's id or name, or its account's id, username or email.") var vendor: String
        @OptionGroup var data: DataOptions

        func run() async throws {
            let reference = vendor
            try await withVendors(data) { vendors in print(try await vendors.setDisabled(reference, false, by: .commandLine()).text) }
        }
    }
}

private func withVendors(_ data: DataOptions, _ body: @escaping @Sendable (VendorAdministration) async throws -> Void) async throws {
    let configuration = try data.configuration()
    do {
        try await withDatabase(configuration) { database in
            try await database.prepare(configuration)
            try await body(VendorAdministration(database: database, configuration: configuration))
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
        state:      \(disabled ? "disabled" : "active")
        """
    }
}
