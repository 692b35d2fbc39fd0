import Foundation
import Observation
import SproutWire

/// The open-market detail screen without its UI: the product, whether the signed-in vendor may edit and delete
/// it, the delete flow with the vendor secret the person types, and modify.
@MainActor
@Observable
public final class ProductDetailStore {
    /// The product's id.
    public let productID: Int
    /// The product, once loaded (or as the caller handed it over).
    public private(set) var product: MarketProduct?
    /// Whether the product is loading.
    public private(set) var isLoading = false
    /// Whether a modify or delete is under way.
    public private(set) var isWorking = false
    /// Whether the product is gone: deleted here, or the server answered 404. The screen should close and the
    /// list reload.
    public private(set) var isDeleted = false
    /// The last failure, as a sentence to show; `dismissMessages()` clears it.
    public private(set) var errorMessage: String?
    /// The last failure, sorted.
    public private(set) var lastError: SproutError?
    /// The app's result alert after a delete ("상품 삭제 완료하였습니다").
    public private(set) var resultMessage: String?

    private let client: MarketClient

    /// - Parameters:
    ///   - productID: the product to show.
    ///   - product: a copy to show until `load()` brings the server's.
    ///   - client: the market API; its `credentials` decide `canEdit` and are used to modify and delete.
    public init(productID: Int, product: MarketProduct? = nil, client: MarketClient) {
        self.productID = productID
        self.product = product
        self.client = client
    }

    /// What the screen says when a delete is asked for a product the vendor may not delete (nothing is sent).
    public static let cannotDeleteMessage = "상품을 제거할 수 없습니다."
    /// What the screen says when the vendor secret was left empty (nothing is sent).
    public static let emptySecretMessage = "값이 없습니다."

    // MARK: Owner checks

    /// Whether the vendor `vendorID` registered the product, so edit and delete may show (the apps compare
    /// `vendor_id` with their own vendor id).
    public func canEdit(vendorID: Int?) -> Bool {
        guard let vendorID, let product else { return false }
        return product.vendorID == vendorID
    }

    /// Whether the client's vendor registered the product.
    public var canEdit: Bool { canEdit(vendorID: client.credentials?.vendorID) }

    // MARK: Loading

    /// Loads the product; a 404 marks it deleted.
    public func load() async {
        isLoading = true
        defer { isLoading = false }
        do {
            product = try await client.product(id: productID)
        } catch .cancelled {
            return
        } catch {
            if error.statusCode == 404 { isDeleted = true }
            report(error, during: .loadProduct)
        }
    }

    // MARK: Changing

    /// Sends `changes` (PATCH) and shows the product as the server answers it. Returns false (with
    /// `errorMessage` set, "상품 수정에 실패하였습니다." or the server's explanation) when the server refuses.
    @discardableResult
    public func modify(_ changes: MarketProductChanges) async -> Bool {
        guard !isWorking else { return false }
        isWorking = true
        defer { isWorking = false }
        do {
            product = try await client.modify(id: productID, changes: changes)
            return true
        } catch {
            if error.statusCode == 404 { isDeleted = true }
            report(error, during: .modify)
            return false
        }
    }

    /// Shows a product as another screen (the edit form) got it from the server.
    public func replace(_ product: MarketProduct) {
        guard product.id == productID else { return }
        self.product = product
    }

    /// The delete flow with the vendor secret the person typed: the generation's lookup, then `DELETE`. On
    /// success `isDeleted` turns true and `resultMessage` is "상품 삭제 완료하였습니다". A failed lookup says
    /// "상품의 Secret을 불러오는데 실패하였습니다.", a failed delete "상품 삭제 실패하였습니다"; a product that is
    /// already gone (404) counts as deleted.
    @discardableResult
    public func delete(vendorSecret: String) async -> Bool {
        guard !isWorking else { return false }
        guard !vendorSecret.isEmpty else { return refuse(Self.emptySecretMessage) }
        if product != nil && !canEdit { return refuse(Self.cannotDeleteMessage) }
        isWorking = true
        defer { isWorking = false }
        let target: MarketDeleteTarget
        do {
            target = try await client.deleteTarget(id: productID, vendorSecret: vendorSecret)
        } catch {
            return failedDelete(error, during: .lookUpDeleteTarget)
        }
        do {
            product = try await client.delete(target)
        } catch {
            return failedDelete(error, during: .delete)
        }
        markDeleted()
        return true
    }

    /// Clears the error and result messages once they have been shown.
    public func dismissMessages() {
        errorMessage = nil
        lastError = nil
        resultMessage = nil
    }

    // MARK: Helpers

    private func failedDelete(_ error: APIError, during operation: SproutError.Operation) -> Bool {
        if error.statusCode == 404 {
            markDeleted()
            return true
        }
        report(error, during: operation)
        return false
    }

    private func markDeleted() {
        isDeleted = true
        errorMessage = nil
        lastError = nil
        resultMessage = MarketText.deleted
    }

    private func refuse(_ message: String) -> Bool {
        errorMessage = message
        lastError = nil
        return false
    }

    private func report(_ error: APIError, during operation: SproutError.Operation) {
        let sorted = error.sorted(for: .market, during: operation)
        lastError = sorted
        errorMessage = sorted.message
    }
}
