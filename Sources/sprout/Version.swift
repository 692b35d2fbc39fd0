/// What `sprout --version` prints: the version, raised by hand for a release, and the commit the binary was built
/// from (`BuildCommit`, written by Plugins/BuildCommit from git at build time; "unknown" in a build without git).
enum SproutVersion {
    static let number = "0.1.0"

    static var description: String {
        "\(number) (commit \(BuildCommit.id)\(BuildCommit.modified ? ", with uncommitted changes" : ""))"
    }
}
