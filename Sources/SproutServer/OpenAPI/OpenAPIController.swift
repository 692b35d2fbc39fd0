import Foundation
import HTTPTypes
import Hummingbird

/// `GET /openapi.json`: the OpenAPI 3.1 description of every wire contract Sprout serves, quirks included.
/// Kept in `OpenAPI/Document/openapi.json` (built into the binary by Plugins/EmbedResources), which `scripts/generate-openapi` merges from the per-service
/// YAML in `OpenAPI/Sources/` — edit the YAML, not the JSON. It is described by hand rather than derived from code,
/// because the contracts are the old servers', not ours; `OpenAPIDocumentTests` keeps it and the router in step,
/// and `scripts/fuzz-api` runs schemathesis against it.
struct OpenAPIController<Context: RequestContext> {
    let document: ByteBuffer

    /// The document built into the binary; its absence means a broken build.
    init() {
        guard let file = EmbeddedResources.folders["Document"]?.first(where: { $0.name == "openapi.json" }) else {
            fatalError("Sprout was built without its OpenAPI document (OpenAPI/Document/openapi.json)")
        }
        document = ByteBuffer(bytes: file.bytes)
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
