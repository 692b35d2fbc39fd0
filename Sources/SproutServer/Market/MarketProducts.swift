import CoreMetrics
import Foundation
import Hummingbird
import NIOConcurrencyHelpers
import NIOCore
import SproutWire

/// The product operations behind the routes: who may do what, the upload pipeline (stream → check → thumbnail →
/// store → one transaction), the partial merge of a PATCH, and deletion with the files.
struct MarketProducts: Sendable {
    let repository: SQLMarketRepository
    let vendors: SQLVendorRepository
    let storage: any MarketImageStorage
    let images: SystemImageProcessor
    let limits: MarketUploadLimits
    let uploadRate: MarketUploadRate
    let clock: WallClock
    /// Uploads accepted and thumbnails made (off: recorded nowhere).
    var metrics = MarketMetrics(factory: NOOPMetricsHandler.instance)
    /// PATCHes of one product, one at a time in this process.
    let rowWriters = KeyedTurns(perKey: 1)
    /// Uploads of one client address in progress at once (`MarketUploadLimits.uploadsAtOncePerAddress`).
    let uploadTurns = KeyedTurns(perKey: MarketUploadLimits.uploadsAtOncePerAddress)

    // MARK: - Register

    /// Reads a register request's multipart body part by part. Nothing is decoded before the request is
    /// authorised: `params` (with the vendor secret) is checked as soon as it arrives, and image parts that come
    /// before it are only held — at most `maximumImages` of at most `maximumImageBytes` each — until it has been.
    /// Each image is then checked, thumbnailed and staged before the next is read; the staged files are stored
    /// by the transaction that inserts the product. Whatever fails before that, the staged files are removed
    /// again: a refused upload leaves nothing behind, and a crash leaves only staged files (swept at start).
    ///
    /// A client address has a few uploads in progress at once; its others wait before their bodies are read.
    func register<Chunks: AsyncSequence & Sendable>(vendor: MarketVendor, body: Chunks, contentType: String?, address: String) async throws -> MarketProduct where Chunks.Element == ByteBuffer {
        try await uploadRate.claimForAddress(address)
        return try await uploadTurns.run(address) {
            try await receive(vendor: vendor, body: body, contentType: contentType)
        }
    }

    private func receive<Chunks: AsyncSequence>(vendor: MarketVendor, body: Chunks, contentType: String?) async throws -> MarketProduct where Chunks.Element == ByteBuffer {
        guard var parts = MultipartStream(body, contentType: contentType, maximumParts: limits.maximumImages + 4) else {
            throw MarketError.badRequest("The body must be multipart/form-data with a boundary.")
        }
        var draft: MarketProductDraft?
        var held: [MultipartStream<Chunks>.Part] = []
        var stored: [StoredMarketImage] = []
        var staged: [StagedMarketImageFile] = []
        let placed = NIOLockedValueBox(false)
        do {
            while let part = try await nextPart(&parts) {
                switch part.name {
                case "params":
                    guard draft == nil else { throw MarketError.badRequest("Only one params part may be sent.") }
                    draft = try checkedParams(part.content, vendor: vendor)
                    try await uploadRate.claimForVendor(vendor.id)
                    for image in held { try await stage(image, position: stored.count + 1, into: &stored, &staged) }
                    held = []
                case "images", "images[]":
                    guard stored.count + held.count < limits.maximumImages else {
                        throw MarketError.badRequest("At most \(limits.maximumImages) images may be sent.")
                    }
                    if draft == nil {
                        held.append(part)
                    } else {
                        try await stage(part, position: stored.count + 1, into: &stored, &staged)
                    }
                default:
                    continue  // unknown parts are read (bounded) and ignored
                }
            }
            guard let draft else { throw MarketError.badRequest("The params part is missing.") }
            guard !stored.isEmpty else { throw MarketError.badRequest("At least one image is required.") }
            let placement = try await storage.placement(of: staged).noting(placed)
            let product = try await repository.create(
                draft, vendorID: vendor.id, images: stored, placing: placement,
                creationKey: UUID().uuidString.lowercased(), at: clock.now
            )
            metrics.uploads.increment()
            return product
        } catch {
            // Once placed, the files stay: COMMIT may have gone through even though it reported a failure.
            if !placed.withLockedValue({ $0 }) { await storage.discard(staged) }
            throw error
        }
    }

    private func nextPart<Chunks>(_ parts: inout MultipartStream<Chunks>) async throws -> MultipartStream<Chunks>.Part? {
        do {
            return try await parts.next { name in
                name == "images" || name == "images[]" ? limits.maximumImageBytes : limits.maximumFieldBytes
            }
        } catch let failure as MultipartStream<Chunks>.Failure {
            switch failure {
            case .malformed: throw MarketError.badRequest("The body is not valid multipart/form-data.")
            case .tooManyParts(let limit): throw MarketError.badRequest("The body has more than \(limit) parts.")
            case .partTooLarge(let name, let limit):
                let what = name == "images" || name == "images[]" ? "An image" : "The \(name ?? "unnamed") part"
                throw MarketError.badRequest("\(what) is larger than \(limit) bytes.")
            }
        }
    }

    private func checkedParams(_ content: ByteBuffer, vendor: MarketVendor) throws -> MarketProductDraft {
        let fields: FormFields
        do {
            fields = try JSONFields.parse(content.readableBytesView)
        } catch {
            throw MarketError.badRequest("The params part must be a JSON object.")
        }
        guard MarketInput.secret(fields) == vendor.secret else { throw MarketError.wrongSecret }
        return try MarketInput.draft(fields)
    }

