import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing
@testable import SproutServer

/// The server side of the web app: pages, the shared layout and static files.
/// What the pages do in a browser is tested in Tests/Browser.
@Suite struct WebPagesTests {
    struct Page: Sendable {
        let status: HTTPResponse.Status
        let headers: HTTPFields
        let body: String
    }

    static let appPaths = ["/todos", "/diary", "/community", "/market", "/board"]

    @Test(arguments: ["/"] + appPaths)
    func everyPageIsHTMLWithNavigationToAllFiveApps(path: String) async throws {
        let page = try await get(path)
        #expect(page.status == .ok)
        #expect(page.headers[.contentType] == "text/html; charset=utf-8")
        #expect(page.body.hasPrefix("<!doctype html>"))
        #expect(page.body.contains(#"<html lang="ko">"#))
        #expect(page.body.contains(#"name="viewport""#))
        for appPath in Self.appPaths {
            #expect(page.body.contains(#"<a href="\#(appPath)""#), "navigation to \(appPath) on \(path)")
        }
        // The page names only its own origin's files, and says so to the browser.
        let addresses = page.body.replacingOccurrences(of: "http://www.w3.org/2000/svg", with: "")  // a namespace, not a fetch
        #expect(!addresses.contains("http://") && !addresses.contains("https://"))
        #expect(page.headers[.contentSecurityPolicy]?.hasPrefix("default-src 'self'") == true)
    }

    /// Pinned whole: this origin only, with `data:` images for the inline favicon and `blob:` images for the market
    /// form's previews of picked files; no inline scripts, plugins, `<base>` or framing.
    /// (`/market/new` sends a signed-out visitor to log in, 303: no page; `/market/vendor` shows its prompt.)
    @Test(arguments: ["/", "/todos", "/market", "/market/products/1", "/market/vendor", "/community", "/board", "/board/2/write"])
    func everyPageSendsTheSameContentSecurityPolicy(path: String) async throws {
        let page = try await get(path)
        #expect(page.headers[.contentSecurityPolicy]
            == "default-src 'self'; img-src 'self' data: blob:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
    }

    @Test func theCurrentAppIsMarkedInTheNavigation() async throws {
        let page = try await get("/todos")
        #expect(page.body.contains(#"<a href="/todos" aria-current="page">"#))
        #expect(!page.body.contains(#"<a href="/diary" aria-current="page">"#))
        let home = try await get("/")
        #expect(!home.body.contains("aria-current"))
    }

    @Test func homeHasACardForEachApp() async throws {
        let page = try await get("/")
        #expect(page.body.components(separatedBy: #"<li class="app-card"#).count - 1 == 5)
        for app in WebApp.all {
            #expect(page.body.contains(#"class="app-card-link" href="\#(app.path)""#))
            #expect(page.body.contains(app.englishName))
        }
    }

    /// Signed out, the shared list is read-only: no form to add to it, an invitation to an own list instead.
    @Test func todosPageHasTheAppsControlsAndLoadsItsScript() async throws {
        let page = try await get("/todos")
        for id in ["search-query", "hide-done", "favourites-only", "todo-list", "loading", "list-end", "sentinel", "todos-invite"] {
            #expect(page.body.contains(#"id="\#(id)""#), "missing #\(id)")
        }
        #expect(page.body.contains(#"data-read-only="true""#))
        #expect(page.body.contains(#"href="/account/login?next=/todos" id="todos-login""#))
        #expect(page.body.contains(#"href="/account/signup?next=/todos" id="todos-signup""#))
        for id in ["create-form", "new-title", "delete-dialog"] {
            #expect(!page.body.contains(#"id="\#(id)""#), "a signed-out visitor has #\(id)")
        }
        #expect(page.body.contains(#"<label for="search-query">"#))
        let version = try #require(Self.assetVersion(in: page.body))
        #expect(page.body.contains(#"<script type="module" src="/static/todos.js?v=\#(version)"></script>"#))
        #expect(page.body.contains(#"<link rel="stylesheet" href="/static/app.css?v=\#(version)">"#))
    }

    @Test(arguments: [
        ("app.css", "text/css; charset=utf-8"), ("todos.js", "text/javascript; charset=utf-8"), ("site.js", "text/javascript; charset=utf-8"),
        ("account.js", "text/javascript; charset=utf-8"), ("community.js", "text/javascript; charset=utf-8"),
        ("market.js", "text/javascript; charset=utf-8"), ("board.js", "text/javascript; charset=utf-8"),
    ])
    func staticFilesAreServedWithTheirContentType(name: String, contentType: String) async throws {
        let page = try await get("/static/\(name)")
        #expect(page.status == .ok)
        #expect(page.headers[.contentType] == contentType)
        #expect(page.headers[.xContentTypeOptions] == "nosniff")
        #expect(page.body.count > 1000)
        #expect(page.headers[.cacheControl] == "no-cache")
    }

