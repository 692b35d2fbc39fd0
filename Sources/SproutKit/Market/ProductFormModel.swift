import Foundation
import Observation
import SproutWire

/// The register and edit screens' form without their UI: the fields as typed, up to five images for a new
/// product, the app's checks with its alert texts, and what the form sends — `MarketProductParams` to register,
/// `MarketProductChanges` with only the changed fields to edit.
@MainActor
@Observable
public final class ProductFormModel {
    /// Which screen the form is.
    public enum Mode: Sendable, Equatable {
        /// A new product: images are picked here.
        case register
        /// An existing product, pre-filled; its images cannot be changed (the API has no way to), but the
        /// thumbnail can be chosen among them.
        case edit(MarketProduct)
    }

    /// The checked values of a form that may be sent.
    public struct Values: Sendable, Equatable {
        /// The name, trimmed.
        public var name: String
        /// The description as typed.
        public var description: String
        /// The list price.
        public var price: Decimal
        /// The discount amount, at most `price`.
        public var discountedPrice: Decimal
        /// Units in stock.
        public var stock: Int
        /// KRW or USD.
        public var currency: MarketCurrency
    }

    /// Register or edit.
    public let mode: Mode
    /// The name as typed.
    public var name = ""
    /// The description as typed.
    public var description = ""
    /// The price as typed (a number pad).
    public var price = ""
    /// The discount as typed: an amount, not a percentage.
    public var discountedPrice = ""
    /// The stock as typed.
    public var stock = ""
    /// KRW or USD.
    public var currency: MarketCurrency = .krw
    /// Edit only: the image to become the thumbnail; nil keeps the current one.
    public var thumbnailID: Int?
    /// Register only: the images picked, in upload order.
    public private(set) var images: [MarketUpload] = []
    /// Whether the form is being sent.
    public private(set) var isSubmitting = false
    /// The last check that failed or the server's refusal, as a sentence to show; `dismissMessages()` clears it.
    public private(set) var errorMessage: String?
    /// The rule the last check found broken.
    public private(set) var lastFailure: ProductFormValidation.Failure?
    /// The server's refusal of the last submit, sorted.
    public private(set) var lastError: SproutError?
    /// The app's result alert after a successful register ("상품 등록하였습니다.").
    public private(set) var resultMessage: String?

    /// An empty form for a new product.
    public init() {
        mode = .register
    }

    /// A form filled with `product`'s values, to edit it.
    public init(editing product: MarketProduct) {
        mode = .edit(product)
        name = product.name
        description = product.description
        price = Self.text(product.price)
        discountedPrice = Self.text(product.discountedPrice)
        stock = String(product.stock)
        currency = product.currency
    }

    // MARK: Images

    /// Whether another image may be added.
    public var canAddImage: Bool { mode == .register && images.count < ProductFormValidation.maximumImageCount }

    /// Adds an image; a sixth is refused with "이미지를 추가할 수 없습니다." (and so is any in the edit form).
    @discardableResult
    public func addImage(_ image: MarketUpload) -> Bool {
        guard canAddImage else { return refuse(.tooManyImages) }
        images.append(image)
        return true
    }

    /// Removes the image at `index`.
    public func removeImage(at index: Int) {
        guard images.indices.contains(index) else { return }
        images.remove(at: index)
    }

    // MARK: Checking

    /// The checked values, or nil with `errorMessage` set to the first rule broken, in the order of the screen:
    /// images, name, price, discount, stock, discount ≤ price, description, currency.
    public func validate() -> Values? {
        do {
            let values = try check()
            lastFailure = nil
            errorMessage = nil
            return values
        } catch {
            _ = refuse(error)
            return nil
        }
    }

    private func check() throws(ProductFormValidation.Failure) -> Values {
        if mode == .register && images.count < ProductFormValidation.minimumImageCount { throw .noImage }
        if images.count > ProductFormValidation.maximumImageCount { throw .tooManyImages }
        let name = try ProductFormValidation.validName(name).get()
        let price = try ProductFormValidation.validAmount(price, field: .price).get()
        let discount = try ProductFormValidation.validAmount(discountedPrice, field: .discountedPrice).get()
        let stock = try ProductFormValidation.validStock(stock).get()
        guard discount <= price else { throw .discountAbovePrice }
        let description = try ProductFormValidation.validDescription(description).get()
        guard currency.isSupported else { throw .unsupportedCurrency }
        return Values(name: name, description: description, price: price, discountedPrice: discount, stock: stock, currency: currency)
    }

