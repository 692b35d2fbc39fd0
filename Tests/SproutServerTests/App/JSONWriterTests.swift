import Foundation
import Testing
import SproutWire
@testable import SproutServer

/// The todo answers, written from their models by hand, are byte for byte what the shared JSONEncoder writes of
/// SproutWire's envelopes.
@Suite struct JSONWriterTests {
    static func written(_ value: some JSONWritable) -> [UInt8] {
        var writer = JSONWriter()
        value.writeJSON(into: &writer)
        return Array(writer.buffer.readableBytesView)
    }

    static func encoded(_ value: some Encodable) throws -> [UInt8] {
        Array(try sharedJSONEncoder.encode(value))
    }

    static let awkwardTitles: [String] = [
        "plain title", "따옴표 \" 와 역슬래시 \\ 그리고 /슬래시/", "tab\tnewline\nreturn\rfeed\u{0C}back\u{08}",
        "\u{00}\u{01}\u{1F}\u{7F}", "emoji 😀 and é (NFD e\u{301})", "\u{2028}\u{2029}\u{FEFF}", "",
        String((0..<32).map { Character(Unicode.Scalar($0)!) }),
    ]

    /// The wire shape as SproutWire describes it, built from a model the way the server once built it.
    static func wire(_ todo: Todo) -> TodoJSON {
        TodoJSON(id: todo.id, title: todo.title, isDone: todo.isDone,
                 createdAt: LaravelTimestamp.string(from: todo.createdAt), updatedAt: LaravelTimestamp.string(from: todo.updatedAt))
    }

    static let dates = [0, 1_694_887_658, 1_704_067_200.25, 1_641_185_667.476999, 1_641_185_667.999_9999, -0.0005, 4_102_444_800]
        .map(Date.init(timeIntervalSince1970:))

    @Test func aTodoAnswerIsWrittenFromItsModelAsJSONEncoderWritesTheEnvelope() throws {
        for (index, title) in Self.awkwardTitles.enumerated() {
            let todo = Todo(id: index * 1_000_003, title: title, isDone: index.isMultiple(of: 2),
                            createdAt: Self.dates[index % Self.dates.count], updatedAt: Self.dates[(index + 3) % Self.dates.count])
            let answer = TodoAnswer(todo: todo, message: "할일 조회 성공")
            let envelope = LaravelEnvelope(data: Self.wire(todo), message: "할일 조회 성공")
            #expect(Self.written(answer) == (try Self.encoded(envelope)), "\(title.debugDescription)")
        }
    }

    @Test func pagesFullAndEmptyAreWrittenFromTheirModelsAsJSONEncoderWritesThem() throws {
        let todos = Self.awkwardTitles.enumerated().map { index, title in
            Todo(id: index + 1, title: title, isDone: false, createdAt: Self.dates[index % Self.dates.count], updatedAt: Self.dates[1])
        }
        for (data, page, total) in [(todos, 1, todos.count), ([], 7, 3), (Array(todos.prefix(2)), 2, 1_000_000)] {
            var request = TodoPageRequest()
            request.page = page
            request.perPage = 2
            let answer = TodoPageAnswer(page: TodoPage(todos: data, total: total), request: request, message: "할일 목록 조회 성공")
            let envelope = LaravelPage(data: data.map(Self.wire), meta: LaravelPageMeta(page: page, perPage: 2, count: data.count, total: total), message: "할일 목록 조회 성공")
            #expect(Self.written(answer) == (try Self.encoded(envelope)))
        }
    }
}

/// The writer's own numbers and dates, against Swift's and `UTCTimestamp`'s text.
@Suite struct JSONWriterNumberTests {
    @Test func integersAreWrittenAsSwiftPrintsThem() {
        for value in [0, 1, 9, 10, 99, 100, -1, -10, 1_000_003, Int.max, Int.min, Int.max - 1, Int.min + 1] {
            var writer = JSONWriter()
            writer.int(value)
            #expect(String(decoding: writer.buffer.readableBytesView, as: UTF8.self) == String(value))
        }
    }

    @Test func datesWrittenInPlaceAreUTCTimestampsText() {
        var generator = SystemRandomNumberGenerator()
        let dates = [0, -0.0005, 1_641_185_667.476999, 1_641_185_667.999_9999, 4_102_444_800].map(Date.init(timeIntervalSince1970:))
            + (0..<500).map { _ in Date(timeIntervalSince1970: Double.random(in: -2_208_988_800...7_258_118_400, using: &generator)) }
        for date in dates {
            for digits in [0, 2, 3, 6] {
                var writer = JSONWriter()
                writer.timestamp(date, fractionDigits: digits)
                #expect(String(decoding: writer.buffer.readableBytesView, as: UTF8.self) == "\"" + UTCTimestamp.string(from: date, fractionDigits: digits) + "\"")
            }
        }
    }
}

