/// The recency order and sizes of a cache tier's entries: touch, insert and remove in constant time, and the
/// least recently used keys to evict until the entries fit a size.
struct LRUIndex<Key: Hashable> {
    private struct Node {
        var size: Int
        var older: Key?
        var newer: Key?
    }

    private var nodes: [Key: Node] = [:]
    private var oldest: Key?
    private var newest: Key?
    /// The sizes of all entries added up.
    private(set) var totalSize = 0

    /// How many entries there are.
    var count: Int { nodes.count }

    func contains(_ key: Key) -> Bool { nodes[key] != nil }

    /// The entries from the least to the most recently used.
    var keysFromOldest: [Key] {
        var keys: [Key] = []
        var key = oldest
        while let current = key {
            keys.append(current)
            key = nodes[current]?.newer
        }
        return keys
    }

    /// Adds `key` as the most recently used entry (replacing its size if it was there).
    mutating func insert(_ key: Key, size: Int) {
        remove(key)
        nodes[key] = Node(size: size, older: newest, newer: nil)
        if let newest { nodes[newest]?.newer = key }
        newest = key
        if oldest == nil { oldest = key }
        totalSize += size
    }

    /// Makes `key` the most recently used entry; false when it is not there.
    @discardableResult
    mutating func touch(_ key: Key) -> Bool {
        guard let node = nodes[key] else { return false }
        insert(key, size: node.size)
        return true
    }

    /// Takes `key` out; returns its size, or nil when it was not there.
    @discardableResult
    mutating func remove(_ key: Key) -> Int? {
        guard let node = nodes.removeValue(forKey: key) else { return nil }
        if let older = node.older { nodes[older]?.newer = node.newer } else { oldest = node.newer }
        if let newer = node.newer { nodes[newer]?.older = node.older } else { newest = node.older }
        totalSize -= node.size
        return node.size
    }

    /// Takes out the least recently used entries until the rest add up to at most `limit`; returns them, oldest first.
    mutating func evict(toFit limit: Int) -> [Key] {
        var evicted: [Key] = []
        while totalSize > limit, let key = oldest {
            remove(key)
            evicted.append(key)
        }
        return evicted
    }
}
