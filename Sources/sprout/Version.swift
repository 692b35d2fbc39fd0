import SproutServer

/// What `sprout --version` prints: the version (`SproutVersion.current`, raised by hand for a release; backups'
/// manifests carry it too) and the commit the binary was built from (`BuildCommit`, written by Plugins/BuildCommit
/// from git at build time; "unknown" in a build without git).
extension SproutVersion {
    static var description: String {
        "\(current) (commit \(BuildCommit.id)\(BuildCommit.modified ? ", with uncommitted changes" : ""))"
    }
}