/// The hand-written Community JSON is byte for byte what the shared JSONEncoder writes.
@Suite struct CommunityJSONWriterTests {
    static let comments = JSONWriterTests.awkwardTitles.enumerated().map { index, text in
        CommentShallowJSON(id: index + 100, comment: text, user: index.isMultiple(of: 3) ? nil : index, post: index.isMultiple(of: 2) ? 42 : nil,
                           createdAt: "2022-01-05T07:20:11.009Z", updatedAt: "2022-01-05T07:20:11.010Z")
    }

    static let writtenAt = Date(timeIntervalSince1970: 1_641_366_731.009)

    static func author(_ id: Int, blocked: Bool?) -> Author {
        Author(id: id, username: "사용자 \"\(id)\"", email: "u\(id)@example.com", blocked: blocked,
               createdAt: Date(timeIntervalSince1970: 1_641_187_267.412), updatedAt: Date(timeIntervalSince1970: 1_641_187_267.476999))
    }

    /// Viewers: the author of every third row (whole addresses), someone else (masked), and addresses public.
    static let disclosures = [
        EmailDisclosure(viewerID: 2, visibility: .owner), EmailDisclosure(viewerID: 999, visibility: .owner),
        EmailDisclosure(viewerID: nil, visibility: .everyone),
    ]

    @Test func postsWrittenFromTheirRowsAreWhatJSONEncoderWritesOfTheirDescription() throws {
        let comments = JSONWriterTests.awkwardTitles.enumerated().map { index, text in
            ShallowComment(id: index + 100, text: text, authorID: index, postID: 42,
                           createdAt: Self.writtenAt + Double(index) * 86_400.001, updatedAt: Self.writtenAt + Double(index) * 3_600)
        }
        let posts = JSONWriterTests.awkwardTitles.enumerated().map { index, text in
            Post(id: index + 1, text: text, author: Self.author(index % 3 + 1, blocked: [nil, true, false][index % 3]),
                 createdAt: Self.writtenAt - Double(index) * 1_000_000.5, updatedAt: Self.writtenAt,
                 comments: Array(comments.prefix(index)), hiddenAt: index.isMultiple(of: 4) ? Self.writtenAt : nil)
        }
        for emails in Self.disclosures {
            #expect(JSONWriterTests.written(posts.map { PostAnswer(post: $0, emails: emails) }) == (try JSONWriterTests.encoded(posts.map { PostJSON($0, emails: emails) })))
        }
        #expect(JSONWriterTests.written([PostAnswer]()) == (try JSONWriterTests.encoded([PostJSON]())))
    }

    /// Hidden comments too: `CommentJSON`'s encoder left `hidden` out, which the answers have always written.
    @Test func commentsWrittenFromTheirRowsAreWhatJSONEncoderWritesOfTheirDescription() throws {
        let comments = JSONWriterTests.awkwardTitles.enumerated().map { index, text in
            Comment(id: index, text: text, author: Self.author(index % 3 + 1, blocked: [nil, true, false][index % 3]),
                    post: ShallowPost(id: 42, text: text, authorID: 7, createdAt: Self.writtenAt - 60, updatedAt: Self.writtenAt - 59.999),
                    createdAt: Self.writtenAt + Double(index), updatedAt: Self.writtenAt + Double(index) + 0.001,
                    hiddenAt: index.isMultiple(of: 3) ? Self.writtenAt : nil)
        }
        for emails in Self.disclosures {
            #expect(JSONWriterTests.written(comments.map { CommentAnswer(comment: $0, emails: emails) }) == (try JSONWriterTests.encoded(comments.map { CommentJSON($0, emails: emails) })))
        }
    }

    @Test func usersAndAuthAnswersAreWrittenAsJSONEncoderWritesThem() throws {
        let posts = [PostShallowJSON(id: 1, text: "글", user: 7, createdAt: "2022-01-05T07:12:45.123Z", updatedAt: "2022-01-05T07:12:45.123Z")]
        for (blocked, withLists) in [(nil, true), (true, false), (false, true)] as [(Bool?, Bool)] {
            let user = StrapiUserJSON(id: 7, username: "sesac\\", email: "sesac@example.com", blocked: blocked,
                                      createdAt: "2022-01-03T05:21:07.412Z", updatedAt: "2022-01-03T05:21:07.431Z",
                                      posts: withLists ? posts : nil, comments: withLists ? Self.comments : nil)
            #expect(JSONWriterTests.written(user) == (try JSONWriterTests.encoded(user)))
            let auth = StrapiAuthJSON(jwt: "a.b.c", user: user)
            #expect(JSONWriterTests.written(auth) == (try JSONWriterTests.encoded(auth)))
        }
    }
}

