import Foundation
import SproutKit
import SproutWire
import Testing

/// A new entry's weather: asked for once, when the entry is first saved, attached when it arrives; an entry is
/// never held back or lost for want of weather, and no weather is ever made up.
@MainActor
@Suite struct DiaryWeatherTests {
    private func store(_ server: DiaryFakeServer, locator: DiaryTest.Locator) throws -> DiaryStore {
        DiaryStore(database: try DiaryDatabase(), weather: DiaryWeatherSource(client: server.client, location: locator.provider))
    }

    @Test func theWeatherIsAskedForOnceWhenAnEntryIsFirstSaved() async throws {
        let server = DiaryFakeServer()
        let locator = DiaryTest.Locator()
        let store = try store(server, locator: locator)
        let editor = store.makeEditor()
        editor.textChanged("제")
        editor.textChanged("제목")
        editor.textChanged("제목\n본문")
        editor.editingEnded()
        editor.leaving()
        editor.enteredBackground()
        await store.weatherRequestsFinished()

        #expect(locator.calls == 1)
        #expect(server.requestLines == ["GET /api/weather"])
        let query = DiaryFakeServer.query(try #require(server.requests.first))
        #expect(query["lat"] == "37.785800" && query["lon"] == "-122.406400")
        let entry = try #require(store.entries.first)
        #expect(entry.weather == DiaryFakeServer.clouds && entry.title == "제목" && entry.body == "본문")
        #expect(entry.weatherIconURL?.absoluteString == "https://openweathermap.org/img/wn/02n@2x.png")
        #expect(store.lastWeatherOutcome == .weather(DiaryFakeServer.clouds))
    }

    @Test func theEntryIsSavedBeforeItsWeatherArrives() async throws {
        let server = DiaryFakeServer()
        server.hold()
        let store = try store(server, locator: DiaryTest.Locator())
        let entry = try #require(store.create(text: "날씨를 기다리는 일기"))
        try await server.waitForRequests(1)
        #expect(store.entries.map(\.id) == [entry.id] && store.entries.first?.weather == nil)

        // Edited while the weather is on its way: the edit stays, the weather joins it.
        #expect(store.update(id: entry.id, text: "날씨를 기다리는 일기\n고쳤다"))
        server.release()
        await store.weatherRequestsFinished()
        let saved = try #require(store.entry(id: entry.id))
        #expect(saved.weather == DiaryFakeServer.clouds && saved.body == "고쳤다")
    }

    @Test(arguments: [503, 502, 500])
    func aWeatherFailureLeavesTheEntrySavedWithoutWeather(status: Int) async throws {
        let server = DiaryFakeServer()
        server.setWeather(status: status)
        let store = try store(server, locator: DiaryTest.Locator())
        let entry = try #require(store.create(text: "흐린 날\n본문"))
        await store.weatherRequestsFinished()
        #expect(store.entries.map(\.id) == [entry.id] && store.entries.first?.weather == nil)
        guard case .failed(let error)? = store.lastWeatherOutcome else {
            Issue.record("expected a failure, got \(String(describing: store.lastWeatherOutcome))")
            return
        }
        #expect(error.kind == .unavailable && error.statusCode == status && error.operation == .weather)
        #expect(error.message == "날씨 정보를 가져오지 못했습니다.")
    }

    @Test func noNetworkLeavesTheEntrySavedWithoutWeather() async throws {
        let server = DiaryFakeServer()
        server.fail(.offline)
        let store = try store(server, locator: DiaryTest.Locator())
        store.create(text: "비행기 안에서")
        await store.weatherRequestsFinished()
        #expect(store.entries.map(\.title) == ["비행기 안에서"] && store.entries.first?.weather == nil)
        guard case .failed(let error)? = store.lastWeatherOutcome else {
            Issue.record("expected a failure, got \(String(describing: store.lastWeatherOutcome))")
            return
        }
        #expect(error.kind == .offline && error.message == "인터넷 연결에 실패하였습니다.")
    }

    @Test func noLocationMeansNoWeatherAndNoWeatherRequest() async throws {
        let server = DiaryFakeServer()
        let locator = DiaryTest.Locator(nil)
        let store = try store(server, locator: locator)
        store.create(text: "어딘지 모를 곳")
        await store.weatherRequestsFinished()
        #expect(locator.calls == 1 && server.requests.isEmpty)
        #expect(store.entries.first?.weather == nil && store.lastWeatherOutcome == .noLocation)
    }

    @Test func editsNeverAskForTheWeatherAgain() async throws {
        let server = DiaryFakeServer()
        server.setWeather(status: 503)
        let locator = DiaryTest.Locator()
        let store = try store(server, locator: locator)
        let entry = try #require(store.create(text: "제목"))
        await store.weatherRequestsFinished()
        server.setWeather(status: 200, weather: DiaryFakeServer.clouds)

        let opened = try #require(store.entry(id: entry.id))
        let editor = store.makeEditor(for: opened)
        editor.textChanged("제목\n고쳤다")
        editor.leaving()
        store.update(id: entry.id, text: "제목\n또 고쳤다")
        await store.weatherRequestsFinished()
        #expect(locator.calls == 1 && server.requests.count == 1)
        #expect(store.entry(id: entry.id)?.weather == nil, "a failed first attempt is not made up for later")
    }

    @Test func theSampleImportAsksForNoWeather() async throws {
        let server = DiaryFakeServer()
        let locator = DiaryTest.Locator()
        let store = try store(server, locator: locator)
        try DiarySampleImporter.importSample(try FixtureFile.data("Diary/sample.json"), into: store)
        await store.weatherRequestsFinished()
        #expect(store.entries.count == 15 && store.entries.allSatisfy { $0.weather == nil })
        #expect(locator.calls == 0 && server.requests.isEmpty)
    }

    @Test func theWeatherOfADeletedEntryIsDropped() async throws {
        let server = DiaryFakeServer()
        server.hold()
        let store = try store(server, locator: DiaryTest.Locator())
        let entry = try #require(store.create(text: "곧 지울 일기"))
        try await server.waitForRequests(1)
        store.delete(id: entry.id)
        server.release()
        await store.weatherRequestsFinished()
        #expect(try store.entries.isEmpty && store.database.outbox().isEmpty)
    }
}
