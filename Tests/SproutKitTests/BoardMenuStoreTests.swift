import Foundation
import SproutKit
import SproutWire
import Testing

/// `BoardMenuStore`: the boards, and the selected board remembered across launches with a fallback to the first.
@MainActor
@Suite struct BoardMenuStoreTests {
    @Test func theFirstLaunchSelectsTheFirstBoardAndRemembersIt() async {
        let server = BoardFakeServer()
        let settings = InMemorySettingsStore()
        let menu = BoardMenuStore(client: server.client, settings: settings)
        #expect(menu.rememberedBoard == nil && menu.selectedBoard == nil)
        let selected = await menu.load()
        #expect(menu.boards.map(\.name) == ["공지사항", "자유게시판", "익명게시판"] && menu.hasLoaded)
        #expect(selected?.id == 1 && menu.selectedBoard?.name == "공지사항")
        #expect(settings.string(forKey: BoardMenuStore.selectedIDKey) == "1" && settings.string(forKey: BoardMenuStore.selectedNameKey) == "공지사항")
    }

    @Test func theNextLaunchRestoresTheSelectedBoard() async {
        let server = BoardFakeServer()
        let settings = InMemorySettingsStore()
        let first = BoardMenuStore(client: server.client, settings: settings)
        await first.load()
        first.select(first.boards[2])

        let relaunched = BoardMenuStore(client: server.client, settings: settings)
        #expect(relaunched.rememberedBoard?.id == 3 && relaunched.rememberedBoard?.name == "익명게시판")
        await relaunched.load()
        #expect(relaunched.selectedBoard?.id == 3 && relaunched.selectedBoard?.type == .anonymous)
    }

    @Test func aRememberedBoardThatIsGoneFallsBackToTheFirst() async {
        let server = BoardFakeServer()
        let settings = InMemorySettingsStore([BoardMenuStore.selectedIDKey: "99", BoardMenuStore.selectedNameKey: "없어진 게시판"])
        let menu = BoardMenuStore(client: server.client, settings: settings)
        await menu.load()
        #expect(menu.selectedBoard?.id == 1 && settings.string(forKey: BoardMenuStore.selectedIDKey) == "1")
    }

    @Test func aRenamedBoardIsRestoredWithItsNewName() async {
        let server = BoardFakeServer()
        let settings = InMemorySettingsStore([BoardMenuStore.selectedIDKey: "2", BoardMenuStore.selectedNameKey: "옛 이름"])
        let menu = BoardMenuStore(client: server.client, settings: settings)
        await menu.load()
        #expect(menu.selectedBoard?.name == "자유게시판" && settings.string(forKey: BoardMenuStore.selectedNameKey) == "자유게시판")
    }

    @Test func aFailedLoadKeepsTheSelectionAndSaysWhy() async {
        let server = BoardFakeServer()
        let menu = BoardMenuStore(client: server.client, settings: InMemorySettingsStore())
        await menu.load()
        server.failNext(status: 500)
        await menu.load()
        #expect(menu.selectedBoard?.id == 1 && menu.boards.count == 3 && menu.errorMessage == "게시판 목록을 불러오지 못했습니다.")
        menu.dismissError()
        #expect(menu.lastError == nil)
    }
}
