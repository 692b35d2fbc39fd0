/// A bar chart drawn as inline SVG by the server, for the console's overview: no chart service and no script, so
/// it shows in any browser and costs one string. Pure: the same bars give the same text.
///
/// Accessible as an image with a name and a description (`role="img"`, `<title>`, `<desc>`), and each bar has its
/// own `<title>` (its label and value), which a pointer shows. The size follows the page (a `viewBox` without a
/// fixed width), so it fits a 390 px screen; colours come from the stylesheet's classes, dark mode included.
struct SVGBarChart: Sendable, Equatable {
    struct Bar: Sendable, Equatable {
        let label: String
        let value: Int
    }

    /// The chart's name (`<title>`), e.g. "하루 가입 수".
    let title: String
    let bars: [Bar]
    /// Tells the `<title>` and `<desc>` ids apart when a page has several charts.
    let id: String

    static let width = 600
    static let height = 180
    /// Room under the bars for the first and last labels, and over them for the largest value.
    static let bottomMargin = 24
    static let topMargin = 18

    var maximum: Int { bars.map(\.value).max() ?? 0 }
    var total: Int { bars.reduce(0) { $0 + $1.value } }

    /// The description read after the title: how many days, the total and the largest day.
    var summary: String {
        guard let first = bars.first, let last = bars.last else { return "자료가 없어요." }
        let busiest = bars.max { $0.value < $1.value } ?? first
        return "\(first.label)부터 \(last.label)까지 \(bars.count)일, 합계 \(total), 가장 많은 날 \(busiest.label) \(busiest.value)."
    }

    var svg: String {
        let plotHeight = Double(Self.height - Self.bottomMargin - Self.topMargin)
        let slot = bars.isEmpty ? 0 : Double(Self.width) / Double(bars.count)
        let barWidth = max(slot * 0.75, 1)
        let scale = maximum > 0 ? plotHeight / Double(maximum) : 0
        var parts: [String] = []
        parts.append(
            #"<svg class="bar-chart" viewBox="0 0 \#(Self.width) \#(Self.height)" role="img" aria-labelledby="\#(id)-title \#(id)-desc">"#
        )
        parts.append(#"<title id="\#(id)-title">\#(Self.svgText(title))</title>"#)
        parts.append(#"<desc id="\#(id)-desc">\#(Self.svgText(summary))</desc>"#)
        let baseline = Double(Self.height - Self.bottomMargin)
        parts.append(#"<line class="bar-chart-axis" x1="0" y1="\#(Self.number(baseline))" x2="\#(Self.width)" y2="\#(Self.number(baseline))"/>"#)
        for (index, bar) in bars.enumerated() {
            let height = Double(max(bar.value, 0)) * scale
            let x = Double(index) * slot + (slot - barWidth) / 2
            parts.append(
                #"<rect class="bar-chart-bar" x="\#(Self.number(x))" y="\#(Self.number(baseline - height))" width="\#(Self.number(barWidth))" height="\#(Self.number(height))"><title>\#(Self.svgText("\(bar.label): \(bar.value)"))</title></rect>"#
            )
        }
        if let first = bars.first, let last = bars.last {
            let labelY = Self.height - 6
            parts.append(#"<text class="bar-chart-label" x="0" y="\#(labelY)" aria-hidden="true">\#(Self.svgText(first.label))</text>"#)
            parts.append(#"<text class="bar-chart-label" x="\#(Self.width)" y="\#(labelY)" text-anchor="end" aria-hidden="true">\#(Self.svgText(last.label))</text>"#)
        }
        parts.append(#"<text class="bar-chart-label" x="0" y="12" aria-hidden="true">최대 \#(maximum)</text>"#)
        parts.append("</svg>")
        return parts.joined()
    }

    /// Text in SVG (an XML dialect inside HTML), escaped as the pages' text is.
    static func svgText(_ text: String) -> String { text.htmlEscaped }

    /// Coordinates with at most two decimals, so the text stays short and the same on every platform.
    static func number(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
