import Foundation
import NIOCore
import SproutWire
import Testing
@testable import SproutServer

@Suite struct URLEncodedFormTests {
    @Test func decodesPlusPercentAndKoreanLikePHP() {
        let fields = URLEncodedForm.parse("title=%EC%9A%B4%EB%8F%99+30%EB%B6%84&is_done=true&empty=&flag")
        #expect(fields["title"] == .text("운동 30분"))
        #expect(fields["is_done"] == .text("true"))
        #expect(fields["empty"] == .text(""))
        #expect(fields["flag"] == .text(""))
    }

    @Test func lastDuplicateWinsAndBrokenEscapesStayLiteral() {
        let fields = URLEncodedForm.parse("a=1&a=2&b=100%&c=%zz")
        #expect(fields["a"] == .text("2"))
        #expect(fields["b"] == .text("100%"))
        #expect(fields["c"] == .text("%zz"))
    }

    @Test func invalidUTF8IsMarkedNotDropped() {
        #expect(URLEncodedForm.parse("title=%FF")["title"] == .invalidText)
    }
}

@Suite struct JSONFieldsTests {
    static func parse(_ text: String) throws(JSONFields.Failure) -> FormFields {
        try JSONFields.parse(Array(text.utf8))
    }

    @Test func keepsJSONTypesApart() throws {
        let fields = try Self.parse(#"{"a": true, "b": "true", "c": 1, "d": null, "e": [1], "f": {"x": 1}}"#)
        #expect(fields["a"] == .bool(true))
        #expect(fields["b"] == .text("true"))
        #expect(fields["c"] == .number("1"))
        #expect(fields["d"] == .null)
        #expect(fields["e"] == .structured)
        #expect(fields["f"] == .structured)
    }

    @Test func numbersKeepEveryDigitAsSent() throws {
        let fields = try Self.parse(#"{"big": 12345678901234567, "fraction": -0.5e+10, "zero": 0}"#)
        #expect(fields["big"]?.asText == "12345678901234567")
        #expect(fields["fraction"]?.asText == "-0.5e+10")
        #expect(fields["zero"] == .number("0"))
    }

    @Test func membersPastTheLimitAreRefusedRepeatedKeysCounted() throws {
        #expect(try JSONFields.parse(Array(#"{"a": 1, "b": 2, "c": 3}"#.utf8), maximumFields: 3)["c"] == .number("3"))
        #expect(throws: JSONFields.Failure.tooManyFields) { try JSONFields.parse(Array(#"{"a": 1, "a": 2, "a": 3, "a": 4}"#.utf8), maximumFields: 3) }
    }

    @Test func nestedKeysAndStringsAreCheckedThoughNotKept() throws {
        for text in [#"{"a": {"\uD800": 1}}"#, #"{"a": ["\q"]}"#, "{\"a\": [\"\u{01}\"]}"] {
            #expect(throws: JSONFields.Failure.malformed, "\(text)") { try Self.parse(text) }
        }
        #expect(throws: JSONFields.Failure.malformed) { try JSONFields.parse([0x7B, 0x22, 0x61, 0x22, 0x3A, 0x5B, 0x22, 0xC3, 0x22, 0x5D, 0x7D]) }
        #expect(try Self.parse(#"{"a": {"키": ["값\n", "é"]}}"#)["a"] == .structured)
    }

    @Test func theLastOfDuplicateKeysWinsAsInPHP() throws {
        #expect(try Self.parse(#"{"title": "first", "title": "second"}"#)["title"] == .text("second"))
    }

    @Test func escapesAreDecoded() throws {
        let fields = try Self.parse(#"{"t": "a\"b\\c\/d\n\u00e9\uD83D\uDE00\uAC00", "nul": "x\u0000y"}"#)
        #expect(fields["t"] == .text("a\"b\\c/d\né😀가"))
        #expect(fields["nul"] == .invalidText)
    }

    @Test func nestingUpToPHPsDepthIsNotedAsStructuredAndDeeperIsRefused() throws {
        let allowed = String(repeating: "[", count: 511) + String(repeating: "]", count: 511)
        #expect(try Self.parse(#"{"title": \#(allowed), "x": "y"}"#)["title"] == .structured)
        let mixed = String(repeating: #"{"a":["#, count: 200) + "1" + String(repeating: "]}", count: 200)
        #expect(try Self.parse(#"{"title": \#(mixed)}"#)["title"] == .structured)
        let tooDeep = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(throws: JSONFields.Failure.malformed) { try Self.parse(#"{"title": \#(tooDeep)}"#) }
    }

    @Test(arguments: [
        "", "{", "}", #"{"a"}"#, #"{"a":}"#, #"{"a":1,}"#, #"{"a":1 "b":2}"#, #"{"a":01}"#, #"{"a":1.}"#, #"{"a":.5}"#,
        #"{"a":-}"#, #"{"a":1e}"#, #"{"a":tru}"#, #"{"a":nul}"#, #"{"a":"x}"#, "{\"a\":\"line\nbreak\"}", #"{"a":"\q"}"#,
        #"{"a":"\u12"}"#, #"{"a":"\uD800"}"#, #"{"a":"\uDC00x"}"#, #"{"a":[1,]}"#, #"{"a":[1 2]}"#, #"{"a":{"b"}}"#,
        #"{"a":{"b":1,}}"#, #"{"a":[}"#, #"{"a":1} x"#, #"{a:1}"#, #"{'a':1}"#,
    ])
    func malformedJSONIsRefused(text: String) {
        #expect(throws: JSONFields.Failure.malformed) { try Self.parse(text) }
    }

    @Test func invalidUTF8IsMalformed() {
        #expect(throws: JSONFields.Failure.malformed) { try JSONFields.parse([0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0xFF, 0x22, 0x7D]) }
    }

    @Test(arguments: [#"[1]"#, #""text""#, "12", "true", "null", #"[{"a": [1, {"b": null}]}]"#])
    func validJSONThatIsNotAnObjectIsToldApart(text: String) {
        #expect(throws: JSONFields.Failure.notAnObject) { try Self.parse(" \(text) ") }
    }

    /// This parser and Foundation's agree on what is JSON (but for trailing commas, which Foundation tolerates
    /// and PHP, like RFC 8259, refuses: see `malformedJSONIsRefused`).
    @Test func agreesWithJSONSerializationOnValidity() throws {
        let samples = [
            #"{}"#, #" { "a" : [ ] , "b" : { } } "#, #"{"a":[1,2,[3,[4,{"b":[]}]]]}"#, #"{"a":-0.0e-0}"#, #"{"a":"\u00"}"#,
            #"{"a":[1,{"b":2}}"#, #"{"a":1E+2,"b":2e-3}"#, #"{"a":"tab\tline"}"#, #"{"":""}"#, #"{"a":[true,false,null]}"#,
        ]
        for sample in samples {
            let ours = (try? Self.parse(sample)) != nil
            let foundation = (try? JSONSerialization.jsonObject(with: Data(sample.utf8))) != nil
            #expect(ours == foundation, "\(sample)")
        }
    }
}

@Suite struct MultipartFormTests {
    @Test func readsTextFieldsAndMarksFiles() async throws {
        let body = "--B\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\n멀티파트 제목\r\n"
            + "--B\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"a.jpg\"\r\nContent-Type: image/jpeg\r\n\r\nJPEGDATA\r\n--B--\r\n"
        let fields = try await MultipartForm.parse(ByteBuffer(string: body), boundary: "B")
        #expect(fields["title"] == .text("멀티파트 제목"))
        #expect(fields["photo"] == .structured)
    }

    @Test func aBodyWithoutItsClosingDelimiterIsMalformed() async {
        let complete = "--B\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nfirst title\r\n"
            + "--B\r\nContent-Disposition: form-data; name=\"is_done\"\r\n\r\nmaybe\r\n--B--\r\n"
        await #expect(throws: Never.self) { try await MultipartForm.parse(ByteBuffer(string: complete), boundary: "B") }
        for cut in ["\r\n--B--\r\n", "maybe\r\n--B--\r\n", "ybe\r\n--B--\r\n", "--\r\n"] {
            let truncated = String(complete.dropLast(cut.count))
            await #expect(throws: MultipartForm.Failure.malformed, "cut off before \(cut.debugDescription)") {
                try await MultipartForm.parse(ByteBuffer(string: truncated), boundary: "B")
            }
        }
    }

    @Test func headerParametersHandleQuotesAndSemicolons() {
        let parameters = HeaderParameters(#"form-data; name="a;b"; filename="x \"y\".png""#)
        #expect(parameters.value == "form-data")
        #expect(parameters["name"] == "a;b")
        #expect(parameters["filename"] == #"x "y".png"#)
    }
}

@Suite struct LaravelTimestampTests {
    @Test func formatsLikeLaravelWithMicroseconds() {
        #expect(LaravelTimestamp.string(from: Date(timeIntervalSince1970: 1_694_887_658)) == "2023-09-16T18:07:38.000000Z")
        #expect(LaravelTimestamp.string(from: Date(timeIntervalSince1970: 1_694_887_658.25)) == "2023-09-16T18:07:38.250000Z")
    }
}

/// Multipart bodies built to break a parser: none may stop the server.
@Suite struct MultipartRobustnessTests {
    static let valid = "--B\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\na fine title\r\n"
        + "--B\r\nContent-Disposition: form-data; name=\"is_done\"\r\n\r\ntrue\r\n--B--\r\n"

    /// MultipartKit 4.7.1 trapped on this (index out of range): one request stopped the server.
    @Test func aHeaderNameWithBytesAbove0x7FIsMalformedNotACrash() async {
        let body = "--B\r\nCönten\u{0095}t: x\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nabc\r\n--B--\r\n"
        await #expect(throws: MultipartForm.Failure.malformed) { try await MultipartForm.parse(ByteBuffer(string: body), boundary: "B") }
    }

    @Test func preambleEpilogueAndTransportPaddingAreAllowed() async throws {
        let body = "this is a preamble\r\n--B  \r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nline one\r\nline two\r\n--B--\r\nepilogue"
        #expect(try await MultipartForm.parse(ByteBuffer(string: body), boundary: "B")["title"] == .text("line one\r\nline two"))
    }

    @Test func partsWithoutANameAreSkippedAndFilesMarked() async throws {
        let body = "--B\r\nContent-Type: text/plain\r\n\r\nnameless\r\n"
            + "--B\r\ncontent-disposition: form-data; name=\"f\"; filename=\"한글.png\"\r\n\r\n\u{89}PNG\r\n--B--"
        let fields = try await MultipartForm.parse(ByteBuffer(string: body), boundary: "B")
        #expect(fields.values == ["f": .structured])
    }

    /// Thousands of mutations of a valid body (bytes flipped, dropped, duplicated, cut): each is read or refused.
    @Test func mutatedBodiesAreReadOrRefusedNeverATrap() async {
        var generator = SystemRandomNumberGenerator()
        let original = Array(Self.valid.utf8)
        let alphabet: [UInt8] = Array("-B\r\n:;=\" ".utf8) + [0x00, 0x7F, 0x80, 0xC3, 0xFF]
        var read = 0
        for _ in 0..<5000 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let index = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<4, using: &generator) {
                case 0: bytes[index] = alphabet.randomElement(using: &generator)!
                case 1: bytes.remove(at: index)
                case 2: bytes.insert(contentsOf: bytes[index..<min(index + 8, bytes.count)], at: index)
                default: bytes.removeSubrange(index...)
                }
                if bytes.isEmpty { bytes = original }
            }
            if (try? await MultipartForm.parse(ByteBuffer(bytes: bytes), boundary: "B")) != nil { read += 1 }
        }
        #expect(read > 0)
    }

    @Test(arguments: ["", "a\r\nb", "x\ny"])
    func aBoundaryThatCannotBeMatchedIsMalformed(boundary: String) async {
        await #expect(throws: MultipartForm.Failure.malformed) { try await MultipartForm.parse(ByteBuffer(string: Self.valid), boundary: boundary) }
    }
}
