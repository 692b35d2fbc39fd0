import Foundation
import SproutKit
import SproutWire
import Testing

/// SproutKit against a live server's `GET /api/events`: a second device follows a person's todos and diary as
/// they change, through the real stream.
@MainActor
@Suite struct LiveStreamEndToEndTests {
    /// A second device of the account `name` signed up with (`CommunityLiveTests.signedUp`).
    private func secondDevice(_ name: String, base: URL) async throws -> Session {
        let session = CommunityLiveTests.session(base)
        let signedIn = await session.logIn(identifier: name, password: "password-\(name)")
        try #require(signedIn, "log-in failed: \(session.errorMessage ?? "?")")
        return session
    }

    /// Waits until `condition` holds, checking every 20 ms; fails after `limit`.
    private func eventually(within limit: Duration = .seconds(20), _ what: String, _ condition: () throws -> Bool) async throws {
        let deadline = ContinuousClock.now + limit
        while try !condition() {
            guard ContinuousClock.now < deadline else { throw LiveStreamTimeout(what: what) }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    @Test func aSecondDeviceFollowsTheTodoListThroughTheStream() async throws {
        try await withLiveServer { base in
            let phone = try await CommunityLiveTests.signedUp("two-devices", base: base)
            let laptop = try await secondDevice("two-devices", base: base)
            let store = TodoListStore(client: laptop.todos)
            await store.refresh()
            let following = Task { try await store.follow(laptop.events([.todos])) }
            defer { following.cancel() }
            // The stream is open once the server counts it: a todo written before that would come before `ready`.
            try await Task.sleep(for: .milliseconds(300))
            let written = try await phone.todos.create(title: "휴대폰에서 쓴 할 일")
            try await eventually("the todo on the second device") { store.todos.contains { $0.id == written.id } }
            _ = try await phone.todos.update(id: written.id, isDone: true)
            try await eventually("the todo done on the second device") { store.todos.first { $0.id == written.id }?.isDone == true }
            _ = try await phone.todos.delete(id: written.id)
            try await eventually("the todo gone from the second device") { !store.todos.contains { $0.id == written.id } }
        }
    }

    /// A diary edit reaches the other device by the stream alone: nothing else makes it sync. (How soon is a
    /// benchmark's question, not a test's: a whole suite running beside it stretches any time.)
    @Test func aDiaryEditReachesTheOtherDeviceThroughTheStream() async throws {
        try await withLiveServer { base in
            let phone = try await CommunityLiveTests.signedUp("diary-devices", base: base)
            let laptop = try await secondDevice("diary-devices", base: base)
            let laptopDatabase = try DiaryDatabase()
            let laptopEngine = DiarySyncEngine(database: laptopDatabase, client: laptop.diary, sleep: { _ in })
            let following = Task { try await laptopEngine.follow(laptop.events([.diary])) }
            defer { following.cancel() }
            try await Task.sleep(for: .milliseconds(300))
            let id = UUID()
            _ = try await phone.diary.put(id: id, write: DiaryEntryWriteJSON(title: "휴대폰의 일기", body: "본문"))
            try await eventually(within: .seconds(20), "the entry on the second device") { try laptopDatabase.entries().contains { $0.title == "휴대폰의 일기" } }
        }
    }
}

struct LiveStreamTimeout: Error, CustomStringConvertible {
    let what: String
    var description: String { "no \(what) in time" }
}
