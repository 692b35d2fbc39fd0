import Foundation
import SproutKit
import Testing

/// The diary on the device, with no server at all: saving, ordering, deleting, reopening, and the editor's
/// autosave triggers.
@MainActor
@Suite struct DiaryStoreTests {
    @Test func entriesAreSavedOfflineAndListedNewestFirst() throws {
        let store = DiaryStore(database: try DiaryDatabase())
        let old = try #require(store.create(text: "오래된 일기\n본문", createdAt: DiaryTest.date(0)))
        let new = try #require(store.create(text: "새 일기", createdAt: DiaryTest.date(100)))
        let low = UUID(uuidString: "00000000-0000-4000-8000-000000000001")!
        let high = UUID(uuidString: "ffffffff-0000-4000-8000-000000000001")!
        store.create(text: "같은 시각 1", id: low, createdAt: DiaryTest.date(50))
        store.create(text: "같은 시각 2", id: high, createdAt: DiaryTest.date(50))
        #expect(store.entries.map(\.title) == ["새 일기", "같은 시각 2", "같은 시각 1", "오래된 일기"])
        #expect(old.body == "본문" && new.body == "" && old.createdAt == DiaryTest.date(0))
        #expect(store.entries.allSatisfy { $0.hasUnpushedChanges && $0.weather == nil })
        #expect(store.entry(id: old.id)?.editorText == "오래된 일기\n본문")
        #expect(try store.database.outbox().count == 4 && store.errorMessage == nil)
    }

    @Test func anEmptyFirstLineIsNotSaved() throws {
        let store = DiaryStore(database: try DiaryDatabase())
        #expect(store.create(text: "") == nil)
        #expect(store.create(text: "\n본문만") == nil)
        #expect(store.create(text: "   \n본문") == nil)
        #expect(store.entries.isEmpty)
        let entry = try #require(store.create(text: "제목\n본문"))
        #expect(!store.update(id: entry.id, text: "\n제목을 지웠다"))
        #expect(store.entry(id: entry.id)?.title == "제목" && store.entry(id: entry.id)?.body == "본문")
    }

    @Test func anEditChangesTitleAndBodyOnly() throws {
        let store = DiaryStore(database: try DiaryDatabase())
        let entry = try #require(store.create(text: "제목\n본문", createdAt: DiaryTest.date(10)))
        #expect(store.update(id: entry.id, text: "새 제목\n새 본문\n둘째 줄"))
        #expect(!store.update(id: entry.id, text: "새 제목\n새 본문\n둘째 줄"), "the same text is no change")
        #expect(!store.update(id: UUID(), text: "없는 일기"))
        let edited = try #require(store.entry(id: entry.id))
        #expect(edited.title == "새 제목" && edited.body == "새 본문\n둘째 줄" && edited.createdAt == DiaryTest.date(10))
        #expect(store.entries.count == 1)
    }

    @Test func aNewEntryIsInsertedOnce() throws {
        let store = DiaryStore(database: try DiaryDatabase())
        let id = UUID()
        #expect(store.create(text: "처음", id: id) != nil)
        #expect(store.create(text: "두 번째", id: id) == nil)
        #expect(store.entries.map(\.title) == ["처음"])
    }

    @Test func deletingAnEntryTheServerNeverHadDropsIt() throws {
        let store = DiaryStore(database: try DiaryDatabase())
        let keep = try #require(store.create(text: "남길 일기", createdAt: DiaryTest.date(0)))
        let gone = try #require(store.create(text: "지울 일기", createdAt: DiaryTest.date(1)))
        #expect(store.delete(id: gone.id))
        #expect(!store.delete(id: gone.id))
        #expect(store.entries.map(\.id) == [keep.id])
        #expect(try store.database.outbox().map(\.id) == [keep.id], "nothing to tell the server about an entry it never had")
    }

    @Test func theShareTextIsTitleBlankLineBody() throws {
        let store = DiaryStore(database: try DiaryDatabase())
        let entry = try #require(store.create(text: "제목\n본문 첫 줄\n둘째 줄"))
        #expect(store.shareText(of: entry) == "제목\n\n본문 첫 줄\n둘째 줄")
        let short = try #require(store.create(text: "제목만"))
        #expect(store.shareText(of: short) == "제목만")
    }

