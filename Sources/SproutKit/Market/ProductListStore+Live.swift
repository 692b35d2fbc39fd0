import Foundation
import SproutWire

/// The product list kept live by the `market` topic of an `EventStream`.
extension ProductListStore: LiveListStore {
    /// Applies one live update of the `market` topic; other topics' events are ignored.
    ///
    /// A new product goes to the top when it matches the search in effect; an edited one is replaced where shown
    /// (and leaves a search it no longer matches), and one not shown that belongs (restored, or edited into the
    /// search) is inserted where the newest-first order puts it; a deleted or hidden one leaves the list.
    /// `reset` loads page 1 again.
    public func apply(_ event: LiveEvent) async {
        guard event.topic == LiveTopic.market.name else { return }
        switch event {
        case .ready:
            return
        case .reset:
            await refresh()
        case .change(let change):
            guard change.entity == "product", let productID = change.intID else { return }
            switch change.kind {
            case .created, .updated:
                guard hasLoaded, let product = await row(of: change, id: productID) else { return }
                if !matchesQuery(product) {
                    remove(productID: productID)
                } else if !pages.replace(product), pages.insert(product, orderedBy: { $0.id > $1.id }) {
                    pages.total += 1
                }
            case .deleted:
                remove(productID: productID)
            case nil:
                return
            }
        }
    }

    /// The event's product: its `item` read as an element of `/api/products`, else fetched; nil when neither works.
    private func row(of change: LiveChange, id: Int) async -> MarketProductSummary? {
        if let summary = try? change.item(as: MarketProductSummaryJSON.self)?.summary() { return summary }
        return try? await client.product(id: id).summary
    }

    private func matchesQuery(_ product: MarketProductSummary) -> Bool {
        query.isEmpty || product.name.localizedCaseInsensitiveContains(query)
            || (product.description?.localizedCaseInsensitiveContains(query) ?? false)
    }
}
