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
}
