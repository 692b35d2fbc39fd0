import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import SproutServer

/// Writes answer from what they really changed: of several DELETEs of one post only one succeeds, and an edit
/// racing a delete never answers 200 with a post that is gone.
@Suite struct CommunityWriteRaceTests {
    @Test func concurrentDeletesOfOnePostSucceedOnce() async throws {
        try await withTestApp { client, _ in
            let owner = try await client.signUp("racer")
            for round in 0..<5 {
                let post = try await client.createPost("round \(round)", as: owner)
                try await client.createComment("c", on: post, as: owner)
                let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                    for _ in 0..<4 { group.addTask { try await client.send(.delete, "/posts/\(post)", headers: owner.bearer).status } }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(statuses.filter { $0 == .ok }.count == 1, "\(statuses)")
                #expect(statuses.filter { $0 == .notFound }.count == 3, "\(statuses)")
            }
        }
    }

    @Test func anEditRacingADeleteNeverReportsAGhost() async throws {
        try await withTestApp { client, _ in
            let owner = try await client.signUp("editor")
            for round in 0..<5 {
                let post = try await client.createPost("round \(round)", as: owner)
                async let edit = client.sendForm(.put, "/posts/\(post)", "text=edited", headers: owner.bearer)
                async let delete = client.send(.delete, "/posts/\(post)", headers: owner.bearer)
                let (edited, deleted) = try await (edit, delete)
                #expect(deleted.status == .ok)
                #expect(edited.status == .ok || edited.status == .notFound)
                if edited.status == .ok {
                    // The edit came first: the delete answered the edited post.
                    #expect(deleted.json?["text"] == .string("edited"))
                }
                #expect(try await client.send(.get, "/posts/\(post)", headers: owner.bearer).status == .notFound)
            }
        }
    }
}
