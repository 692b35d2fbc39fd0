import Foundation
import SproutKit
import SproutWire
import Testing

/// `ProductFormModel`: every rule with the app's text, the images' 1…5, and what register and edit send.
@MainActor
@Suite struct MarketFormTests {
    static let jpeg = MarketUpload(data: Data([0xFF, 0xD8, 0xFF, 0xD9]), format: .jpeg)

    /// A register form that passes every rule.
    static func validForm() -> ProductFormModel {
        let form = ProductFormModel()
        form.addImage(jpeg)
        form.name = "  맥북 프로  "
        form.description = "애플 맥북"
        form.price = "1500000"
        form.discountedPrice = "1000"
        form.stock = "3"
        return form
    }

    static func failure(_ change: (ProductFormModel) -> Void) -> (ProductFormValidation.Failure?, String?) {
        let form = validForm()
        change(form)
        #expect(form.validate() == nil)
        return (form.lastFailure, form.errorMessage)
    }

    @Test func aValidFormPasses() throws {
        let form = Self.validForm()
        let values = try #require(form.validate())
        #expect(values.name == "맥북 프로" && values.price == 1_500_000 && values.discountedPrice == 1000 && values.stock == 3 && values.currency == .krw)
        #expect(form.errorMessage == nil && form.lastFailure == nil)
    }

    @Test func theNameNeedsThreeToAHundredCharactersAfterTrimming() {
        #expect(Self.failure { $0.name = "  맥북  " } == (.nameTooShort, "상품명은 세 글자 이상 입력되어야 합니다."))
        #expect(Self.failure { $0.name = "" } == (.nameTooShort, "상품명은 세 글자 이상 입력되어야 합니다."))
        #expect(Self.failure { $0.name = String(repeating: "가", count: 101) } == (.nameTooLong, "글자수가 초과되었습니다."))
        let form = Self.validForm()
        form.name = " " + String(repeating: "가", count: 100) + " "
        #expect(form.validate()?.name.count == 100)
        form.name = "맥북a"
        #expect(form.validate() != nil)
        // Characters as a person sees them: three flags are three, a hundred are not too many.
        form.name = "🇰🇷🇺🇸🇯🇵"
        #expect(form.validate() != nil)
        form.name = String(repeating: "🇰🇷", count: 100)
        #expect(form.validate() != nil)
    }

    @Test func theDescriptionHasAtMostAThousandCharacters() {
        #expect(Self.failure { $0.description = String(repeating: "a", count: 1001) } == (.descriptionTooLong, "글자수가 초과되었습니다."))
        let form = Self.validForm()
        form.description = String(repeating: "가", count: 1000)
        #expect(form.validate() != nil)
        form.description = ""
        #expect(form.validate() != nil)
    }

    @Test func numbersMustBeThereAndBeNumbers() {
        #expect(Self.failure { $0.price = "" } == (.missingNumber(.price), "값이 없습니다."))
        #expect(Self.failure { $0.discountedPrice = " " } == (.missingNumber(.discountedPrice), "값이 없습니다."))
        #expect(Self.failure { $0.stock = "" } == (.missingNumber(.stock), "값이 없습니다."))
        for text in ["12abc", "-5", "1.2.3", "1e5", "١٢", ".5", "5."] {
            #expect(Self.failure { $0.price = text } == (.notANumber(.price), "숫자만 입력할 수 있습니다."), "price \(text)")
        }
        #expect(Self.failure { $0.stock = "1.5" } == (.notANumber(.stock), "숫자만 입력할 수 있습니다."))
        let form = Self.validForm()
        form.price = "2.36"
        form.discountedPrice = "0.71"
        #expect(form.validate()?.price == Decimal(string: "2.36"))
    }

    @Test func theDiscountMayNotExceedThePrice() {
        #expect(Self.failure { $0.discountedPrice = "1500001" } == (.discountAbovePrice, "할인 금액은 상품 가격보다 클 수 없습니다."))
        let form = Self.validForm()
        form.discountedPrice = "1500000"
        #expect(form.validate() != nil)
    }

    @Test func onlyKRWAndUSD() {
        #expect(Self.failure { $0.currency = MarketCurrency(rawValue: "JPY") } == (.unsupportedCurrency, "통화는 KRW 또는 USD만 선택할 수 있습니다."))
        let form = Self.validForm()
        form.currency = .usd
        #expect(form.validate()?.currency == .usd && MarketCurrency.supported == [.krw, .usd])
    }

