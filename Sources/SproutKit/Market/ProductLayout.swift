/// How the product list is shown: the apps' `LIST` / `GRID` segmented control.
public enum ProductLayout: String, Sendable, CaseIterable {
    /// One product a row: thumbnail, name, price, stock.
    case list
    /// Two columns of bordered cards.
    case grid

    /// The segment's title (`LIST`, `GRID`).
    public var title: String { self == .list ? MarketText.listSegment : MarketText.gridSegment }

    /// The key the layout is kept under in a `SettingsStore`.
    public static let settingsKey = "market.productList.layout"
}