/// Timestamps as Strapi and Laravel write them, against Foundation's own ISO 8601 formatter.
@Suite struct UTCTimestampTests {
    @Test func timestampsMatchFoundationsFormatter() throws {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let milliseconds = Int64.random(in: 0...4_102_444_800_000, using: &generator)
            let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
            let strapi = StrapiTimestamp.string(from: date)
            #expect(strapi == formatter.string(from: date), "\(milliseconds)")
            #expect(LaravelTimestamp.string(from: date).prefix(23) == strapi.prefix(23))
            #expect(LaravelTimestamp.string(from: date).hasSuffix("000Z"))
            // What is shown reads back as the same instant, and truncating twice changes nothing.
            let parsed = try #require(StrapiTimestamp.date(from: strapi))
            #expect(StrapiTimestamp.string(from: parsed) == strapi)
            #expect(date.truncatedToMilliseconds.truncatedToMilliseconds == date.truncatedToMilliseconds)
            #expect(StrapiTimestamp.string(from: date.truncatedToMilliseconds) == strapi)
        }
        #expect(LaravelTimestamp.string(from: Date(timeIntervalSince1970: 1_694_887_658.25)) == "2023-09-16T18:07:38.250000Z")
        #expect(StrapiTimestamp.string(from: Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00.000Z")
        // postgres-nio stores a Date cut to whole microseconds, downwards: ….477 comes back as ….476999.
        #expect(StrapiTimestamp.string(from: Date(timeIntervalSince1970: 1_641_185_667.476999)) == "2022-01-03T04:54:27.477Z")
        #expect(StrapiTimestamp.string(from: Date(timeIntervalSince1970: 1_641_185_667.999_9999)) == "2022-01-03T04:54:28.000Z")
    }

    /// The date is worked out by arithmetic, not `gmtime_r`: the same fields as glibc's for every second from
    /// 1900 to 2200 that is tried, before 1970 too, and across leap days and the century years that are not leap.
    @Test func datesAreGlibcsFromBefore1970ToPast2100() {
        var generator = SystemRandomNumberGenerator()
        let boundaries: [Int] = [-2_208_988_800, -1, 0, 951_782_399, 951_782_400, 951_868_800, 4_107_542_399, 4_107_542_400, 7_258_118_400]
        let seconds = boundaries.flatMap { [$0 - 86_400, $0, $0 + 1] } + (0..<20_000).map { _ in Int.random(in: -2_208_988_800...7_258_118_400, using: &generator) }
        for second in seconds {
            var time = time_t(second)
            var parts = tm()
            gmtime_r(&time, &parts)
            let expected = String(format: "%04d-%02d-%02dT%02d:%02d:%02dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
                                  Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
            #expect(UTCTimestamp.string(from: Date(timeIntervalSince1970: Double(second)), fractionDigits: 0) == expected, "\(second)")
        }
    }
}

/// The hand-written Diary JSON is byte for byte what the shared JSONEncoder writes.
@Suite struct DiaryJSONWriterTests {
    static let weathers: [DiaryWeatherJSON?] = [
        nil, DiaryWeatherJSON(main: "Clear", icon: "01d"),
        DiaryWeatherJSON(main: "Clouds", description: "few \"clouds\" / 구름", icon: "02n", tempC: 21.5),
        DiaryWeatherJSON(main: "Rain", description: "", icon: "10d", tempC: 20.0),
        DiaryWeatherJSON(main: "Snow", icon: "13n", tempC: -3.25),
        DiaryWeatherJSON(main: "Mist", description: "mist", icon: "50d", tempC: 0.1),
        DiaryWeatherJSON(main: "Clear", icon: "01d", tempC: -150), DiaryWeatherJSON(main: "Clear", icon: "01d", tempC: 149.9),
        DiaryWeatherJSON(main: "Clear", icon: "01d", tempC: 0),
    ]

    static let entries = JSONWriterTests.awkwardTitles.enumerated().flatMap { index, text in
        weathers.map { weather in
            DiaryEntryJSON(id: "6f1c1c9e-0b7e-4c43-9a57-\(String(format: "%012d", index))", title: text, body: "둘째 줄\n" + text,
                           createdAt: "2024-03-01T09:00:00.000Z", updatedAt: "2024-03-01T09:00:00.\(String(format: "%03d", index))Z", weather: weather)
        }
    }

    @Test func entriesAndPagesAreWrittenAsJSONEncoderWritesThem() throws {
        for entry in Self.entries {
            #expect(JSONWriterTests.written(entry) == (try JSONWriterTests.encoded(entry)), "\(entry)")
        }
        for page in [DiaryPageJSON(entries: Self.entries, total: 1_234), DiaryPageJSON(entries: [], total: 0)] {
            #expect(JSONWriterTests.written(page) == (try JSONWriterTests.encoded(page)))
        }
    }

    @Test func changesLiveAndDeletedAreWrittenAsJSONEncoderWritesThem() throws {
        var changes = Self.entries.map(DiaryChangeJSON.init(entry:))
        changes.insert(DiaryChangeJSON(tombstoneID: "0d8e2b1a-aaaa-4bbb-8ccc-000000000001", updatedAt: "2024-03-02T10:00:00.001Z"), at: 3)
        var partial = DiaryChangeJSON(entry: Self.entries[0])
        (partial.title, partial.body, partial.createdAt) = (nil, nil, nil)
        changes.append(partial)
        for answer in [
            DiaryChangesJSON(changes: changes, now: "2024-03-02T10:00:00.002Z", hasMore: true),
            DiaryChangesJSON(changes: [], now: "1970-01-01T00:00:00.000Z", hasMore: false),
        ] {
            #expect(JSONWriterTests.written(answer) == (try JSONWriterTests.encoded(answer)))
        }
    }
}
