import Foundation
import GRDB
import HTTPTypes
import NIOCore
import PostgresNIO
import _ConnectionPoolModule

/// An error that means the server cannot store anything just now, not that the request or the code is wrong:
/// the disk is full, or PostgreSQL is away (restarting, unreachable, refusing connections). Answered with 503 and
/// `Retry-After` instead of 500, so clients and load balancers try again; reads that need no write go on.
enum UnavailableStorage: Equatable {
    case diskFull
    case databaseUnavailable

    /// What the client is told.
    var message: String {
        switch self {
        case .diskFull: "The server's disk is full, so nothing can be saved right now. Reading still works; try again later."
        case .databaseUnavailable: "The database is unavailable for a moment. Try again shortly."
        }
    }

    /// Seconds until a retry is worth it: a database restarts in seconds, freeing a disk takes a person.
    var retryAfter: Int {
        switch self {
        case .diskFull: 60
        case .databaseUnavailable: 2
        }
    }

    /// Nil for any other error.
    init?(_ error: any Error) {
        switch error {
        case let error as DatabaseError:
            // SQLITE_FULL: the database file or its journal could not grow.
            guard error.resultCode == .SQLITE_FULL else { return nil }
            self = .diskFull
        case let error as PosixFile.Failure:
            guard Self.isOutOfSpace(errno: error.code) else { return nil }
            self = .diskFull
        case let error as IOError:
            guard Self.isOutOfSpace(errno: error.errnoCode) else { return nil }
            self = .diskFull
        case let error as PSQLError:
            guard let kind = Self.classify(error) else { return nil }
            self = kind
        case is PostgresConnectionGone:
            // A statement was not sent: its connection had closed (PostgresTransaction).
            self = .databaseUnavailable
        case is ConnectionPoolError:
            // The pool could not make a connection for a while (its circuit breaker).
            self = .databaseUnavailable
        case let error as CocoaError:
            // FileManager's: out of space itself, or a POSIX error underneath.
            guard error.code == .fileWriteOutOfSpace || Self.isOutOfSpace(error.userInfo[NSUnderlyingErrorKey] as? NSError) else { return nil }
            self = .diskFull
        case let error as POSIXError:
            guard Self.isOutOfSpace(errno: error.code.rawValue) else { return nil }
            self = .diskFull
        case let error as NSError:
            guard Self.isOutOfSpace(error) || Self.isOutOfSpace(error.userInfo[NSUnderlyingErrorKey] as? NSError) else { return nil }
            self = .diskFull
        default:
            return nil
        }
    }

    private static func isOutOfSpace(errno code: Int32) -> Bool {
        code == ENOSPC || code == EDQUOT
    }

    private static func isOutOfSpace(_ error: NSError?) -> Bool {
        guard let error else { return false }
        return (error.domain == NSCocoaErrorDomain && error.code == CocoaError.fileWriteOutOfSpace.rawValue)
            || (error.domain == NSPOSIXErrorDomain && isOutOfSpace(errno: Int32(error.code)))
    }

    private static func classify(_ error: PSQLError) -> UnavailableStorage? {
        switch error.code {
        case .connectionError, .serverClosedConnection, .uncleanShutdown:
            return .databaseUnavailable
        case .unexpectedBackendMessage:
            // PgBouncer's "server conn crashed?" (FATAL, 08P01), which postgres-nio did not expect: the server
            // connection behind this client connection died (PostgreSQL restarting, a terminated session).
            return .databaseUnavailable
        case .server:
            let state = error.serverInfo?[.sqlState] ?? ""
            // 53100 disk_full; 08 connection exceptions (PgBouncer's "server login has been failing" too),
            // 57P01–57P03 shutting down, crashed, starting up; 53300 too many connections.
            if state == "53100" { return .diskFull }
            if state.hasPrefix("08") || ["57P01", "57P02", "57P03", "53300"].contains(state) { return .databaseUnavailable }
            return nil
        default:
            return nil
        }
    }
}
