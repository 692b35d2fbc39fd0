import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends one prepared `URLRequest` and returns the raw answer. `URLSession` is the transport in apps; tests can
/// put a stub in its place for failures a live server cannot produce.
public protocol HTTPTransport: Sendable {
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse)
}

/// The transport that apps use: a `URLSession` (FoundationNetworking on Linux).
public struct URLSessionTransport: HTTPTransport {
    public let session: URLSession

    public init(session: URLSession = .shared) {
        self.session = session
    }

    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        return (data, http)
    }
}
