import Foundation

/// The diary pulled as soon as another device changes it: the `diary` topic of an `EventStream`.
extension DiarySyncEngine {
    /// Applies every event of `stream` until it ends; throws what ends it (`EventStream`'s terminal errors).
    public func follow(_ stream: EventStream) async throws {
        for try await event in stream {
            apply(event)
        }
    }

    /// Starts a sync for a `diary` event (a change, a reset, or `ready`: changes may have been missed before the
    /// stream began); other topics' events are ignored. Events are coalesced: while a live sync runs, any number
    /// of events make exactly one more sync after it, which pulls them all.
    public func apply(_ event: LiveEvent) {
        if case .ready(let cursors) = event {
            guard cursors[LiveTopic.diary.name] != nil else { return }
        } else if event.topic != LiveTopic.diary.name {
            return
        }
        liveSyncWanted = true
        guard liveSyncs == nil else { return }
        liveSyncs = Task { await self.runLiveSyncs() }
    }

    /// Waits until the syncs live updates asked for have run.
    public func liveSyncsFinished() async {
        while let liveSyncs {
            await liveSyncs.value
        }
    }

    private func runLiveSyncs() async {
        while liveSyncWanted, !Task.isCancelled {
            liveSyncWanted = false
            do {
                // A sync, not only a pull: it waits for any sync running, and pushing first is what every sync does.
                try await sync()
                lastLiveSyncError = nil
            } catch {
                // Left for the next event or the app's own retries (`syncRetrying`).
                lastLiveSyncError = error
            }
        }
        liveSyncs = nil
    }
}