    @Test func entriesSurviveReopeningTheDatabaseFile() throws {
        let file = DiaryTest.temporaryFile()
        defer { try? FileManager.default.removeItem(at: file.directory) }
        let id: UUID
        do {
            let store = DiaryStore(database: try DiaryDatabase(path: file.path))
            id = try #require(store.create(text: "남는 일기\n본문", createdAt: DiaryTest.date(5))).id
            store.create(text: "지운 일기")
            store.delete(id: try #require(store.entries.first { $0.title == "지운 일기" }).id)
        }
        let reopened = DiaryStore(database: try DiaryDatabase(path: file.path))
        #expect(reopened.entries.map(\.id) == [id])
        #expect(reopened.entries.first?.body == "본문" && reopened.entries.first?.createdAt == DiaryTest.date(5))
        #expect(try reopened.database.outbox().map(\.id) == [id])
    }

    // MARK: The editor

    @Test func everyAutosaveTriggerSavesWhenThereIsSomethingToSave() throws {
        let store = DiaryStore(database: try DiaryDatabase())
        let editor = store.makeEditor()
        #expect(editor.isNew && editor.text.isEmpty)

        editor.editingEnded()
        editor.leaving()
        editor.enteredBackground()
        editor.textChanged("\n본문부터 썼다")
        #expect(store.entries.isEmpty && editor.isNew, "nothing to save without a title")

        editor.textChanged("제")
        #expect(store.entries.map(\.title) == ["제"] && !editor.isNew && store.entries.first?.id == editor.id)
        editor.textChanged("제목\n본문")
        #expect(store.entries.map(\.body) == ["본문"])
        let revision = try #require(try store.database.outbox().first?.revision)

        // The same text again: every trigger finds nothing to save.
        editor.editingEnded()
        editor.leaving()
        editor.enteredBackground()
        #expect(try store.database.outbox().first?.revision == revision)
        #expect(store.entries.count == 1)
    }

    @Test func laterSavesUpdateTheSameEntryKeepingItsDate() throws {
        let store = DiaryStore(database: try DiaryDatabase())
        let entry = try #require(store.create(text: "제목\n본문", createdAt: DiaryTest.date(0)))
        let editor = store.makeEditor(for: entry)
        #expect(editor.text == "제목\n본문" && !editor.isNew && editor.createdAt == DiaryTest.date(0) && editor.id == entry.id)
        editor.textChanged("고친 제목\n고친 본문")
        editor.textChanged("고친 제목\n고친 본문\n덧붙임")
        editor.leaving()
        #expect(store.entries.count == 1)
        let saved = try #require(store.entry(id: entry.id))
        #expect(saved.title == "고친 제목" && saved.body == "고친 본문\n덧붙임" && saved.createdAt == DiaryTest.date(0))
    }

    @Test func aNewEditorsDateIsWholeMilliseconds() throws {
        let store = DiaryStore(database: try DiaryDatabase())
        let editor = DiaryEditor(store: store, now: Date(timeIntervalSince1970: 1_795_392_000.123_456))
        editor.textChanged("제목")
        #expect(editor.createdAt == Date(timeIntervalSince1970: 1_795_392_000.123))
        #expect(store.entries.first?.createdAt == editor.createdAt)
    }

    @Test func anEntryOpenedAndLeftUnchangedIsNotSavedAgain() throws {
        let store = DiaryStore(database: try DiaryDatabase())
        let entry = try #require(store.create(text: "제목\n본문"))
        let revision = try #require(try store.database.outbox().first?.revision)
        let editor = store.makeEditor(for: entry)
        editor.leaving()
        editor.textChanged("\n제목을 지움")
        editor.leaving()
        #expect(try store.database.outbox().first?.revision == revision)
        #expect(store.entry(id: entry.id)?.title == "제목")
    }

    @Test func anEntryDeletedFromTheEditorIsNotSavedAgainOnLeaving() throws {
        let store = DiaryStore(database: try DiaryDatabase())
        let editor = store.makeEditor()
        editor.textChanged("곧 지울 일기")
        #expect(editor.isExisting && editor.shareText == "곧 지울 일기")
        #expect(editor.delete())
        editor.textChanged("곧 지울 일기\n더 썼다")
        editor.leaving()
        editor.enteredBackground()
        #expect(store.entries.isEmpty && !editor.isExisting)
    }
}
