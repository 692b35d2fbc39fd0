import Foundation
import Testing

/// The community fixtures from the shared research notes (`fixtures/community/*.json`), copied here so the tests
/// never read outside the package. Reconstructed from the original clients' models, except the three Strapi
/// error bodies, which were captured from Strapi v3.
enum CommunityFixtures {
    static let authLocal = #"""
    {
      "jwt": "<header>.<payload {\"id\":7,\"iat\":1641363165,\"exp\":1643955165}>.<signature>",
      "user": {
        "id": 7,
        "username": "sesac",
        "email": "sesac@example.com",
        "provider": "local",
        "confirmed": true,
        "blocked": null,
        "role": {
          "id": 1,
          "name": "Authenticated",
          "description": "Default role given to authenticated user.",
          "type": "authenticated"
        },
        "created_at": "2022-01-03T05:21:07.412Z",
        "updated_at": "2022-01-03T05:21:07.431Z",
        "posts": [],
        "comments": []
      }
    }
    """#

    static let changePassword = #"""
    {
      "id": 7,
      "username": "sesac",
      "email": "sesac@example.com",
      "provider": "local",
      "confirmed": true,
      "blocked": null,
      "role": {
        "id": 1,
        "name": "Authenticated",
        "description": "Default role given to authenticated user.",
        "type": "authenticated"
      },
      "created_at": "2022-01-03T05:21:07.412Z",
      "updated_at": "2022-01-13T02:44:19.871Z",
      "posts": [
        {
          "id": 42,
          "text": "오늘 새싹 과제 다 하신 분?",
          "user": 7,
          "created_at": "2022-01-05T07:12:45.123Z",
          "updated_at": "2022-01-05T07:15:02.884Z"
        }
      ],
      "comments": [
        {
          "id": 99,
          "comment": "삭제된 글에 달았던 댓글",
          "user": 7,
          "post": null,
          "created_at": "2022-01-04T03:00:00.000Z",
          "updated_at": "2022-01-04T03:00:00.000Z"
        }
      ]
    }
    """#

    static let commentsList = #"""
    [
      {
        "id": 101,
        "comment": "저요!",
        "user": {
          "id": 9,
          "username": "jack",
          "email": "jack@example.com",
          "provider": "local",
          "confirmed": true,
          "blocked": null,
          "role": 1,
          "created_at": "2022-01-02T01:00:00.000Z",
          "updated_at": "2022-01-02T01:00:00.000Z"
        },
        "post": {
          "id": 42,
          "text": "오늘 새싹 과제 다 하신 분?",
          "user": 7,
          "created_at": "2022-01-05T07:12:45.123Z",
          "updated_at": "2022-01-05T07:15:02.884Z"
        },
        "created_at": "2022-01-05T07:20:11.009Z",
        "updated_at": "2022-01-05T07:20:11.009Z"
      }
    ]
    """#

    static let postsList = #"""
    [
      {
        "id": 42,
        "text": "오늘 새싹 과제 다 하신 분?",
        "user": {
          "id": 7,
          "username": "sesac",
          "email": "sesac@example.com",
          "provider": "local",
          "confirmed": true,
          "blocked": null,
          "role": 1,
          "created_at": "2022-01-03T05:21:07.412Z",
          "updated_at": "2022-01-03T05:21:07.431Z"
        },
        "created_at": "2022-01-05T07:12:45.123Z",
        "updated_at": "2022-01-05T07:15:02.884Z",
        "comments": [
          {
            "id": 101,
            "comment": "저요!",
            "user": 9,
            "post": 42,
            "created_at": "2022-01-05T07:20:11.009Z",
            "updated_at": "2022-01-05T07:20:11.009Z"
          }
        ]
      },
      {
        "id": 41,
        "text": "첫 글입니다",
        "user": {
          "id": 9,
          "username": "jack",
          "email": "jack@example.com",
          "provider": "local",
          "confirmed": true,
          "blocked": null,
          "role": 1,
          "created_at": "2022-01-02T01:00:00.000Z",
          "updated_at": "2022-01-02T01:00:00.000Z"
        },
        "created_at": "2022-01-04T23:59:59.500Z",
        "updated_at": "2022-01-04T23:59:59.500Z",
        "comments": []
      }
    ]
    """#

    static let errorForbidden = #"""
    {
      "statusCode": 403,
      "error": "Forbidden",
      "message": "Forbidden"
    }
    """#

    static let errorInvalidIdentifier = #"""
    {
      "statusCode": 400,
      "error": "Bad Request",
      "message": [
        {
          "messages": [
            {
              "id": "Auth.form.error.invalid",
              "message": "Identifier or password invalid."
            }
          ]
        }
      ],
      "data": [
        {
          "messages": [
            {
              "id": "Auth.form.error.invalid",
              "message": "Identifier or password invalid."
            }
          ]
        }
      ]
    }
    """#

    static let errorInvalidToken = #"""
    {
      "statusCode": 401,
      "error": "Unauthorized",
      "message": "Invalid token."
    }
    """#

    static let errorNotFound = #"{"statusCode":404,"error":"Not Found","message":"Not Found"}"#

    /// A Strapi form error with one message, as the Sprout server sends them.
    static func formError(status: Int = 400, id: String, message: String) -> String {
        let reason = status == 429 ? "Too Many Requests" : "Bad Request"
        let nested = #"[{"messages":[{"id":"\#(id)","message":"\#(message)"}]}]"#
        return #"{"statusCode":\#(status),"error":"\#(reason)","message":\#(nested),"data":\#(nested)}"#
    }

    /// The first element of a fixture array, as JSON text: a single post or comment answer.
    static func first(of array: String) throws -> String {
        let items = try JSONSerialization.jsonObject(with: Data(array.utf8)) as? [Any]
        let first = try #require(items?.first)
        return String(decoding: try JSONSerialization.data(withJSONObject: first), as: UTF8.self)
    }
}
