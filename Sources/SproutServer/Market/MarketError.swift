import HTTPTypes
import Hummingbird
import SproutWire

/// Every market error: `{"code": <status>, "message": "…"}`. The originals never showed a body their apps decoded
/// (the v3 server's was Spring's); the contract settles on this one shape for all of them.
struct MarketError: MessageError {
    let status: HTTPResponse.Status
    let message: String

    static let unknownIdentifier = MarketError(status: .unauthorized, message: "A known vendor identifier is required in the identifier header.")
    static let wrongSecret = MarketError(status: .forbidden, message: "The vendor secret is missing or wrong.")
    static let vendorDisabled = MarketError(status: .forbidden, message: "An administrator disabled this vendor: it cannot change products.")
    static let notYourProduct = MarketError(status: .forbidden, message: "This product belongs to another vendor.")
    static let productNotFound = MarketError(status: .notFound, message: "No product has this id.")
    static let imageNotFound = MarketError(status: .notFound, message: "No image has this name.")
    static let wrongProductSecret = MarketError.badRequest("The product secret is wrong.")
    static let signInRequired = MarketError(status: .unauthorized, message: "Sign in to an account first.")
    static let notAVendor = MarketError(status: .notFound, message: "This account is not a vendor yet.")
    static let alreadyAVendor = MarketError(status: .conflict, message: "This account is already a vendor.")
    static let vendorNameTaken = MarketError(status: .conflict, message: "This vendor name is taken.")
    static let vendorIdentifierTaken = MarketError(status: .conflict, message: "This vendor identifier belongs to another vendor.")
    static let tooManyUploads = MarketError(status: .tooManyRequests, message: "Too many products with pictures were registered in the last hour; try again later.")
    static let tooManyVendors = MarketError(status: .tooManyRequests, message: "Too many vendors were created from this address in the last hour; try again later.")
    static let vendorIDTaken = MarketError(status: .conflict, message: "This vendor id is taken.")

    var body: MarketErrorJSON { MarketErrorJSON(code: status.code, message: message) }
}

extension MarketError: SignInRefusal {
    /// `/api/vendors` serves accounts (a Bearer JWT or the web app's session); anyone else gets 401.
    static func refusal(for caller: Caller) -> any Error { MarketError.signInRequired }
}