    /// The versioned URL the layout writes may be cached for good; the version changes when a file does.
    @Test func versionedStaticURLsAreCachedLong() async throws {
        let home = try await get("/")
        let version = try #require(Self.assetVersion(in: home.body))
        let css = try await get("/static/app.css?v=\(version)")
        #expect(css.headers[.cacheControl] == "public, max-age=31536000, immutable")
        let stale = try await get("/static/app.css?v=old")
        #expect(stale.headers[.cacheControl] == "no-cache")
    }

    @Test(arguments: ["/static/missing.css", "/static/..%2FTemplates%2Flayout.mustache", "/static/layout.mustache", "/nowhere"])
    func unknownWebPathsAre404(path: String) async throws {
        let page = try await get(path)
        #expect(page.status == .notFound)
    }

    @Test func assetVersionFollowsTheFilesContents() throws {
        func assets(_ files: EmbeddedResources.File...) throws -> StaticAssets {
            try StaticAssets(folders: [WebFolder(name: "site", files: files)])
        }
        let first = try assets(.init(name: "a.css", text: "body{}"))
        #expect(try assets(.init(name: "a.css", text: "body{}")).version == first.version)
        #expect(try assets(.init(name: "a.css", text: "body{color:red}")).version != first.version)
        #expect(try assets(.init(name: "a.css", text: "body{}"), .init(name: "notes.txt", text: "x"))["notes.txt"] == nil)
    }

    /// swift-mustache escapes whole `Character`s, so a quote followed by a combining mark came out as it was and
    /// ended the attribute it stood in. The pages' templates escape every Unicode scalar.
    @Test func aQuoteOrBracketBeforeACombiningMarkIsEscapedInTemplates() throws {
        let template = WebFolder(name: "site", files: [.init(name: "box.mustache", text: #"<input value="{{text}}">"#)])
        let library = try WebTemplates(folders: [template]).library
        let rendered = library.render(["text": "\"\u{301} autofocus onfocus=x '\u{1F3FB} <\u{301}b &\u{301}"], withTemplate: "box")
        #expect(rendered == "<input value=\"&quot;\u{301} autofocus onfocus=x &#39;\u{1F3FB} &lt;\u{301}b &amp;\u{301}\">")
        #expect(SVGBarChart.svgText("<\u{301}script>") == "&lt;\u{301}script&gt;")
    }

    /// Every service's folder serves under `/static/{name}`, so a name used in two folders is a mistake caught at start.
    @Test func aFileNameUsedInTwoWebFoldersIsRefused() throws {
        let site = WebFolder(name: "site", files: [.init(name: "site.js", text: "export {};")])
        let market = WebFolder(name: "market", files: [.init(name: "market.js", text: "export {};")])
        #expect(try StaticAssets(folders: [site, market])["market.js"] != nil)
        let clash = WebFolder(name: "market", files: market.files + [.init(name: "site.js", text: "export {};")])
        #expect(throws: WebResourceError.self) { try StaticAssets(folders: [site, clash]) }
    }

    /// The binary carries the web folders and the OpenAPI document (Plugins/EmbedResources): each file byte for byte
    /// as it is in Sources/, none missing, none extra; and every embedded web folder is one the server loads.
    @Test func theBuiltInFilesAreTheSourceFolders() throws {
        let server = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/SproutServer")
        let manager = FileManager.default
        var onDisk: [String: URL] = ["Document": server.appendingPathComponent("OpenAPI/Document")]
        for service in try manager.contentsOfDirectory(atPath: server.appendingPathComponent("Web").path) {
            let serviceURL = server.appendingPathComponent("Web").appendingPathComponent(service)
            for entry in (try? manager.contentsOfDirectory(atPath: serviceURL.path)) ?? [] {
                var isDirectory: ObjCBool = false
                let url = serviceURL.appendingPathComponent(entry)
                if manager.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue { onDisk[entry] = url }
            }
        }
        #expect(Set(EmbeddedResources.folders.keys) == Set(onDisk.keys))
        #expect(Set(WebResources.folders) == Set(onDisk.keys).subtracting(["Document"]))
        for (folder, url) in onDisk {
            let names = try manager.contentsOfDirectory(atPath: url.path).filter { !$0.hasPrefix(".") }
            let embedded = EmbeddedResources.folders[folder] ?? []
            #expect(Set(embedded.map(\.name)) == Set(names), "folder \(folder)")
            for file in embedded {
                let bytes = try [UInt8](Data(contentsOf: url.appendingPathComponent(file.name)))
                #expect(file.bytes == bytes, "\(folder)/\(file.name)")
            }
        }
    }

    private func get(_ path: String) async throws -> Page {
        try await withTestApp { client, _ in
            try await client.execute(uri: path, method: .get) { response in
                Page(status: response.status, headers: response.headers, body: String(buffer: response.body))
            }
        }
    }

    static func assetVersion(in html: String) -> String? {
        guard let range = html.range(of: #"app\.css\?v=([0-9a-f]+)"#, options: .regularExpression) else { return nil }
        return String(html[range].dropFirst("app.css?v=".count))
    }
}
