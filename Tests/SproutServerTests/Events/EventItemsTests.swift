import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing
@testable import SproutServer

/// The events' items: a created row's event carries the row exactly as its list shows it, to anyone; a row deleted
/// or hidden by a moderator is `….deleted` without one; no item carries an email address.
@Suite struct EventItemsTests {
    static let publicURL = "http://sprout.test"

    static func configure(_ configuration: inout SproutConfiguration) {
        configuration.server.publicURL = publicURL
    }

    /// The `data` of the (first) logged event `action` about `id`, enriched as the hub enriches it.
    static func event(_ database: SproutDatabase, _ topic: String, _ action: String, _ id: Int) async throws -> JSON {
        let logged = try await EventLog(executor: database.executor).events(in: topic, after: 0)
            .filter { $0.action == action && $0.item == String(id) }
        let (events, failure) = await EventItems.standard(executor: database.executor, publicURL: publicURL).enrich(Array(logged.prefix(1)))
        if let failure { throw failure }
        return try JSON(parsing: try #require(events.first).data)
    }

    /// The element of a list answer with this id (`idKey`: the list's name for it).
    static func element(_ list: JSON?, _ id: Int, idKey: String = "id") throws -> JSON {
        try #require(list?.array?.first { $0[idKey]?.int == id }, "\(id) is not in \(String(describing: list))")
    }

    @Test func aNewPostsAndCommentsItemIsTheirRowInTheCommunityLists() async throws {
        try await withTestApp(configure: Self.configure) { client, database in
            let writer = try await client.signUp("writer")
            let reader = try await client.signUp("reader")
            let post = try await client.createPost("새 글", as: writer)
            let comment = try await client.createComment("새 댓글", on: post, as: writer)

            let postEvent = try await Self.event(database, "community", "post.created", post)
            let posts = try await client.send(.get, "/posts?_sort=id:desc", headers: reader.bearer).json
            #expect(postEvent["item"] == (try Self.element(posts, post)))
            #expect(postEvent["action"] == .string("post.created"))

            let commentEvent = try await Self.event(database, "community", "comment.created", comment)
            let comments = try await client.send(.get, "/comments?post=\(post)", headers: reader.bearer).json
            #expect(commentEvent["item"] == (try Self.element(comments, comment)))
            #expect(commentEvent["parentId"] == .string(String(post)))
        }
    }

    @Test func aNewBoardPostsItemIsItsRowInTheBoardsList() async throws {
        try await withTestApp(configure: Self.configure) { client, database in
            let writer = try await client.signUp("writer")
            let reader = try await client.signUp("reader")
            let post = try #require(try await client.writePost("제목", "내용", as: writer)["postId"]?.int)

            let event = try await Self.event(database, "board:\(SeedBoard.free)", "board-post.created", post)
            let list = try await client.send(.get, "/api/v2/boards/\(SeedBoard.free)/posts", headers: reader.bearer).json
            #expect(event["item"] == (try Self.element(list?["value"], post, idKey: "postId")))
            #expect(event["item"]?["isOwner"] == .bool(false), "the same row for every subscriber: nobody's own")
        }
    }

    @Test func aNewProductsItemIsItsRowInTheProductsList() async throws {
        try await withTestApp(configure: Self.configure) { client, database in
            let vendor = try await client.makeVendor("seller")
            let product = try #require(try await client.registerProduct(as: vendor)["id"]?.int)

            let event = try await Self.event(database, "market", "product.created", product)
            let list = try await client.send(.get, "/api/products").json
            #expect(event["item"] == (try Self.element(list?["pages"], product)))
            #expect(event["item"]?["thumbnail"]?.string?.hasPrefix(Self.publicURL) == true)
        }
    }

    @Test func aNewTodosItemIsItsRowInTheTodoList() async throws {
        try await withTestApp(configure: Self.configure) { client, database in
            let todo = try await client.createTodo("오늘의 할 일")

            let event = try await Self.event(database, "todos:shared", "todo.created", todo)
            let list = try await client.send(.get, "/api/v2/todos").json
            #expect(event["item"] == (try Self.element(list?["data"], todo)))
            #expect(event["topic"] == .string("todos"))
        }
    }

    @Test func rowsHiddenByAModeratorAreDeletedForEveryone() async throws {
        try await withTestApp(configure: Self.configure) { client, database in
            let writer = try await client.signUp("writer")
            let post = try await client.createPost("숨길 글", as: writer)
            let shown = try await client.createPost("남을 글", as: writer)
            let comment = try await client.createComment("숨길 댓글", on: shown, as: writer)
            let underHidden = try await client.createComment("숨긴 글의 댓글", on: post, as: writer)
            let boardPost = try #require(try await client.writePost("숨길 제목", "내용", as: writer)["postId"]?.int)
            let product = try #require(try await client.registerProduct(as: try await client.makeVendor("seller"))["id"]?.int)
            let moderation = Moderation(database: database, configuration: SproutConfiguration())
            _ = try await moderation.apply(.hide, to: .post, ids: [post], by: .commandLine())
            _ = try await moderation.apply(.hide, to: .comment, ids: [comment], by: .commandLine())
            _ = try await moderation.apply(.hide, to: .boardPost, ids: [boardPost], by: .commandLine())
            _ = try await moderation.apply(.hide, to: .product, ids: [product], by: .commandLine())

            let hidden = [
                try await Self.event(database, "community", "post.created", post),
                try await Self.event(database, "community", "comment.created", comment),
                try await Self.event(database, "community", "comment.created", underHidden),
                try await Self.event(database, "board:\(SeedBoard.free)", "board-post.created", boardPost),
                try await Self.event(database, "market", "product.created", product),
            ]
            #expect(hidden.map { $0["action"]?.string } == ["post.deleted", "comment.deleted", "comment.deleted", "board-post.deleted", "product.deleted"])
            #expect(hidden.allSatisfy { $0["item"] == nil })
            // The post left shown still goes out with its row.
            #expect(try await Self.event(database, "community", "post.created", shown)["item"]?["id"]?.int == shown)
        }
    }

    @Test func deletedRowsAreDeletedWithoutAnItem() async throws {
        try await withTestApp(configure: Self.configure) { client, database in
            let writer = try await client.signUp("writer")
            let post = try await client.createPost("지울 글", as: writer)
            let shown = try await client.createPost("남을 글", as: writer)
            let comment = try await client.createComment("지울 댓글", on: shown, as: writer)
            let boardPost = try #require(try await client.writePost("지울 제목", "내용", as: writer)["postId"]?.int)
            let todo = try await client.createTodo("지워질 할 일 하나")
            let product = try #require(try await client.registerProduct(as: try await client.makeVendor("seller"))["id"]?.int)
            #expect(try await client.send(.delete, "/posts/\(post)", headers: writer.bearer).status == .ok)
            #expect(try await client.send(.delete, "/comments/\(comment)", headers: writer.bearer).status == .ok)
            #expect(try await client.send(.delete, "/api/v2/boards/\(SeedBoard.free)/posts/\(boardPost)", headers: writer.bearer).status.code < 300)
            #expect(try await client.send(.delete, "/api/v2/todos/\(todo)").status == .ok)
            _ = try await Moderation(database: database, configuration: SproutConfiguration()).apply(.delete, to: .product, ids: [product], by: .commandLine())

            let deleted = [
                try await Self.event(database, "community", "post.created", post),
                try await Self.event(database, "community", "comment.created", comment),
                try await Self.event(database, "board:\(SeedBoard.free)", "board-post.created", boardPost),
                try await Self.event(database, "todos:shared", "todo.created", todo),
                try await Self.event(database, "market", "product.created", product),
                try await Self.event(database, "community", "post.deleted", post),
            ]
            #expect(deleted.map { $0["action"]?.string } == ["post.deleted", "comment.deleted", "board-post.deleted", "todo.deleted", "product.deleted", "post.deleted"])
            #expect(deleted.allSatisfy { $0["item"] == nil })
        }
    }

    /// Even where every caller may read every address (`EMAIL_VISIBILITY=everyone`), an item is the same bytes
    /// for every subscriber and holds none.
    @Test func anItemNeverCarriesAnEmailAddress() async throws {
        try await withTestApp(configure: { Self.configure(&$0); $0.accounts.emailVisibility = .everyone }) { client, database in
            let writer = try await client.signUp("writer")
            let post = try await client.createPost("글", as: writer)
            let comment = try await client.createComment("댓글", on: post, as: writer)
            let boardPost = try #require(try await client.writePost("제목", "내용", as: writer)["postId"]?.int)
            let items = [
                try await Self.event(database, "community", "post.created", post)["item"],
                try await Self.event(database, "community", "comment.created", comment)["item"],
                try await Self.event(database, "board:\(SeedBoard.free)", "board-post.created", boardPost)["item"],
            ]
            #expect(items.allSatisfy { $0 != nil })
            for item in items {
                #expect(!"\(String(describing: item))".contains("writer@example.com"), "\(String(describing: item))")
            }
        }
    }

    /// The whole way: a stream open on a live server gets the new post's row in its `post.created` frame.
    @Test func aStreamsPostCreatedFrameCarriesTheRow() async throws {
        try await withTestApp(.live, configure: Self.configure) { client, database in
            let writer = try await client.signUp("writer")
            let port = try #require(client.port)
            let frame = try await RawConnection.open(port: port) { connection in
                try await connection.send("GET /api/events?topics=community HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
                var text = ""
                var inbound = connection.inbound.makeAsyncIterator()
                var posted = false
                let deadline = ContinuousClock.now + .seconds(20)
                while ContinuousClock.now < deadline, let buffer = try await inbound.next() {
                    text += String(buffer: buffer)
                    if !posted, text.contains("event: ready") {
                        posted = true
                        _ = try await client.createPost("실시간 글", as: writer)
                    }
                    if let start = text.range(of: "event: post.created"), text[start.upperBound...].contains("\n\n") {
                        return String(text[start.lowerBound...])
                    }
                }
                return text
            }
            // As a draining server does: the stream ends, so the test server stops at once (the closed connection
            // alone is noticed only by a failed heartbeat).
            await database.events.close()
            #expect(frame.hasPrefix("event: post.created"), "\(frame)")
            #expect(frame.contains(#""item":{"#), "\(frame)")
            #expect(frame.contains("실시간 글"), "\(frame)")
        }
    }
}
