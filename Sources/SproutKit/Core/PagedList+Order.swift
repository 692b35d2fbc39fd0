import Foundation

extension PagedList {
    /// Shows `item` where the list's order puts it, if that is within what is loaded: before the first item it
    /// precedes. An item after the last one loaded is left to a later page while one may come (`hasMore`), and
    /// goes at the end once the list is complete. Answers whether it was inserted.
    @discardableResult
    func insert(_ item: Item, orderedBy precedes: (Item, Item) -> Bool) -> Bool {
        guard hasLoaded, !contains(id: item.id) else { return false }
        if let index = items.firstIndex(where: { precedes(item, $0) }) {
            insert(item, at: index)
            return true
        }
        guard !hasMore else { return false }
        insert(item, at: items.count)
        return true
    }
}
