import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Supplies the Bearer token for `Authorization`, or nil to send the request without one.
public typealias TokenProvider = @Sendable () async -> String?

/// Sends typed `Request`s to one server and turns every failure into an `APIError`.
///
/// ```swift
/// let client = APIClient(baseURL: URL(string: "http://127.0.0.1:8080")!)
/// let page = try await TodosClient(client: client).list(page: 1)
/// ```
public struct APIClient: Sendable {
    /// The server address every request path is appended to.
    public let baseURL: URL
    let transport: any HTTPTransport
    let tokenProvider: TokenProvider?

    /// - Parameters:
    ///   - baseURL: the server's address; request paths are appended to it.
    ///   - transport: how requests travel; `URLSessionTransport()` unless a test needs otherwise.
    ///   - tokenProvider: asked before every request for a Bearer token.
    public init(baseURL: URL, transport: any HTTPTransport = URLSessionTransport(), tokenProvider: TokenProvider? = nil) {
        self.baseURL = baseURL
        self.transport = transport
        self.tokenProvider = tokenProvider
    }

    /// Sends `request` and decodes its answer.
    /// - Throws: `APIError` only; `.cancelled` when the calling task is cancelled.
    public func send<Response>(_ request: Request<Response>) async throws(APIError) -> Response {
        let urlRequest = try await makeURLRequest(request)
        let data: Data
        let response: HTTPURLResponse
        do {
            try Task.checkCancellation()
            (data, response) = try await transport.send(urlRequest)
            try Task.checkCancellation()
        } catch {
            if error is CancellationError || (error as? URLError)?.code == .cancelled || Task.isCancelled {
                throw .cancelled
            }
            throw .transport(underlying: SendableError(error))
        }
        guard (200..<300).contains(response.statusCode) else {
            let serverError = try? JSONDecoder().decode(ServerErrorBody.self, from: data)
            throw .status(code: response.statusCode, message: serverError?.message, fieldErrors: serverError?.errors ?? [:], body: data)
        }
        do {
            return try request.decode(data)
        } catch {
            throw .decoding(underlying: SendableError(error))
        }
    }

    /// The `URLRequest` that `send` would send, for inspection and logging.
    public func makeURLRequest<Response>(_ request: Request<Response>) async throws(APIError) -> URLRequest {
        guard let url = url(for: request) else {
            throw .invalidRequest(reason: "no URL can be made of \(baseURL) and \(request.path)")
        }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.method.rawValue
        urlRequest.setValue("application/json", forHTTPHeaderField: "Accept")
        if let body = request.body {
            let encoded: (data: Data, contentType: String)
            do {
                encoded = try body.encoded()
            } catch {
                throw .invalidRequest(reason: "the body cannot be encoded: \(error)")
            }
            urlRequest.httpBody = encoded.data
            urlRequest.setValue(encoded.contentType, forHTTPHeaderField: "Content-Type")
        }
        if let tokenProvider, let token = await tokenProvider() {
            urlRequest.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        }
        for (name, value) in request.headers {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        return urlRequest
    }

    private func url<Response>(for request: Request<Response>) -> URL? {
        var base = baseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        let path = request.path.hasPrefix("/") ? request.path : "/" + request.path
        let items = request.query.compactMap { name, value in value.map { "\(FormEncoding.escape(name))=\(FormEncoding.escape($0))" } }
        return URL(string: base + path + (items.isEmpty ? "" : "?" + items.joined(separator: "&")))
    }
}

/// Carries any error across concurrency domains while keeping its description.
public struct SendableError: Error, Sendable, CustomStringConvertible {
    /// The original error's description.
    public let description: String
    /// The `URLError` code when the original error was one.
    public let urlErrorCode: URLError.Code?

    init(_ error: any Error) {
        description = String(describing: error)
        urlErrorCode = (error as? URLError)?.code
    }
}
