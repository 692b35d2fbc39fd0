import Foundation
import SproutWire

/// The wire shapes read as the kit's models, with `StrapiTimestamp` dates.
enum CommunityWire {
    static func date(_ text: String, _ what: @autoclosure () -> String) throws -> Date {
        guard let date = StrapiTimestamp.date(from: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "unreadable timestamp \"\(text)\" in \(what())"))
        }
        return date
    }
}

extension StrapiUserJSON {
    func communityUser() throws -> CommunityUser {
        CommunityUser(
            id: id, username: username, email: email, confirmed: confirmed, blocked: blocked ?? false,
            createdAt: try CommunityWire.date(createdAt, "user \(id)"), updatedAt: try CommunityWire.date(updatedAt, "user \(id)")
        )
    }
}

extension StrapiNestedUserJSON {
    func communityUser() throws -> CommunityUser {
        CommunityUser(
            id: id, username: username, email: email, confirmed: confirmed, blocked: blocked ?? false,
            createdAt: try CommunityWire.date(createdAt, "user \(id)"), updatedAt: try CommunityWire.date(updatedAt, "user \(id)")
        )
    }
}

extension StrapiAuthJSON {
    func communityAuth() throws -> CommunityAuth {
        CommunityAuth(token: jwt, user: try user.communityUser())
    }
}

extension CommentShallowJSON {
    func summary() throws -> CommentSummary {
        CommentSummary(
            id: id, text: comment, authorID: user, postID: post,
            createdAt: try CommunityWire.date(createdAt, "comment \(id)"), updatedAt: try CommunityWire.date(updatedAt, "comment \(id)")
        )
    }
}

extension PostJSON {
    func post() throws -> Post {
        Post(
            id: id, text: text, author: try user.communityUser(),
            createdAt: try CommunityWire.date(createdAt, "post \(id)"), updatedAt: try CommunityWire.date(updatedAt, "post \(id)"),
            comments: try comments.map { try $0.summary() }, isHidden: hidden ?? false
        )
    }
}

extension CommentJSON {
    func comment() throws -> Comment {
        Comment(
            id: id, text: self.comment, author: try user.communityUser(), postID: post?.id,
            createdAt: try CommunityWire.date(createdAt, "comment \(id)"), updatedAt: try CommunityWire.date(updatedAt, "comment \(id)"),
            isHidden: hidden ?? false
        )
    }
}
