import SproutWire

// The Community answers write themselves, keys in sorted order as the shared JSONEncoder sorts them: JSONEncoder
// was half of a feed request's CPU (20 posts with their comments, perf under wrk). `JSONWriterTests` keeps the
// bytes equal to JSONEncoder's.

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

extension StrapiNestedUserJSON: JSONWritable {
    func writeJSON(into writer: inout JSONWriter) {
        writer.raw(#"{"blocked":"#)
        writer.optionalBool(blocked)
        writer.raw(#","confirmed":"#)
        writer.bool(confirmed)
        writer.raw(#","created_at":"#)
        writer.string(createdAt)
        writer.raw(#","email":"#)
        writer.string(email)
        writer.raw(#","id":"#)
        writer.int(id)
        writer.raw(#","provider":"#)
        writer.string(provider)
        writer.raw(#","role":"#)
        writer.int(role)
        writer.raw(#","updated_at":"#)
        writer.string(updatedAt)
        writer.raw(#","username":"#)
        writer.string(username)
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
        writer.raw(#"{"created_at":"#)
        writer.string(createdAt)
        writer.raw(#","id":"#)
        writer.int(id)
        writer.raw(#","text":"#)
        writer.string(text)
        writer.raw(#","updated_at":"#)
        writer.string(updatedAt)
        writer.raw(#","user":"#)
        writer.optionalInt(user)
        writer.raw("}")
    }
}

extension CommentShallowJSON: JSONWritable {
    func writeJSON(into writer: inout JSONWriter) {
        writer.raw(#"{"comment":"#)
        writer.string(comment)
        writer.raw(#","created_at":"#)
        writer.string(createdAt)
        writer.raw(#","id":"#)
        writer.int(id)
        writer.raw(#","post":"#)
        writer.optionalInt(post)
        writer.raw(#","updated_at":"#)
        writer.string(updatedAt)
        writer.raw(#","user":"#)
        writer.optionalInt(user)
        writer.raw("}")
    }
}

extension PostJSON: JSONWritable {
    func writeJSON(into writer: inout JSONWriter) {
        writer.raw(#"{"comments":"#)
        comments.writeJSON(into: &writer)
        writer.raw(#","created_at":"#)
        writer.string(createdAt)
        if hidden == true { writer.raw(#","hidden":true"#) }
        writer.raw(#","id":"#)
        writer.int(id)
        writer.raw(#","text":"#)
        writer.string(text)
        writer.raw(#","updated_at":"#)
        writer.string(updatedAt)
        writer.raw(#","user":"#)
        user.writeJSON(into: &writer)
        writer.raw("}")
    }
}

extension CommentJSON: JSONWritable {
    func writeJSON(into writer: inout JSONWriter) {
        writer.raw(#"{"comment":"#)
        writer.string(comment)
        writer.raw(#","created_at":"#)
        writer.string(createdAt)
        if hidden == true { writer.raw(#","hidden":true"#) }
        writer.raw(#","id":"#)
        writer.int(id)
        writer.raw(#","post":"#)
        if let post { post.writeJSON(into: &writer) } else { writer.raw("null") }
        writer.raw(#","updated_at":"#)
        writer.string(updatedAt)
        writer.raw(#","user":"#)
        user.writeJSON(into: &writer)
        writer.raw("}")
    }
}
