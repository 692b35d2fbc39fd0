import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SproutKit
import SproutWire
import Testing

/// What `MarketClient` sends, byte for byte where the server depends on it.
@Suite struct MarketClientTests {
    static let vendor = MarketVendorCredentials(vendorID: 7, identifier: "0f8e2c1a-7011-11ec-abfa-0123456789ab", secret: "vendorsecret")

    static func client(_ transport: RecordingTransport, generation: MarketAPIGeneration, credentials: MarketVendorCredentials? = vendor) -> MarketClient {
        MarketClient(client: APIClient(baseURL: MarketFakeServer.base, transport: transport, tokenProvider: { "account-token" }), generation: generation, credentials: credentials)
    }

    static func productAnswer(status: Int = 200) throws -> RecordingTransport {
        RecordingTransport(status: status, body: try MarketFixture.json(MarketFixture.product(id: 9)))
    }

    static func query(_ request: URLRequest?) -> [String: String] {
        let items = request.flatMap { URLComponents(url: $0.url!, resolvingAgainstBaseURL: false)?.queryItems } ?? []
        return Dictionary(uniqueKeysWithValues: items.map { ($0.name, $0.value ?? "") })
    }

    /// The parts of a multipart body, checked to start and end with the boundary: each part's header lines and bytes.
    static func parts(of body: Data, boundary: String) throws -> [(headers: String, data: Data)] {
        let opening = Data("--\(boundary)\r\n".utf8)
        let closing = Data("\r\n--\(boundary)--\r\n".utf8)
        try #require(body.starts(with: opening) && body.suffix(closing.count) == closing)
        var rest = body.dropFirst(opening.count).dropLast(closing.count)
        var parts: [(String, Data)] = []
        let separator = Data("\r\n--\(boundary)\r\n".utf8)
        while !rest.isEmpty {
            let end = rest.firstRange(of: separator)
            let part = rest[..<(end?.lowerBound ?? rest.endIndex)]
            let split = try #require(part.firstRange(of: Data("\r\n\r\n".utf8)))
            parts.append((String(decoding: part[..<split.lowerBound], as: UTF8.self), Data(part[split.upperBound...])))
            rest = end.map { rest[$0.upperBound...] } ?? rest[rest.endIndex...]
        }
        return parts
    }

