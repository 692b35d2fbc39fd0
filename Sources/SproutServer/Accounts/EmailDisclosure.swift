/// Who may read an account's email address in answers that show other people (Strapi's author objects, the
/// board's `writer.emailAddress`): its owner, and everyone else only when `EMAIL_VISIBILITY=everyone` restores the
/// original servers' behaviour (security review, point 18). Others get a masked address of the same type.
public enum EmailVisibility: String, Sendable, CaseIterable {
    case owner
    case everyone
}

/// The email addresses one caller may read.
struct EmailDisclosure: Sendable {
    /// The calling account; nil for a caller that is no account (the board's static token).
    let viewerID: Int?
    let visibility: EmailVisibility

    /// `address` as this caller may see it: whole for its owner (or everyone, by setting), else masked.
    func shown(_ address: String, ofAccount ownerID: Int) -> String {
        if visibility == .everyone || ownerID == viewerID { return address }
        return Self.masked(address)
    }

    /// The first character of the local part, `***`, and the domain: `a***@example.com`. Still an email-shaped
    /// string for the apps that decode it, and still recognisable to its owner, but no list of addresses to harvest.
    static func masked(_ address: String) -> String {
        guard let at = address.lastIndex(of: "@") else { return "***" }
        let first = address[..<at].first.map(String.init) ?? ""
        return first + "***" + address[at...]
    }
}
