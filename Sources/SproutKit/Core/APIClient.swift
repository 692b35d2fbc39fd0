import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Supplies the Bearer token for `Authorization`, or nil to send the request without one.
public typealias TokenProvider = @Sendable () async -> String?

/// Told the Bearer token a request carried when the server answered it with 401: the token is no longer good.
/// `send` waits for it before throwing, so whoever sees the error already sees the token's owner signed out.
public typealias UnauthorizedHandler = @Sendable (_ rejectedToken: String) async -> Void

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
    let onUnauthorized: UnauthorizedHandler?
    /// Whether plain http is allowed to a host other than this device.
    public let allowsInsecureHTTP: Bool

    /// - Parameters:
    ///   - baseURL: the server's address; request paths are appended to it. It must be https, except for this
    ///     device's own addresses (`localhost`, `127.0.0.0/8`, `::1`), unless `allowsInsecureHTTP` says otherwise.
    ///   - transport: how requests travel; `URLSessionTransport()` unless a test needs otherwise.
    ///   - tokenProvider: asked before every request for a Bearer token.
    ///   - allowsInsecureHTTP: allow plain http to other hosts (a development server on the local network);
    ///     tokens and passwords then cross the network readable by anyone on the way.
    ///   - onUnauthorized: called with the token a request carried when its answer is 401 (a request sent
    ///     without a token never calls it); a `Session` signs out there.
    public init(
        baseURL: URL,
        transport: any HTTPTransport = URLSessionTransport(),
        tokenProvider: TokenProvider? = nil,
        allowsInsecureHTTP: Bool = false,
        onUnauthorized: UnauthorizedHandler? = nil
    ) {
        self.baseURL = baseURL
        self.transport = transport
        self.tokenProvider = tokenProvider
        self.allowsInsecureHTTP = allowsInsecureHTTP
        self.onUnauthorized = onUnauthorized
    }

    /// Sends `request` and decodes its answer.
    /// - Throws: `APIError` only; `.cancelled` when the calling task is cancelled.
    public func send<Response>(_ request: Request<Response>) async throws(APIError) -> Response {
        try await sendReadingStatus(request).response
    }

    /// Like `send`, and also answers the success status, for APIs that tell outcomes apart by it alone (the
    /// Diary's `PUT`: 201 created, 200 replaced).
    /// - Throws: `APIError` only; `.cancelled` when the calling task is cancelled.
    public func sendReadingStatus<Response>(_ request: Request<Response>) async throws(APIError) -> (response: Response, status: Int) {
        let urlRequest = try await makeURLRequest(request)
        let data: Data
        let response: HTTPURLResponse
        do {
            try Task.checkCancellation()
            // No cancellation check once the answer is here: the server has acted on the request, and a caller
            // told "cancelled" would undo, on screen, a change that was made.
            (data, response) = try await transport.send(urlRequest)
        } catch {
            if error is CancellationError || (error as? URLError)?.code == .cancelled || Task.isCancelled {
                throw .cancelled
            }
            throw .transport(underlying: SendableError(error))
        }
        guard (200..<300).contains(response.statusCode) else {
            if response.statusCode == 401, let onUnauthorized, let token = Self.bearerToken(of: urlRequest) {
                await onUnauthorized(token)
            }
            let serverError = try? JSONDecoder().decode(ServerErrorBody.self, from: data)
            throw .status(code: response.statusCode, message: serverError?.message, fieldErrors: serverError?.errors ?? [:], body: data)
        }
        do {
            return (try request.decode(data), response.statusCode)
        } catch {
            throw .decoding(underlying: SendableError(error))
        }
    }

    /// The `URLRequest` that `send` would send, for inspection and logging.
    public func makeURLRequest<Response>(_ request: Request<Response>) async throws(APIError) -> URLRequest {
        try checkScheme()
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

    /// The token the request actually carries (a request's own `Authorization` header wins over the provider's).
    private static func bearerToken(of request: URLRequest) -> String? {
        guard let header = request.value(forHTTPHeaderField: "Authorization") else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return String(parts[1])
    }

    /// https everywhere; plain http only to this device, or where the app has explicitly allowed it.
    private func checkScheme() throws(APIError) {
        switch baseURL.scheme?.lowercased() {
        case "https":
            return
        case "http":
            if allowsInsecureHTTP || Self.isLoopback(host: baseURL.host) { return }
            throw .invalidRequest(reason: "\(baseURL) is plain http to another host: use https, or allowsInsecureHTTP for a development server")
        default:
            throw .invalidRequest(reason: "\(baseURL) is not an http or https URL")
        }
    }

    /// `localhost`, `127.0.0.0/8` and `::1`: traffic to them never leaves the device.
    static func isLoopback(host: String?) -> Bool {
        guard var host = host?.lowercased() else { return false }
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host == "localhost" || host.hasSuffix(".localhost") || host == "::1" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
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