    /// Checks one image by its content alone — apps label photos by habit (the v3 app sends PNG bytes as
    /// `image001.jpeg`, `image/jpeg`) — then stores it as what it is: its type, thumbnail and extension follow
    /// the bytes. A refusal names the picture by position and file name.
    private func stage(
        _ part: MultipartStream<some AsyncSequence>.Part, position: Int,
        into stored: inout [StoredMarketImage], _ staged: inout [StagedMarketImageFile]
    ) async throws {
        if let filename = part.filename, !Self.isPlainFileName(filename) {
            throw MarketError.badRequest("\(MarketImageRefusal.label(position: position, filename: nil))'s file name may not hold a path.")
        }
        let processed: ProcessedMarketImage
        do {
            processed = try await images.process(part.content)
        } catch let refusal as MarketImageRefusal {
            throw refusal.error(position: position, filename: part.filename)
        }
        metrics.thumbnails.increment()
        let image = StoredMarketImage(storageKey: MarketImageFileName.randomKey(), format: processed.format, byteCount: part.content.readableBytes)
        staged += try await storage.stage(part.content, thumbnail: processed.thumbnail, as: image)
        stored.append(image)
    }

    /// A bare file name: no directory separators, no parent references, no control characters.
    static func isPlainFileName(_ name: String) -> Bool {
        !name.contains("/") && !name.contains("\\") && name != ".." && !name.hasPrefix("../")
            && !name.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
    }

    // MARK: - Modify

    /// A partial merge checked on the merged product, written only over what was read. PATCHes of one product
    /// take turns in this process (`KeyedTurns`); one overtaken by another process reads again (within
    /// `OvertakenWrite.Budget`), so a PATCH does not fail because another landed (the contract has no 409 here).
    func modify(id: Int, vendor: MarketVendor, fields: FormFields) async throws -> MarketProduct {
        _ = try await ownProduct(id: id, vendor: vendor)  // 404 or 403 before the secret is looked at
        guard MarketInput.secret(fields) == vendor.secret else { throw MarketError.wrongSecret }
        let changes = try MarketInput.changes(fields)
        return try await rowWriters.run("product:\(id)") {
            var budget = OvertakenWrite.Budget()
            while true {
                // Read inside the turn: the request before this one may have changed the product meanwhile.
                let current = try await ownProduct(id: id, vendor: vendor)
                let merged = try merge(changes, into: current)
                if merged == current { return current }
                if let replaced = try await repository.replace(current, with: merged) { return replaced }
                guard !budget.overtaken() else {
                    throw MarketError(status: .serviceUnavailable, message: "The product is being changed without pause by other servers; try again.")
                }
                try await OvertakenWrite.pause()
            }
        }
    }

    private func merge(_ changes: MarketProductChanges, into product: MarketProduct) throws -> MarketProduct {
        if let thumbnail = changes.thumbnailImageID, !product.images.contains(where: { $0.id == thumbnail }) {
            throw MarketError.badRequest("thumbnail_id must be the id of one of this product's images.")
        }
        let merged = MarketProduct(
            id: product.id, vendorID: product.vendorID, vendorName: product.vendorName, vendorCreatedAt: product.vendorCreatedAt,
            name: changes.name ?? product.name, description: changes.description ?? product.description,
            currency: changes.currency?.rawValue ?? product.currency, price: changes.price ?? product.price,
            discountedPrice: changes.discountedPrice ?? product.discountedPrice, stock: changes.stock ?? product.stock,
            creationKey: product.creationKey, thumbnailImageID: changes.thumbnailImageID ?? product.thumbnailImageID,
            createdAt: product.createdAt, images: product.images, vendorAccountID: product.vendorAccountID, hiddenAt: product.hiddenAt
        )
        try MarketInput.checkDiscount(merged.discountedPrice, price: merged.price)
        return merged
    }

    // MARK: - Delete

    /// The v2 lookup: the product secret, for the vendor's own product and the right vendor secret.
    func productSecret(id: Int, vendor: MarketVendor, fields: FormFields) async throws -> String {
        let product = try await ownProduct(id: id, vendor: vendor)
        guard MarketInput.secret(fields) == vendor.secret else { throw MarketError.wrongSecret }
        return vendor.productSecret(of: product.id)
    }

    /// Deletes the vendor's product when `productSecret` is its secret; answers the product as it was.
    func delete(id: Int, productSecret: String, vendor: MarketVendor) async throws -> MarketProduct {
        let product = try await ownProduct(id: id, vendor: vendor)
        guard vendor.isProductSecret(productSecret, of: product.id) else { throw MarketError.wrongProductSecret }
        guard try await repository.delete(id: id, vendorID: vendor.id) else { throw MarketError.productNotFound }
        try await storage.delete(product.images.flatMap { MarketImageFileName.pair(key: $0.storageKey, format: $0.format) })
        return product
    }

    private func ownProduct(id: Int, vendor: MarketVendor) async throws -> MarketProduct {
        guard let product = try await repository.product(id: id) else { throw MarketError.productNotFound }
        guard product.vendorID == vendor.id else { throw MarketError.notYourProduct }
        return product
    }
}

/// The upload limits (contract defaults; `MARKET_MAX_IMAGE_BYTES` changes the image size).
struct MarketUploadLimits: Sendable {
    var maximumImages = 5
    var maximumImageBytes = 307_200
    /// `params` and any other non-image part.
    var maximumFieldBytes = 64 * 1024
    /// Each upload in progress holds up to a picture part in memory: 64 connections of one client once lifted the
    /// server's peak RSS by 57 MiB (docs/benchmarks.md). Four keep a two-core server's image thread busy.
    static let uploadsAtOncePerAddress = 4
}

extension StoredMarketImage {
    var original: MarketImageFileName { MarketImageFileName(key: storageKey, isThumbnail: false, format: format) }
    var thumbnail: MarketImageFileName { MarketImageFileName(key: storageKey, isThumbnail: true, format: format) }
}