    /// What registering sends in `params`, or nil (with `errorMessage` set) when a rule is broken.
    /// - Parameters:
    ///   - secret: the vendor secret.
    ///   - generation: decides the description's key (a `MarketClient` sets it to its own when sending).
    public func registrationParams(secret: String, generation: MarketAPIGeneration = .v3) -> MarketProductParams? {
        guard let values = validate() else { return nil }
        return MarketProductParams(
            name: values.name, description: values.description, price: MarketWire.double(values.price),
            discountedPrice: MarketWire.double(values.discountedPrice), stock: values.stock, currency: values.currency.rawValue,
            secret: secret, generation: generation
        )
    }

    /// What editing sends: the vendor secret and only the fields that differ from the product being edited, or nil
    /// (with `errorMessage` set) when a rule is broken. A register form has nothing to compare with: every field.
    public func changes(secret: String, generation: MarketAPIGeneration = .v3) -> MarketProductChanges? {
        guard let values = validate() else { return nil }
        var changes = MarketProductChanges(secret: secret, generation: generation)
        let original: MarketProduct? = if case .edit(let product) = mode { product } else { nil }
        if values.name != original?.name { changes.name = values.name }
        if values.description != original?.description { changes.description = values.description }
        if values.price != original?.price { changes.price = MarketWire.double(values.price) }
        if values.discountedPrice != original?.discountedPrice { changes.discountedPrice = MarketWire.double(values.discountedPrice) }
        if values.stock != original?.stock { changes.stock = values.stock }
        if values.currency != original?.currency { changes.currency = values.currency.rawValue }
        if let thumbnailID, original?.images.first(where: { $0.thumbnailURL == original?.thumbnailURL })?.id != thumbnailID {
            changes.thumbnailID = thumbnailID
        }
        return changes
    }

    /// Whether `changes` changes anything but carries the secret.
    static func isEmpty(_ changes: MarketProductChanges) -> Bool {
        changes.name == nil && changes.description == nil && changes.price == nil && changes.discountedPrice == nil
            && changes.stock == nil && changes.currency == nil && changes.thumbnailID == nil
    }

    // MARK: Sending

    /// Checks the form and sends it with `client`'s vendor credentials: registers a new product, or sends the
    /// changed fields of the edited one (nothing changed: nothing is sent, and the product comes back as it was).
    /// Returns the product as the server answered it, or nil with `errorMessage` set ("상품 등록 실패하였습니다.",
    /// "상품 수정에 실패하였습니다.", or the server's explanation of a broken rule).
    public func submit(using client: MarketClient) async -> MarketProduct? {
        guard !isSubmitting else { return nil }
        let secret = client.credentials?.secret ?? ""
        resultMessage = nil
        switch mode {
        case .register:
            guard let params = registrationParams(secret: secret, generation: client.generation) else { return nil }
            return await send(.register) { [images] () throws(APIError) in try await client.register(params, images: images) }
        case .edit(let product):
            guard let changes = changes(secret: secret, generation: client.generation) else { return nil }
            if Self.isEmpty(changes) { return product }
            return await send(.modify) { () throws(APIError) in try await client.modify(id: product.id, changes: changes) }
        }
    }

    /// Clears the error and result messages once they have been shown.
    public func dismissMessages() {
        errorMessage = nil
        resultMessage = nil
        lastError = nil
        lastFailure = nil
    }

    // MARK: Helpers

    private func send(
        _ operation: SproutError.Operation, _ call: () async throws(APIError) -> MarketProduct
    ) async -> MarketProduct? {
        isSubmitting = true
        defer { isSubmitting = false }
        do {
            let product = try await call()
            lastError = nil
            errorMessage = nil
            if operation == .register { resultMessage = MarketText.registered }
            return product
        } catch {
            let sorted = error.sorted(for: .market, during: operation)
            lastError = sorted
            errorMessage = sorted.message
            return nil
        }
    }

    private func refuse(_ failure: ProductFormValidation.Failure) -> Bool {
        lastFailure = failure
        lastError = nil
        errorMessage = failure.message
        return false
    }

    /// An amount as a number pad would show it: `1300000`, `2.36`.
    private static func text(_ amount: Decimal) -> String {
        String(describing: amount)
    }
}
