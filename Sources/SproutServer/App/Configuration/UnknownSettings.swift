/// Refuses environment variables that look like Sprout's own settings but are none of them — a misspelt
/// `MARKET_MAX_IMAGE_BYTE` would otherwise be ignored without a word and the default would quietly apply.
///
/// Only names under Sprout's own prefixes are judged, so the rest of the environment (`HOSTNAME`, `PATH`, another
/// program's settings) never stops a start. The unprefixed settings (`PORT`, `LOG_LEVEL`, …) are too generic a
/// stem to guard.
enum UnknownSettings {
    /// The stems of Sprout's service settings. Narrow on purpose: `EMAIL_VISIBILITY`, not `EMAIL_`.
    static let guardedPrefixes = [
        "MARKET_", "BOARD_", "DIARY_", "COMMUNITY_", "WEATHER_", "OPENWEATHER_", "OPEN_METEO_", "SIGNUPS_", "EMAIL_VISIBILITY", "EMAIL_CONFIRMATION", "BACKUP_", "AUDIT_", "EVENTS_",
    ]

    /// Throws one `ConfigurationError` naming every unknown setting in `environment`, each with the nearest known
    /// name or, when none is near, the known names under its prefix. An empty value is unset, as for known settings.
    static func check(_ environment: [String: String], known: [String]) throws {
        let knownNames = Set(known)
        let unknown = environment.filter { name, value in
            !value.isEmpty && !knownNames.contains(name) && isGuarded(name) && !isServiceLink(name)
        }.keys.sorted()
        guard !unknown.isEmpty else { return }
        throw ConfigurationError(unknown.map { problem(with: $0, known: known) }.joined(separator: "; "))
    }

    static func isGuarded(_ name: String) -> Bool {
        guardedPrefixes.contains { name.hasPrefix($0) }
    }

    /// Variables Kubernetes (`MARKET_SERVICE_HOST`, `MARKET_PORT_80_TCP`) and Docker links (`BOARD_NAME`,
    /// `BOARD_ENV_…`) make for a neighbour that happens to be called `market` or `board`: not settings at all.
    static func isServiceLink(_ name: String) -> Bool {
        name.contains("_SERVICE_HOST") || name.contains("_SERVICE_PORT") || name.hasSuffix("_PORT") || name.contains("_PORT_")
            || name.hasSuffix("_NAME") || name.contains("_ENV_")
    }

    /// The nearest is sought among the guarded settings only (`WEATHER_TIMEOUT` is no misspelt `IDLE_TIMEOUT`), and
    /// suggested when at most two fifths of the name differ (`BOARD_TOKEN` → `BOARD_API_TOKEN`).
    private static func problem(with name: String, known: [String]) -> String {
        let nearest = known.filter(isGuarded).map { (name: $0, distance: editDistance(name, $0)) }.min { $0.distance < $1.distance }
        if let nearest, nearest.distance <= max(2, name.count * 2 / 5) {
            return "unknown setting \(name) (did you mean \(nearest.name)?)"
        }
        let prefix = guardedPrefixes.first { name.hasPrefix($0) } ?? ""
        let siblings = known.filter { $0.hasPrefix(prefix) }.sorted()
        return "unknown setting \(name) (Sprout's \(prefix)… settings: \(siblings.joined(separator: ", ")))"
    }

    /// Levenshtein distance: the fewest single-character insertions, deletions and substitutions from `a` to `b`.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.utf8), b = Array(b.utf8)
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, y) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
