import Foundation
import Mustache

/// The web app's Mustache templates, read once from the web folders built into the binary (`WebResources`). Each
/// page template renders the main content, which `layout.mustache` then wraps (receiving it unescaped as
/// `{{{content}}}`). Every template escapes with `ScalarHTMLContentType`.
struct WebTemplates: Sendable {
    let library: MustacheLibrary

    init(folders: [WebFolder]) throws {
        ScalarHTMLContentType.register()
        var library = MustacheLibrary()
        for file in try WebResources.files(in: folders) where file.name.hasSuffix(".mustache") {
            try library.register(ScalarHTMLContentType.pragma + String(decoding: file.bytes, as: UTF8.self), named: String(file.name.dropLast(".mustache".count)))
        }
        self.library = library
    }

    /// Renders `template` with `context`, then the layout around it.
    func page(_ template: String, context: Any, layout: LayoutContext) throws(WebRenderingError) -> String {
        guard let content = library.render(context, withTemplate: template) else { throw .missingTemplate(template) }
        var layout = layout
        layout.content = content
        guard let page = library.render(layout, withTemplate: "layout") else { throw .missingTemplate("layout") }
        return page
    }
}

/// What the layout shows around every page.
struct LayoutContext {
    struct NavItem {
        let name: String
        let path: String
        let current: Bool
    }

    let title: String
    let pageName: String
    let assetVersion: String
    let nav: [NavItem]
    /// ES modules from `/static`, in order: `site.js` first, then the page's own.
    let scripts: [String]
    /// The signed-in account, shown in the header with its log-out button.
    let visitor: WebVisitor?
    /// The header's log-in link, which comes back to this page afterwards.
    let logInPath: String
    /// The header's sign-up link, which also comes back to this page afterwards.
    let signUpPath: String
    /// A console page (`/admin…`): the header's 관리 link is the current one.
    let console: Bool
    var content = ""
}

enum WebRenderingError: Error {
    case missingTemplate(String)
}
