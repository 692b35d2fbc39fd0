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
    @Test func keepsJSONTypesApart() throws {
        let fields = try JSONFields.parse(Data(#"{"a": true, "b": "true", "c": 1, "d": null, "e": [1], "f": {"x": 1}}"#.utf8))
        #expect(fields["a"] == .bool(true))
        #expect(fields["b"] == .text("true"))
        #expect(fields["c"] == .number(1))
        #expect(fields["d"] == .null)
        #expect(fields["e"] == .structured)
        #expect(fields["f"] == .structured)
    }
}

@Suite struct MultipartFormTests {
    @Test func readsTextFieldsAndMarksFiles() throws {
        let body = "--B\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\n멀티파트 제목\r\n"
            + "--B\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"a.jpg\"\r\nContent-Type: image/jpeg\r\n\r\nJPEGDATA\r\n--B--\r\n"
        let fields = try MultipartForm.parse(ByteBuffer(string: body), boundary: "B")
        #expect(fields["title"] == .text("멀티파트 제목"))
        #expect(fields["photo"] == .structured)
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