    @Test func oneToFiveImages() {
        #expect(Self.failure { $0.removeImage(at: 0) } == (.noImage, "이미지를 한 장 이상 추가해 주세요."))
        let form = Self.validForm()
        for _ in 2...5 { #expect(form.addImage(Self.jpeg)) }
        #expect(form.images.count == 5 && !form.canAddImage)
        #expect(form.addImage(Self.jpeg) == false)
        #expect(form.images.count == 5 && form.errorMessage == "이미지를 추가할 수 없습니다." && form.lastFailure == .tooManyImages)
        form.removeImage(at: 4)
        #expect(form.canAddImage && form.validate() != nil)
    }

    @Test func registrationParamsCarryTheCheckedValues() throws {
        let params = try #require(Self.validForm().registrationParams(secret: "vendorsecret", generation: .v2))
        #expect(params == MarketProductParams(name: "맥북 프로", description: "애플 맥북", price: 1_500_000, discountedPrice: 1000, stock: 3, currency: "KRW", secret: "vendorsecret", generation: .v2))
        let broken = Self.validForm()
        broken.name = "맥"
        #expect(broken.registrationParams(secret: "s") == nil && broken.errorMessage == "상품명은 세 글자 이상 입력되어야 합니다.")
    }

    /// The product an edit form starts from; its thumbnail is image 51's.
    static let product = MarketProduct(
        id: 5, vendorID: 7, name: "아이폰13", description: "비싸", thumbnailURL: URL(string: "http://127.0.0.1:9/i/5b_thumb.jpg"),
        currency: .krw, price: 1_300_000, discountedPrice: 0, bargainPrice: 1_300_000, stock: 12,
        createdAt: Date(timeIntervalSince1970: 0), issuedAt: Date(timeIntervalSince1970: 0),
        images: [
            MarketImage(id: 50, url: URL(string: "http://127.0.0.1:9/i/5a.jpg")!, thumbnailURL: URL(string: "http://127.0.0.1:9/i/5a_thumb.jpg")!, issuedAt: Date(timeIntervalSince1970: 0)),
            MarketImage(id: 51, url: URL(string: "http://127.0.0.1:9/i/5b.jpg")!, thumbnailURL: URL(string: "http://127.0.0.1:9/i/5b_thumb.jpg")!, issuedAt: Date(timeIntervalSince1970: 0)),
        ],
        vendor: MarketProduct.Vendor(id: 7, name: "vendor7")
    )

    static func client(_ transport: RecordingTransport, generation: MarketAPIGeneration = .v3) -> MarketClient {
        MarketClient(client: APIClient(baseURL: MarketFakeServer.base, transport: transport), generation: generation, credentials: MarketClientTests.vendor)
    }

    @Test func anEditFormStartsFromTheProductAndSendsOnlyWhatChanged() throws {
        let form = ProductFormModel(editing: Self.product)
        #expect(form.name == "아이폰13" && form.description == "비싸" && form.price == "1300000" && form.discountedPrice == "0" && form.stock == "12")
        #expect(form.currency == .krw && form.images.isEmpty && !form.canAddImage)
        #expect(form.addImage(Self.jpeg) == false && form.errorMessage == "이미지를 추가할 수 없습니다.")

        let unchanged = try #require(form.changes(secret: "s", generation: .v2))
        #expect(unchanged == MarketProductChanges(secret: "s", generation: .v2))
        form.thumbnailID = 51
        #expect(form.changes(secret: "s")?.thumbnailID == nil)

        form.price = "1200000"
        form.description = "조금 덜 비싸"
        form.name = " 아이폰13 "
        form.thumbnailID = 50
        let changes = try #require(form.changes(secret: "vendorsecret", generation: .v2))
        #expect(changes == MarketProductChanges(secret: "vendorsecret", description: "조금 덜 비싸", price: 1_200_000, thumbnailID: 50, generation: .v2))
    }

    @Test func submitRegistersAndSaysSo() async throws {
        let transport = RecordingTransport(status: 201, body: try MarketFixture.json(MarketFixture.product(id: 9)))
        let form = Self.validForm()
        let product = try #require(await form.submit(using: Self.client(transport, generation: .v2)))
        #expect(product.id == 9 && form.resultMessage == "상품 등록하였습니다." && form.errorMessage == nil && !form.isSubmitting)
        let request = try #require(transport.requests.first)
        #expect(request.line == "POST /api/products" && request.value(forHTTPHeaderField: "identifier") == MarketClientTests.vendor.identifier)
        let body = String(decoding: try #require(request.httpBody), as: UTF8.self)
        #expect(body.contains("\"descriptions\":\"애플 맥북\"") && body.contains("\"secret\":\"\(MarketClientTests.vendor.secret)\""))
    }

    @Test func aRefusedSubmitSaysWhy() async throws {
        let failing = RecordingTransport(status: 500, body: Data())
        let form = Self.validForm()
        #expect(await form.submit(using: Self.client(failing)) == nil)
        #expect(form.errorMessage == "상품 등록 실패하였습니다." && form.resultMessage == nil && form.lastError?.kind == .other)
        let refusing = RecordingTransport(status: 400, body: try MarketFixture.json(MarketErrorJSON(code: 400, message: "이미지를 읽을 수 없습니다.")))
        #expect(await form.submit(using: Self.client(refusing)) == nil)
        #expect(form.errorMessage == "이미지를 읽을 수 없습니다.")
        // A broken rule sends nothing.
        form.name = "맥"
        #expect(await form.submit(using: Self.client(refusing)) == nil)
        #expect(refusing.requests.count == 1 && form.errorMessage == "상품명은 세 글자 이상 입력되어야 합니다.")
        form.dismissMessages()
        #expect(form.errorMessage == nil && form.lastFailure == nil)
    }

    @Test func submittingAnEditSendsTheChangesOrNothing() async throws {
        let transport = RecordingTransport(status: 202, body: try MarketFixture.json(MarketFixture.product(id: 5, name: "아이폰14")))
        let form = ProductFormModel(editing: Self.product)
        #expect(await form.submit(using: Self.client(transport)) == Self.product)
        #expect(transport.requests.isEmpty)
        form.name = "아이폰14"
        #expect(await form.submit(using: Self.client(transport))?.name == "아이폰14")
        #expect(transport.requests.map(\.line) == ["PATCH /api/products/5"])
        #expect(transport.requests.first?.jsonBody as? [String: String] == ["secret": MarketClientTests.vendor.secret, "name": "아이폰14"])
        #expect(form.resultMessage == nil)
    }
}
