import Foundation
import Hummingbird
import SproutWire

/// `/api/vendors`: an account (Bearer token or the web app's session) becomes a vendor once, reads its
/// credentials, and rotates its secret. Answers depend on the caller, so they are never cached.
struct VendorsController<Context: CallerRequestContext> {
    typealias SignedIn = SignedInContext<Context, MarketError>

    let vendors: MarketVendors
    /// Vendor creations per client address and hour (each account may make one; this bounds sign-up sprees).
    let addressLimit: AddressRateLimit
    let maxBodySize: Int
    /// The time of day (`buildApplication` hands in the application's).
    var clock = WallClock.system

    var endpoints: RouteCollection<Context> {
        let routes = RouteCollection(context: Context.self)
        routes.add(middleware: CallerDependentHeadersMiddleware())
        let signedIn = routes.group(context: SignedIn.self)
        signedIn.post("api/vendors", use: create)
        signedIn.get("api/vendors/me", use: show)
        signedIn.post("api/vendors/me/secret", use: rotateSecret)
        return routes
    }

    @Sendable func create(_ request: Request, context: SignedIn) async throws -> Response {
        let account = context.account
        let fields = try await request.bodyFields(limit: maxBodySize, refusal: MarketError.unreadableBody)
        guard try await addressLimit.claim(.vendorCreation, address: context.client.address, at: clock.now) else { throw MarketError.tooManyVendors }
        let vendor = try await vendors.create(accountID: account.id, name: fields["name"]?.asText ?? "")
        return try Response.json(MarketVendorJSON(vendor), status: .created)
    }

    @Sendable func show(_ request: Request, context: SignedIn) async throws -> Response {
        let account = context.account
        guard let vendor = try await vendors.repository.vendor(accountID: account.id) else { throw MarketError.notAVendor }
        return try Response.json(MarketVendorJSON(vendor))
    }

    @Sendable func rotateSecret(_ request: Request, context: SignedIn) async throws -> Response {
        let account = context.account
        return try Response.json(MarketVendorJSON(try await vendors.rotateSecret(accountID: account.id)))
    }
}

extension MarketVendorJSON {
    init(_ vendor: MarketVendor) {
        self.init(id: vendor.id, name: vendor.name, identifier: vendor.identifier, secret: vendor.secret)
    }
}
