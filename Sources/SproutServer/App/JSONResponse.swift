import Foundation
import HTTPTypes
import Hummingbird

extension Response {
    /// A JSON response with UTF-8 text left unescaped (Korean stays readable) and slashes unescaped (URLs too).
    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let data = try sharedJSONEncoder.encode(value)
        return Response(
            status: status,
            headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: data))
        )
    }
}

/// One encoder for every response: configured once here, only ever used to encode (safe to share).
let sharedJSONEncoder: JSONEncoder = {
    let encoder = JSONEncoder()
    // Sorted keys: the same value always gives the same bytes (stable ETags, readable diffs).
    encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
    return encoder
}()

/// The smallest error body, `{"message": "..."}`, used by Laravel, the Board API and Sprout's own APIs.
struct MessageBody: Encodable {
    let message: String
}