    @Test(arguments: MarketAPIGeneration.allCases)
    func registerSendsParamsAndImagesAsMultipart(generation: MarketAPIGeneration) async throws {
        let transport = try Self.productAnswer(status: 201)
        let images = try MarketFixture.jpegs() + [MarketUpload(data: Data([0x89, 0x50, 0x4E, 0x47]), format: .png)]
        // The params say v3; the client's generation decides the key.
        let params = MarketProductParams(name: "맥북 & \"프로\"", description: "애플 맥북", price: 1_000_000, discountedPrice: 1000, stock: 120, currency: "KRW", secret: "vendorsecret", generation: .v3)
        let product = try await Self.client(transport, generation: generation).register(params, images: images)
        #expect(product.id == 9)

        let request = try #require(transport.requests.first)
        #expect(transport.requests.count == 1 && request.line == "POST /api/products")
        #expect(request.value(forHTTPHeaderField: "identifier") == Self.vendor.identifier)
        let contentType = try #require(request.value(forHTTPHeaderField: "Content-Type"))
        #expect(contentType.hasPrefix("multipart/form-data; boundary="))
        let boundary = String(contentType.dropFirst("multipart/form-data; boundary=".count))
        #expect(!boundary.isEmpty && !boundary.contains("\""))

        let parts = try Self.parts(of: try #require(request.httpBody), boundary: boundary)
        try #require(parts.count == 4)
        #expect(parts[0].headers == "Content-Disposition: form-data; name=\"params\"\r\nContent-Type: application/json")
        let json = try #require(try JSONSerialization.jsonObject(with: parts[0].data) as? [String: Any])
        #expect(Set(json.keys) == ["name", generation.descriptionKey, "price", "discounted_price", "stock", "currency", "secret"])
        #expect(json["name"] as? String == "맥북 & \"프로\"" && json[generation.descriptionKey] as? String == "애플 맥북")
        #expect(json["price"] as? Double == 1_000_000 && json["discounted_price"] as? Double == 1000 && json["stock"] as? Int == 120)
        #expect(json["currency"] as? String == "KRW" && json["secret"] as? String == "vendorsecret")
        #expect(parts[1].headers == "Content-Disposition: form-data; name=\"images\"; filename=\"red.jpg\"\r\nContent-Type: image/jpeg")
        #expect(parts[1].data == images[0].data)
        #expect(parts[2].headers == "Content-Disposition: form-data; name=\"images\"; filename=\"blue.jpg\"\r\nContent-Type: image/jpeg")
        #expect(parts[2].data == images[1].data)
        #expect(parts[3].headers == "Content-Disposition: form-data; name=\"images\"; filename=\"image.png\"\r\nContent-Type: image/png")
        #expect(parts[3].data == images[2].data)
    }

    @Test(arguments: MarketAPIGeneration.allCases)
    func modifySendsOnlyTheChangesWithTheGenerationsDescriptionKey(generation: MarketAPIGeneration) async throws {
        let transport = try Self.productAnswer(status: 202)
        let changes = MarketProductChanges(secret: "vendorsecret", description: "새 설명", price: 1500, thumbnailID: 91, generation: .v2)
        _ = try await Self.client(transport, generation: generation).modify(id: 9, changes: changes)
        let request = try #require(transport.requests.first)
        #expect(request.line == "PATCH /api/products/9")
        #expect(request.value(forHTTPHeaderField: "identifier") == Self.vendor.identifier)
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/json")
        let body = try #require(request.jsonBody)
        #expect(Set(body.keys) == ["secret", generation.descriptionKey, "price", "thumbnail_id"])
        #expect(body[generation.descriptionKey] as? String == "새 설명" && body["price"] as? Double == 1500 && body["thumbnail_id"] as? Int == 91)
        #expect(generation == .v2 ? body["description"] == nil : body["descriptions"] == nil)
    }

    @Test func theV2DeleteLooksUpTheProductSecretThenDeletesWithIt() async throws {
        let productSecret = "0f8e2c1a-7011-11ec-abfa-0123456789ab"
        let product = try MarketFixture.json(MarketFixture.product(id: 9))
        let transport = RecordingTransport { request in
            request.httpMethod == "POST" ? (200, Data("\(productSecret)\n".utf8)) : (200, product)
        }
        let deleted = try await Self.client(transport, generation: .v2).delete(id: 9, vendorSecret: "typed-secret")
        #expect(deleted.id == 9)
        #expect(transport.requests.map(\.line) == ["POST /api/products/9/secret", "DELETE /api/products/9/\(productSecret)"])
        #expect(transport.requests.allSatisfy { $0.value(forHTTPHeaderField: "identifier") == Self.vendor.identifier })
        #expect(transport.requests[0].jsonBody as? [String: String] == ["secret": "typed-secret"])
        #expect(transport.requests[1].httpBody == nil)
    }

    @Test func theV3DeleteLooksUpTheArchivedPathThenDeletesIt() async throws {
        let token = MarketDeleteToken(productID: 9, productSecret: "0f8e2c1a-6a2b-11ed-a917-0123456789ab")
        let product = try MarketFixture.json(MarketFixture.product(id: 9))
        // Quotes and white space around the path are tolerated.
        let transport = RecordingTransport { request in
            request.httpMethod == "POST" ? (200, Data(" \"\(token.path)\"\r\n".utf8)) : (200, product)
        }
        _ = try await Self.client(transport, generation: .v3).delete(id: 9, vendorSecret: "typed-secret")
        #expect(transport.requests.map(\.line) == ["POST /api/products/9/archived", "DELETE \(token.path)"])
        #expect(transport.requests.allSatisfy { $0.value(forHTTPHeaderField: "identifier") == Self.vendor.identifier })
        #expect(transport.requests[0].jsonBody as? [String: String] == ["secret": "typed-secret"])
    }

    @Test func theArchivedAnswerIsReadTolerantlyButOnlyAsAPathOfThisServer() async throws {
        let token = MarketDeleteToken(productID: 9, productSecret: "s3cret").text
        let answers = [
            "/api/products/\(token)": "/api/products/\(token)",
            "\"/api/products/\(token)\"": "/api/products/\(token)",
            "https://elsewhere.example/api/products/\(token)": "/api/products/\(token)",
            token: "/api/products/\(token)",
        ]
        for (answer, path) in answers {
            let transport = RecordingTransport { _ in (200, Data(answer.utf8)) }
            let target = try await Self.client(transport, generation: .v3).deleteTarget(id: 9, vendorSecret: "s")
            #expect(target == MarketDeleteTarget(productID: 9, path: path))
        }
        for answer in ["/api/vendors/me", "/api/products/", "/api/products/a/../../b", ""] {
            let transport = RecordingTransport { _ in (200, Data(answer.utf8)) }
            await #expect(throws: APIError.self) { try await Self.client(transport, generation: .v3).deleteTarget(id: 9, vendorSecret: "s") }
        }
    }

    @Test func productChangesWithoutCredentialsSendNothing() async throws {
        let transport = try Self.productAnswer()
        let client = Self.client(transport, generation: .v3, credentials: nil)
        let params = MarketProductParams(name: "이름", description: "", price: 1, discountedPrice: 0, stock: 0, currency: "KRW", secret: "", generation: .v3)
        await #expect { try await client.register(params, images: []) } throws: { ($0 as? APIError).map { if case .invalidRequest = $0 { true } else { false } } ?? false }
        await #expect(throws: APIError.self) { try await client.modify(id: 1, changes: MarketProductChanges(secret: "", generation: .v3)) }
        await #expect(throws: APIError.self) { try await client.delete(id: 1, vendorSecret: "x") }
        #expect(transport.requests.isEmpty)
    }

    @Test func listingSendsPageSizeAndSearch() async throws {
        let body = try MarketFixture.json(MarketPageJSON(pageNo: 2, itemsPerPage: 10, totalCount: 0, pages: []))
        let transport = RecordingTransport(body: body)
        let client = Self.client(transport, generation: .v2)
        _ = try await client.products(page: 2, itemsPerPage: 10, search: "맥북 & 프로")
        _ = try await client.products(page: 1, itemsPerPage: 10, search: "")
        #expect(Self.query(transport.requests[0]) == ["page_no": "2", "items_per_page": "10", "search_value": "맥북 & 프로"])
        #expect(transport.requests[0].url?.query?.contains("%EB%A7%A5%EB%B6%81%20%26%20") == true)
        #expect(Self.query(transport.requests[1]) == ["page_no": "1", "items_per_page": "10"])
        #expect(transport.requests.allSatisfy { $0.value(forHTTPHeaderField: "identifier") == nil })
    }

    @Test func vendorCallsCarryTheAccountToken() async throws {
        let vendor = try MarketFixture.json(MarketVendorJSON(id: 4, name: "새싹상회", identifier: "ad0c6c80-0000-4000-8000-000000000004", secret: "abcdefghij0123456789"))
        let transport = RecordingTransport(status: 201, body: vendor)
        let client = Self.client(transport, generation: .v3, credentials: nil)
        let registered = try await client.registerVendor(name: "새싹상회")
        #expect(registered == MarketVendor(id: 4, name: "새싹상회", identifier: "ad0c6c80-0000-4000-8000-000000000004", secret: "abcdefghij0123456789"))
        #expect(registered.credentials == MarketVendorCredentials(vendorID: 4, identifier: registered.identifier, secret: registered.secret))
        _ = try await client.myVendor()
        _ = try await client.rotateVendorSecret()
        #expect(transport.requests.map(\.line) == ["POST /api/vendors", "GET /api/vendors/me", "POST /api/vendors/me/secret"])
        #expect(transport.requests.allSatisfy { $0.value(forHTTPHeaderField: "Authorization") == "Bearer account-token" })
        #expect(transport.requests[0].jsonBody as? [String: String] == ["name": "새싹상회"])
    }

    @Test func productCallsNeverCarryTheAccountToken() async throws {
        let product = try MarketFixture.json(MarketFixture.product(id: 9))
        let page = try MarketFixture.json(MarketPageJSON(pageNo: 1, itemsPerPage: 20, totalCount: 0, pages: []))
        let transport = RecordingTransport { request in
            switch (request.httpMethod, request.url?.path) {
            case ("GET", "/api/products"): (200, page)
            case ("POST", "/api/products/9/archived"): (200, Data("/api/products/OXxz".utf8))
            default: (200, product)
            }
        }
        let client = Self.client(transport, generation: .v3)
        _ = try await client.products()
        _ = try await client.product(id: 9)
        _ = try await client.modify(id: 9, changes: MarketProductChanges(secret: "s", generation: .v3))
        _ = try await client.delete(id: 9, vendorSecret: "s")
        #expect(transport.requests.count == 5)
        #expect(transport.requests.allSatisfy { $0.value(forHTTPHeaderField: "Authorization") == nil })
    }

    @MainActor
    @Test func aRefusedIdentifierDoesNotSignTheSessionOut() async throws {
        let transport = RecordingTransport(status: 401, body: try MarketFixture.json(MarketErrorJSON(code: 401, message: "unknown identifier")))
        let session = Session(baseURL: MarketFakeServer.base, transport: transport, tokenStore: InMemoryTokenStore(StoredCredentials(token: "account-token", userID: 1)))
        let client = session.market(credentials: Self.vendor)
        await #expect { try await client.modify(id: 9, changes: MarketProductChanges(secret: "s", generation: .v3)) } throws: {
            ($0 as? APIError)?.sorted(for: .market, during: .modify).kind == .unauthorized
        }
        #expect(session.isSignedIn)
        // The vendor calls are the account's: a 401 there means the token is no longer good.
        await #expect(throws: APIError.self) { try await client.myVendor() }
        #expect(!session.isSignedIn && transport.requests.last?.value(forHTTPHeaderField: "Authorization") == "Bearer account-token")
    }

    @Test func theHealthCheckWantsOK() async throws {
        try await Self.client(RecordingTransport(body: Data("\"OK\"".utf8)), generation: .v2).healthCheck()
        #expect(Self.client(RecordingTransport(body: Data()), generation: .v2).generation == .v2)
        await #expect { try await Self.client(RecordingTransport(body: Data("\"DOWN\"".utf8)), generation: .v2).healthCheck() } throws: {
            if case .decoding = $0 as? APIError { true } else { false }
        }
    }
}
