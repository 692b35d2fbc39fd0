import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SproutKit
import SproutWire
import Testing

/// `DiaryClient` against the fake server: the requests it sends and how it reads answers and errors.
@Suite struct DiaryClientTests {
    @Test func putTellsCreatedFromReplaced() async throws {
        let server = DiaryFakeServer()
        let id = UUID()
        let write = DiaryEntryWriteJSON(title: "제목", body: "본문", createdAt: "2026-11-23T11:02:03.456Z")
        let (first, created) = try await server.client.put(id: id, write: write)
        #expect(created && first.id == id.uuidString.lowercased() && first.createdAt == "2026-11-23T11:02:03.456Z")
        let (again, createdAgain) = try await server.client.put(id: id, write: write)
        #expect(!createdAgain && again == first, "an unchanged write changes nothing")
        #expect(server.requestLines == ["PUT /api/diary/entries/\(id.uuidString.lowercased())", "PUT /api/diary/entries/\(id.uuidString.lowercased())"])
    }

    @Test func aWriteOmitsWhatItDoesNotSet() async throws {
        let server = DiaryFakeServer()
        _ = try await server.client.put(id: UUID(), write: DiaryEntryWriteJSON(title: "제목", body: ""))
        let body = try #require(server.requests.first?.httpBody)
        let object = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        #expect(Set(object.keys) == ["title", "body"])
        #expect(server.requests.first?.value(forHTTPHeaderField: "Authorization") == "Bearer test-token")
    }

    @Test func entryDeleteVersionsAndPage() async throws {
        let server = DiaryFakeServer()
        let id = UUID()
        let written = server.write(id, title: "하나", body: "")
        _ = try await server.client.put(id: id, write: DiaryEntryWriteJSON(title: "둘", body: "", baseUpdatedAt: written.updatedAt))
        #expect(try await server.client.entry(id: id).title == "둘")
        let page = try await server.client.page(limit: 10, offset: 0)
        #expect(page.total == 1 && page.entries.map(\.title) == ["둘"])
        let tombstone = try await server.client.delete(id: id)
        #expect(tombstone.deleted && tombstone.id == id.uuidString.lowercased())
        let versions = try await server.client.versions(id: id)
        #expect(versions.map(\.title) == ["둘", "하나"] && versions.map(\.reason) == ["deleted", "replaced"])
        let query = DiaryFakeServer.query(try #require(server.requests.first { $0.url?.query?.contains("offset") == true }))
        #expect(query == ["limit": "10", "offset": "0"])
    }

    @Test func aMissingEntryIsNotFoundWithTheServersMessage() async throws {
        let server = DiaryFakeServer()
        await #expect {
            _ = try await server.client.entry(id: UUID())
        } throws: { error in
            let error = try #require(error as? SproutError)
            return error.kind == .notFound && error.statusCode == 404 && error.serverMessage == "no entry" && error.message == "삭제되었거나 없는 일기입니다."
        }
        await #expect { try await server.client.delete(id: UUID()) } throws: { ($0 as? SproutError)?.kind == .notFound }
        await #expect { _ = try await server.client.versions(id: UUID()) } throws: { ($0 as? SproutError)?.kind == .notFound }
    }

    @Test func statusesAreSortedIntoKinds() async throws {
        let cases: [(Int, SproutError.Kind, Bool)] = [
            (400, .invalidRequest, false), (401, .unauthorized, false), (404, .notFound, false), (413, .tooLarge, false),
            (409, .unavailable, true), (429, .unavailable, true), (500, .unavailable, true), (502, .unavailable, true), (503, .unavailable, true), (418, .other, false),
        ]
        for (status, kind, retryable) in cases {
            let client = DiaryClient(client: APIClient(baseURL: DiaryFakeServer.base, transport: StubTransport.answering(status: status, body: #"{"message":"no"}"#)))
            do {
                _ = try await client.changes(since: DiaryClient.beginning)
                Issue.record("HTTP \(status) did not throw")
            } catch {
                #expect(error.kind == kind && error.isRetryable == retryable && error.serverMessage == "no" && error.statusCode == status)
            }
        }
        let offline = DiaryClient(client: APIClient(baseURL: DiaryFakeServer.base, transport: StubTransport { _ in throw URLError(.notConnectedToInternet) }))
        await #expect { _ = try await offline.page() } throws: { ($0 as? SproutError)?.kind == .offline && ($0 as? SproutError)?.isRetryable == true }
    }

    @Test func changesAskSinceACursor() async throws {
        let server = DiaryFakeServer()
        let first = server.write(UUID(), title: "하나", body: "")
        server.write(UUID(), title: "둘", body: "")
        let all = try await server.client.changes(since: DiaryClient.beginning, limit: 1)
        #expect(all.changes.map(\.title) == ["하나"] && all.hasMore && all.now == first.updatedAt)
        let rest = try await server.client.changes(since: all.now)
        #expect(rest.changes.map(\.title) == ["둘"] && !rest.hasMore)
        #expect(DiaryFakeServer.query(server.requests[0]) == ["since": "1970-01-01T00:00:00Z", "limit": "1"])
    }

    @Test func theWeatherIsAskedWithPlainDecimals() async throws {
        let stub = RecordingStub(body: #"{"main":"Clear","description":"clear sky","icon":"01d","tempC":21.5}"#)
        let client = DiaryClient(client: APIClient(baseURL: DiaryFakeServer.base, transport: stub))
        let weather = try await client.weather(latitude: 0.00001, longitude: -180)
        #expect(weather == DiaryWeatherJSON(main: "Clear", description: "clear sky", icon: "01d", tempC: 21.5))
        let url = try #require(stub.lastRequest?.url)
        #expect(url.path == "/api/weather" && url.query == "lat=0.000010&lon=-180.000000")
    }
}
