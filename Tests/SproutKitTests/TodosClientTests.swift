import Foundation
import SproutKit
import SproutWire
import Testing

/// Every Todos endpoint through the kit, against a live Sprout server.
@Suite struct TodosClientTests {
    @Test func createShowListUpdateDeleteRoundTrip() async throws {
        try await withLiveServer { base in
            let todos = TodosClient(client: APIClient(baseURL: base))
            let before = Date().addingTimeInterval(-2)
            let created = try await todos.create(title: "장보기 목록 정리하기")
            #expect(created.title == "장보기 목록 정리하기")
            #expect(!created.isDone)
            #expect(created.createdAt >= before.addingTimeInterval(-1) && created.createdAt <= Date().addingTimeInterval(1))
            #expect(try await todos.todo(id: created.id) == created)

            let page = try await todos.list()
            #expect(page.todos == [created])
            #expect(page.total == 1)
            #expect(!page.hasMore)

            let renamed = try await todos.update(id: created.id, title: "장보기 목록 다시 정리하기")
            #expect(renamed.title == "장보기 목록 다시 정리하기")
            #expect(!renamed.isDone)
            let done = try await todos.update(id: created.id, isDone: true, encoding: .json)
            #expect(done.isDone)
            #expect(done.title == "장보기 목록 다시 정리하기")
            let viaMultipart = try await todos.update(id: created.id, isDone: false, encoding: .multipart)
            #expect(!viaMultipart.isDone)

            let deleted = try await todos.delete(id: created.id)
            #expect(deleted.id == created.id)
            await #expect {
                try await todos.todo(id: created.id)
            } throws: { error in
                (error as? APIError)?.statusCode == 404
            }
        }
    }

    @Test func everyCreateEncodingWorks() async throws {
        try await withLiveServer { base in
            let todos = TodosClient(client: APIClient(baseURL: base))
            for encoding in TodoBodyEncoding.allCases {
                let todo = try await todos.create(title: "created by \(encoding)", isDone: true, encoding: encoding)
                #expect(todo.isDone)
                #expect(todo.title == "created by \(encoding)")
            }
            #expect(try await todos.list().total == 3)
        }
    }

    @Test func searchFindsKoreanAndTextWithPlusSigns() async throws {
        try await withLiveServer { base in
            let todos = TodosClient(client: APIClient(baseURL: base))
            let cpp = try await todos.create(title: "C++ 공부하기 (템플릿)")
            _ = try await todos.create(title: "C 공부하기 (포인터)")
            let plus = try await todos.search("C++")
            #expect(plus.todos.map(\.id) == [cpp.id])
            let korean = try await todos.search("공부")
            #expect(korean.total == 2)
            #expect(try await todos.search("없는 검색어").todos.isEmpty)
        }
    }

    @Test func pagingAndFiltersFollowTheServersMeta() async throws {
        try await withLiveServer { base in
            let todos = TodosClient(client: APIClient(baseURL: base))
            for number in 1...12 { _ = try await todos.create(title: "paging todo \(number)", isDone: number.isMultiple(of: 4)) }
            let first = try await todos.list(page: 1, perPage: 5)
            #expect(first.todos.count == 5 && first.hasMore && first.lastPage == 3)
            #expect(first.todos.first?.title == "paging todo 12")
            let last = try await todos.list(page: 3, perPage: 5)
            #expect(last.todos.count == 2 && !last.hasMore)
            let oldestFirst = try await todos.list(perPage: 1, order: .oldestFirst)
            #expect(oldestFirst.todos.first?.title == "paging todo 1")
            let open = try await todos.list(perPage: 100, isDone: false)
            #expect(open.total == 9)
            #expect(open.todos.allSatisfy { !$0.isDone })
            let doneSearch = try await todos.search("paging", isDone: true)
            #expect(doneSearch.total == 3)
        }
    }

    @Test func refusalsCarryTheServersMessage() async throws {
        try await withLiveServer { base in
            let todos = TodosClient(client: APIClient(baseURL: base))
            do {
                _ = try await todos.create(title: "short")
                Issue.record("a 5-character title must be refused")
            } catch {
                let apiError = try #require(error as? APIError)
                #expect(apiError.statusCode == 422)
                #expect(apiError.message == "제목(title)은 6자 이상이어야 합니다.")
            }
        }
    }

    @Test func versionOneReachesTheSameData() async throws {
        try await withLiveServer { base in
            let v1 = TodosClient(client: APIClient(baseURL: base), version: "v1")
            let v2 = TodosClient(client: APIClient(baseURL: base))
            let todo = try await v1.create(title: "made through version one")
            #expect(try await v2.todo(id: todo.id) == todo)
        }
    }
}

@Suite struct LaravelDateTests {
    @Test func readsMicrosecondsAndWholeSeconds() throws {
        #expect(LaravelTimestamp.date(from: "2023-09-16T18:07:38.000000Z") == Date(timeIntervalSince1970: 1_694_887_658))
        #expect(LaravelTimestamp.date(from: "2023-09-16T18:07:38Z") == Date(timeIntervalSince1970: 1_694_887_658))
        let fractional = try #require(LaravelTimestamp.date(from: "2023-09-16T18:07:38.250000Z")).timeIntervalSince1970
        #expect(abs(fractional - 1_694_887_658.25) < 1e-6)
    }

    @Test(arguments: [
        "2023-09-16T18:07:38.1234567890123456789Z", "2023-13-16T18:07:38Z", "2023-09-16 18:07:38Z",
        "2023-09-16T18-07-38Z", "2023-09-16T18:07:38.Z", "garbage", "",
    ])
    func refusesWhatIsNotALaravelTimestamp(text: String) {
        #expect(LaravelTimestamp.date(from: text) == nil)
    }
}

@Suite struct TodoValidationTests {
    @Test func titleRulesMatchTheServer() {
        #expect(TodoValidation.validTitle("  여섯글자제목  ") == .success("여섯글자제목"))
        #expect(TodoValidation.validTitle("   ") == .failure(.empty))
        #expect(TodoValidation.validTitle("abcde") == .failure(.tooShort))
        #expect(TodoValidation.validTitle(String(repeating: "가", count: 256)) == .failure(.tooLong))
        #expect(TodoValidation.validTitle(String(repeating: "가", count: 255)) == .success(String(repeating: "가", count: 255)))
    }
}
