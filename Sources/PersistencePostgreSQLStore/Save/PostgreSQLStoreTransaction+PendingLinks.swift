#if PostgreSQL
import PersistenceRelational

extension PostgreSQLStoreTransaction {
    /// Links of one join-table side waiting to be written by one statement: the arrays of
    /// their keys (and positions), unnested by the server, so that a save linking 10,000
    /// new books to their authors is a few round trips, not one a link.
    ///
    /// Each kind keeps the statement a link was written by alone, row for row:
    /// - `set`: `ON CONFLICT DO NOTHING` (a link that is there stays as it is);
    /// - `setAt`: at a given position, `ON CONFLICT DO UPDATE` of this side's position;
    /// - `append`: after the last stored position of its own object, `ON CONFLICT DO UPDATE`
    ///   of this side's position only where it has none (the other side wrote the link).
    ///   Appends of one object in one statement are numbered after the stored ones in the
    ///   order they came; an append that meets a link with a position leaves a gap in the
    ///   numbers after it, which orders as before.
    ///
    /// A statement may not propose one row twice (PostgreSQL refuses an `ON CONFLICT DO
    /// UPDATE` that affects a row a second time), so a link already in the buffer writes the
    /// buffer first.
    struct PendingLinks {
        enum Kind { case set, setAt, append }

        struct Pair: Hashable {
            var own: Int64
            var other: Int64
        }

        let side: RelationalJoinSide
        let kind: Kind
        var owns: [Int64] = []
        var others: [Int64] = []
        /// `setAt`'s positions; `append`'s rank among the buffer's appends of the same own
        /// object (1 for its first).
        var numbers: [Int64] = []
        /// The links in the buffer, to find one proposed twice.
        var pairs: Set<Pair> = []
        var appendsByOwn: [Int64: Int64] = [:]

        mutating func append(own: Int64, other: Int64, position: Int64?) {
            owns.append(own)
            others.append(other)
            pairs.insert(Pair(own: own, other: other))
            switch kind {
            case .setAt: numbers.append(position ?? 0)
            case .append:
                let rank = appendsByOwn[own, default: 0] + 1
                appendsByOwn[own] = rank
                numbers.append(rank)
            case .set: break
            }
        }

        /// The statement and its parameters.
        func statement() -> (String, [PGValue]) {
            let table = pgIdentifier(side.table.name)
            let own = pgIdentifier(side.ownColumn), other = pgIdentifier(side.otherColumn)
            let conflict = "ON CONFLICT (\"source\", \"destination\")"
            switch (kind, side.positionColumn.map(pgIdentifier)) {
            case (.setAt, let position?):
                return (
                    "INSERT INTO \(table) (\(own), \(other), \(position)) "
                        + "SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::bigint[]) "
                        + "\(conflict) DO UPDATE SET \(position) = excluded.\(position)",
                    [.integerArray(owns), .integerArray(others), .integerArray(numbers)])
            case (.append, let position?):
                return (
                    "INSERT INTO \(table) (\(own), \(other), \(position)) "
                        + "SELECT v.o, v.d, (SELECT coalesce(max(t.\(position)), -1) FROM \(table) t WHERE t.\(own) = v.o) + v.n "
                        + "FROM unnest($1::bigint[], $2::bigint[], $3::bigint[]) AS v(o, d, n) "
                        + "\(conflict) DO UPDATE SET \(position) = excluded.\(position) WHERE \(table).\(position) IS NULL",
                    [.integerArray(owns), .integerArray(others), .integerArray(numbers)])
            default:
                return (
                    "INSERT INTO \(table) (\(own), \(other)) SELECT * FROM unnest($1::bigint[], $2::bigint[]) "
                        + "\(conflict) DO NOTHING",
                    [.integerArray(owns), .integerArray(others)])
            }
        }
    }

    /// Adds a link to the buffer of its side and kind, writing buffered rows first (so
    /// that statements keep their order) and the buffer first when it already holds the
    /// link or is full.
    func bufferLink(_ side: RelationalJoinSide, _ kind: PendingLinks.Kind, own: Int64, other: Int64, position: Int64?) throws {
        if hasBufferedRows { try flush() }
        let place = pendingLinks.firstIndex { $0.side == side && $0.kind == kind } ?? {
            pendingLinks.append(PendingLinks(side: side, kind: kind))
            return pendingLinks.count - 1
        }()
        if pendingLinks[place].pairs.contains(PendingLinks.Pair(own: own, other: other)) || pendingLinks[place].owns.count >= 10_000 {
            try flushLinks()
            return try bufferLink(side, kind, own: own, other: other, position: position)
        }
        pendingLinks[place].append(own: own, other: other, position: position)
    }

    /// Writes the buffered links, a statement per side and kind, in the order the buffers
    /// were begun (their writes do not depend on one another: each affects only its own
    /// side's position).
    func flushLinks() throws {
        guard !pendingLinks.isEmpty else { return }
        let buffers = pendingLinks
        pendingLinks = []
        for buffer in buffers where !buffer.owns.isEmpty {
            let (sql, parameters) = buffer.statement()
            try store.connection.execute(sql, parameters)
        }
    }
}
#endif
