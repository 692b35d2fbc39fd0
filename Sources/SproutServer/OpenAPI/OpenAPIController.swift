import Foundation
import HTTPTypes
import Hummingbird

/// `GET /openapi.json`: the OpenAPI 3.1 description of every wire contract Sprout serves, quirks included.
/// Kept in `OpenAPI/Document/openapi.json` (a resource), which `scripts/generate-openapi` merges from the per-service
/// YAML in `OpenAPI/Sources/` — edit the YAML, not the JSON. It is described by hand rather than derived from code,
/// because the contracts are the old servers', not ours; `OpenAPIDocumentTests` keeps it and the router in step,
/// and `scripts/fuzz-api` runs schemathesis against it.
struct OpenAPIController<Context: RequestContext> {
    let document: ByteBuffer

    /// Loads the document from the SproutServer resource bundle; its absence means a broken install.
    init() {
        guard let url = Bundle.module.url(forResource: "Document/openapi", withExtension: "json"),
              let data = try? Data(contentsOf: url)
        else {
            fatalError("Sprout's OpenAPI document could not be loaded from \(Bundle.module.bundlePath)")
        }
        document = ByteBuffer(bytes: data)
    }

    var endpoints: RouteCollection<Context> {
        let routes = RouteCollection(context: Context.self)
        routes.get("openapi.json") { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-cache"],
                body: .init(byteBuffer: document)
            )
        }
        return routes
    }
}
