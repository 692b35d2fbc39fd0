import Testing
@testable import SproutServer

@Suite struct SubstringSearchIndexTests {
    @Test func theIndexIsAskedForEachDistinctTrigramOnce() {
        #expect(SubstringSearchIndex.trigrams(of: String(repeating: "a", count: 254) + "b") == ["aaa", "aab"])
        #expect(SubstringSearchIndex.trigrams(of: "공지사항") == ["공지사", "지사항"])
        #expect(SubstringSearchIndex.trigrams(of: "he") == [])
    }

    @Test func aLongQueryAsksForAFewTrigramsSpreadOverIt() {
        let query = "the quick brown fox jumps over the lazy dog"
        let trigrams = SubstringSearchIndex.trigrams(of: query)
        #expect(trigrams.count == SubstringSearchIndex.maximumQueryTrigrams)
        #expect(trigrams.first == "the")
        #expect(trigrams.last == "dog")
        #expect(Set(trigrams).count == trigrams.count)
    }

    @Test func theIndexIsAskedForTheRarestTrigramsWithinEightTimesTheRarest() {
        let counts = ["num": 20_000, "umb": 20_000, "r 1": 11_111, " 12": 1_111, "123": 140]
        #expect(SubstringSearchIndex.rarest(["num", "umb", "r 1", " 12", "123"], counts: counts) == ["123", " 12"])
        #expect(SubstringSearchIndex.rarest(["a", "b", "c", "d"], counts: ["a": 5, "b": 5, "c": 5, "d": 5]) == ["a", "b", "c"])
        #expect(SubstringSearchIndex.rarest(["a", "b", "c"], counts: ["a": 9, "b": 0, "c": 1]) == ["b"])
        #expect(SubstringSearchIndex.rarest(["a", "b"], counts: ["b": 3]) == ["b"])
        #expect(SubstringSearchIndex.rarest(["a", "b"], counts: [:]) == ["a", "b"])
        #expect(SubstringSearchIndex.rarest([], counts: [:]) == [])
    }

    @Test func rememberedCountsExpireAndStayWithinTheirIndex() {
        let counts = TrigramDocumentCounts()
        let then = ContinuousClock.now
        counts.remember(["abc": 4], in: "todos_title_folded_search", now: then)
        #expect(counts.counts(of: ["abc", "xyz"], in: "todos_title_folded_search", now: then) == ["abc": 4])
        #expect(counts.counts(of: ["abc"], in: "board_posts_title_folded_search", now: then) == [:])
        #expect(counts.counts(of: ["abc"], in: "todos_title_folded_search", now: then + TrigramDocumentCounts.lifetime) == [:])
    }
}
