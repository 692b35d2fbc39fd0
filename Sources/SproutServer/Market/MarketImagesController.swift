import Hummingbird
import HTTPTypes
import NIOCore

/// `/market/images/{name}`: originals byte for byte and thumbnails. A name is a random key Sprout made, and the
/// bytes behind it never change, so the name is the ETag and the answer may be cached for a year.
struct MarketImagesController<Context: RequestContext> {
    let storage: any MarketImageStorage

    var endpoints: RouteCollection<Context> {
        let routes = RouteCollection(context: Context.self)
        routes.get("market/images/{name}", use: image)
        return routes
    }

    @Sendable func image(_ request: Request, context: Context) async throws -> Response {
        guard let name = context.parameters.get("name").flatMap(MarketImageFileName.init) else { throw MarketError.imageNotFound }
        let etag = "\"\(name)\""
        var headers: HTTPFields = [
            .eTag: etag,
            .cacheControl: "public, max-age=31536000, immutable",
        ]
        // A 304 only for an image that still exists: `If-None-Match: *` (or the tag of a deleted image) for a
        // missing one is a 404, as RFC 9110 evaluates it against no current representation.
        if let match = request.headers[.ifNoneMatch], match.split(separator: ",").contains(where: { tag in
            let tag = String(tag).trimmingWhitespace
            return tag == "*" || tag == etag || tag == "W/" + etag
        }), try await storage.contains(name) {
            return Response(status: .notModified, headers: headers)
        }
        guard let bytes = try await storage.load(name) else { throw MarketError.imageNotFound }
        headers[.contentType] = name.format.mediaType
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: bytes))
    }
}
