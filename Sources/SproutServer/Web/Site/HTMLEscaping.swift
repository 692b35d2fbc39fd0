import Mustache

/// The web pages' escaping for `{{value}}`, by Unicode scalars. swift-mustache's own HTML escaping looks at whole
/// `Character`s, and a quote, `<` or `&` followed by a combining mark (U+0301, an emoji skin tone) is one
/// `Character` that matches none of them: `"\u{301} onfocus=…` in a search box's `value="{{query}}"` ended the
/// attribute. Every template is registered with `pragma` in front, so this is the only escaping pages get.
struct ScalarHTMLContentType: MustacheContentType {
    static let name = "SPROUT_HTML"
    /// Put first in a template (its own line, which Mustache then drops): the template escapes with this type.
    static let pragma = "{{% CONTENT_TYPE: \(name)}}\n"

    func escapeText(_ text: String) -> String { text.htmlEscaped }

    /// Registers the type with swift-mustache (a process-wide table), before any template naming it is parsed.
    static func register() {
        MustacheContentTypes.register(ScalarHTMLContentType(), named: name)
    }
}

extension String {
    /// The five characters that could end an element, an attribute or an entity, escaped wherever they stand.
    var htmlEscaped: String {
        var result = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            switch scalar {
            case "&": result.append(contentsOf: "&amp;".unicodeScalars)
            case "<": result.append(contentsOf: "&lt;".unicodeScalars)
            case ">": result.append(contentsOf: "&gt;".unicodeScalars)
            case "\"": result.append(contentsOf: "&quot;".unicodeScalars)
            case "'": result.append(contentsOf: "&#39;".unicodeScalars)
            default: result.append(scalar)
            }
        }
        return String(result)
    }
}
