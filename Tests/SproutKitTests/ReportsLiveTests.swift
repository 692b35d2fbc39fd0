import Foundation
import SproutKit
import SproutServer
import SproutWire
import Testing

/// `Session.reports` against a live server: a report is filed once per person and item, refusals are sorted and
/// said in Korean, and an empty reason is refused before anything is sent.
@MainActor @Suite struct ReportsLiveTests {
    @Test func aSignedInPersonReportsAPostOnceAndTheRefusalsAreSorted() async throws {
        try await withLiveServer { base in
            let author = try await CommunityLiveTests.signedUp("author", base: base)
            let reader = try await CommunityLiveTests.signedUp("reader", base: base)
            let post = try await author.community.createPost(text: "수상한 광고")

            let report = try await reader.reports.report(.post, id: post.id, reason: "  광고예요  ")
            #expect(report.kind == "post" && report.targetID == post.id && report.reason == "광고예요")
            #expect(try await reader.reports.report(.post, id: post.id, reason: "또").id == report.id)

            await #expect { try await reader.reports.report(.boardPost, id: 999_999, reason: "없는 글") } throws: { error in
                let error = error as? SproutError
                return error?.kind == .notFound && error?.service == .reports && error?.message == "삭제되었거나 볼 수 없는 글입니다."
            }
            await #expect { try await reader.reports.report(.post, id: post.id, reason: "   ") } throws: { error in
                (error as? SproutError)?.kind == .invalidRequest && (error as? SproutError)?.statusCode == nil
            }
            #expect(!ReportsClient.isAcceptableReason(String(repeating: "가", count: 1_001)))
            let anonymous = CommunityLiveTests.session(base)
            await #expect { try await anonymous.reports.report(.post, id: post.id, reason: "익명") } throws: { error in
                (error as? SproutError)?.kind == .unauthorized
            }
        }
    }
}
