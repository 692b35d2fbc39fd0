import Foundation
import SproutWire

// The Community answers write themselves, keys in sorted order as the shared JSONEncoder sorts them: JSONEncoder
// was half of a feed request's CPU (20 posts with their comments, perf under wrk). Posts and comments are written
// straight from their rows (`PostAnswer`, `CommentAnswer`); the users' answers from their SproutWire values.
// `JSONWriterTests` keeps the bytes equal to what JSONEncoder writes of the SproutWire description.

extension Array: JSONWritable where Element: JSONWritable {
    func writeJSON(into writer: inout JSONWriter) {
        writer.raw("[")
        for (index, element) in enumerated() {
            if index > 0 { writer.raw(",") }
            element.writeJSON(into: &writer)
        }
        writer.raw("]")
    }
}

extension StrapiRoleJSON: JSONWritable {
    func writeJSON(into writer: inout JSONWriter) {
        writer.raw(#"{"description":"#)
        writer.string(description)
        writer.raw(#","id":"#)
        writer.int(id)
        writer.raw(#","name":"#)
        writer.string(name)
        writer.raw(#","type":"#)
        writer.string(type)
        writer.raw("}")
    }
}

extension StrapiUserJSON: JSONWritable {
    func writeJSON(into writer: inout JSONWriter) {
        writer.raw(#"{"blocked":"#)
        writer.optionalBool(blocked)
        if let comments {
            writer.raw(#","comments":"#)
            comments.writeJSON(into: &writer)
        }
        writer.raw(#","confirmed":"#)
        writer.bool(confirmed)
        writer.raw(#","created_at":"#)
        writer.string(createdAt)
        writer.raw(#","email":"#)
        writer.string(email)
        writer.raw(#","id":"#)
        writer.int(id)
        if let posts {
            writer.raw(#","posts":"#)
            posts.writeJSON(into: &writer)
        }
        writer.raw(#","provider":"#)
        writer.string(provider)
        writer.raw(#","role":"#)
        role.writeJSON(into: &writer)
        writer.raw(#","updated_at":"#)
        writer.string(updatedAt)
        writer.raw(#","username":"#)
        writer.string(username)
        writer.raw("}")
    }
}

extension StrapiAuthJSON: JSONWritable {
    func writeJSON(into writer: inout JSONWriter) {
        writer.raw(#"{"jwt":"#)
        writer.string(jwt)
        writer.raw(#","user":"#)
        user.writeJSON(into: &writer)
        writer.raw("}")
    }
}

extension PostShallowJSON: JSONWritable {
    func writeJSON(into writer: inout JSONWriter) {
        writer.shallowPost(id: id, text: text, user: user, createdAt: .text(createdAt), updatedAt: .text(updatedAt))
    }
}

extension ShallowPost: JSONWritable {
    func writeJSON(into writer: inout JSONWriter) {
        writer.shallowPost(id: id, text: text, user: authorID, createdAt: .date(createdAt), updatedAt: .date(updatedAt))
    }
}

extension CommentShallowJSON: JSONWritable {
    func writeJSON(into writer: inout JSONWriter) {
        writer.shallowComment(id: id, comment: comment, user: user, post: post, createdAt: .text(createdAt), updatedAt: .text(updatedAt))
    }
}

extension ShallowComment: JSONWritable {
    func writeJSON(into writer: inout JSONWriter) {
        writer.shallowComment(id: id, comment: text, user: authorID, post: postID, createdAt: .date(createdAt), updatedAt: .date(updatedAt))
    }
}

/// A post as every post answer shows it (`PostJSON(post, emails:)` describes it), written straight from the post:
/// building the `PostJSON` first made two strings for each of a feed page's ~440 timestamps and copied every row
/// once more, 10 % of its CPU (perf).
struct PostAnswer: JSONWritable {
    let post: Post
    let emails: EmailDisclosure

    func writeJSON(into writer: inout JSONWriter) {
        writer.raw(#"{"comments":"#)
        post.comments.writeJSON(into: &writer)
        writer.raw(#","created_at":"#)
        writer.strapiTime(.date(post.createdAt))
        if post.hiddenAt != nil { writer.raw(#","hidden":true"#) }
        writer.raw(#","id":"#)
        writer.int(post.id)
        writer.raw(#","text":"#)
        writer.string(post.text)
        writer.raw(#","updated_at":"#)
        writer.strapiTime(.date(post.updatedAt))
        writer.raw(#","user":"#)
        writer.nestedUser(post.author, emails: emails)
        writer.raw("}")
    }
}

/// A comment as every comment answer shows it (`CommentJSON(comment, emails:)` describes it), written straight
/// from the comment, as `PostAnswer` writes a post.
struct CommentAnswer: JSONWritable {
    let comment: Comment
    let emails: EmailDisclosure

    func writeJSON(into writer: inout JSONWriter) {
        writer.raw(#"{"comment":"#)
        writer.string(comment.text)
        writer.raw(#","created_at":"#)
        writer.strapiTime(.date(comment.createdAt))
        if comment.hiddenAt != nil { writer.raw(#","hidden":true"#) }
        writer.raw(#","id":"#)
        writer.int(comment.id)
        writer.raw(#","post":"#)
        comment.post.writeJSON(into: &writer)
        writer.raw(#","updated_at":"#)
        writer.strapiTime(.date(comment.updatedAt))
        writer.raw(#","user":"#)
        writer.nestedUser(comment.author, emails: emails)
        writer.raw("}")
    }
}

/// A Strapi timestamp an answer shows: text a SproutWire value already holds, or a date written in place.
enum StrapiTime {
    case text(String)
    case date(Date)
}

extension JSONWriter {
    mutating func strapiTime(_ time: StrapiTime) {
        switch time {
        case .text(let text): string(text)
        case .date(let date): timestamp(date, fractionDigits: StrapiTimestamp.fractionDigits)
        }
    }

    /// A post one relation deep (`PostShallowJSON`).
    mutating func shallowPost(id: Int, text: String, user: Int?, createdAt: StrapiTime, updatedAt: StrapiTime) {
        raw(#"{"created_at":"#)
        strapiTime(createdAt)
        raw(#","id":"#)
        int(id)
        raw(#","text":"#)
        string(text)
        raw(#","updated_at":"#)
        strapiTime(updatedAt)
        raw(#","user":"#)
        optionalInt(user)
        raw("}")
    }

    /// A comment one relation deep (`CommentShallowJSON`).
    mutating func shallowComment(id: Int, comment: String, user: Int?, post: Int?, createdAt: StrapiTime, updatedAt: StrapiTime) {
        raw(#"{"comment":"#)
        string(comment)
        raw(#","created_at":"#)
        strapiTime(createdAt)
        raw(#","id":"#)
        int(id)
        raw(#","post":"#)
        optionalInt(post)
        raw(#","updated_at":"#)
        strapiTime(updatedAt)
        raw(#","user":"#)
        optionalInt(user)
        raw("}")
    }

    /// A post's or comment's author (`StrapiNestedUserJSON(author, emails:)`), its address as the viewer may see it.
    mutating func nestedUser(_ author: Author, emails: EmailDisclosure) {
        raw(#"{"blocked":"#)
        optionalBool(author.blocked)
        raw(#","confirmed":true,"created_at":"#)
        strapiTime(.date(author.createdAt))
        raw(#","email":"#)
        string(emails.shown(author.email, ofAccount: author.id))
        raw(#","id":"#)
        int(author.id)
        raw(#","provider":"local","role":"#)
        int(StrapiRoleJSON.authenticated.id)
        raw(#","updated_at":"#)
        strapiTime(.date(author.updatedAt))
        raw(#","username":"#)
        string(author.username)
        raw("}")
    }
}
