import CSQLite
import Foundation

/// An SQL aggregate function written in Swift, such as `sum` or `group_concat`.
///
/// SQLite creates one value with `init()` for each group an aggregate query forms, feeds it
/// the group's rows through ``step(_:)`` and asks ``finalize()`` for the result. A group
/// with no rows gets a fresh value that is finalized without any step.
///
/// ```swift
/// struct Longest: DatabaseAggregate {
///     var best = ""
///     mutating func step(_ arguments: [SQLiteValue]) throws {
///         if let text = arguments[0].textValue, text.count > best.count { best = text }
///     }
///     func finalize() throws -> SQLiteValue { .text(best) }
/// }
/// try db.createAggregate("longest", argumentCount: 1) { Longest() }
/// ```
public protocol DatabaseAggregate {
    /// Takes one row's arguments into the running state.
    ///
    /// - Throws: Any error; the SQL statement then fails with an ``SQLiteError`` whose
    ///   message is the error's description, and the state is discarded.
    mutating func step(_ arguments: [SQLiteValue]) throws

    /// The aggregate's result for the rows stepped so far.
    ///
    /// - Throws: Any error; the SQL statement then fails as for ``step(_:)``.
    func finalize() throws -> SQLiteValue
}

extension Database {
    /// Registers a Swift aggregate function callable from SQL
    /// ([`sqlite3_create_function_v2`](https://sqlite.org/c3ref/create_function.html) with
    /// `xStep` and `xFinal`).
    ///
    /// Each group's state lives in a Swift box whose pointer SQLite keeps in the group's
    /// [`sqlite3_aggregate_context`](https://sqlite.org/c3ref/aggregate_context.html).
    /// SQLite calls `xFinal` for every group that was stepped, also when the statement fails
    /// or is reset half way, and the box is released there, so no state leaks.
    ///
    /// - Parameters:
    ///   - name: The SQL name. Registering the same name and argument count again replaces it.
    ///   - argumentCount: The number of arguments, or -1 for any number.
    ///   - deterministic: Whether the result depends only on the rows aggregated.
    ///   - makeAggregate: Creates the empty state of one group.
    /// - Throws: ``SQLiteError`` when SQLite refuses the registration (a bad name or count).
    public func createAggregate<Aggregate: DatabaseAggregate>(
        _ name: String, argumentCount: Int32, deterministic: Bool = true,
        _ makeAggregate: @escaping () -> Aggregate
    ) throws {
        let handle = try connection.openHandle()
        var flags = SQLITE_UTF8
        if deterministic { flags |= SQLITE_DETERMINISTIC }
        let factory = AggregateFactory { AggregateState(makeAggregate()) }
        let box = Unmanaged.passRetained(factory).toOpaque()
        // SQLite releases the factory through xDestroy, even when the registration fails.
        let resultCode = sqlite3_create_function_v2(
            handle, name, argumentCount, flags, box, nil,
            { context, argumentCount, arguments in
                guard let context, let state = AnyAggregateState.state(of: context, creating: true)
                else {
                    if let context { sqlite3_result_error_nomem(context) }
                    return
                }
                guard !state.failed else { return }
                var values = [SQLiteValue]()
                values.reserveCapacity(Int(argumentCount))
                for index in 0..<Int(argumentCount) {
                    values.append(SQLiteValue(sqliteValue: arguments?[index]))
                }
                do {
                    try state.step(values)
                } catch {
                    state.failed = true
                    sqlite3_result_error(context, String(describing: error), -1)
                }
            },
            { context in
                guard let context else { return }
                // A group never stepped has no state yet: finalize a fresh one.
                let stepped = AnyAggregateState.takeState(of: context)
                guard let state = stepped ?? AnyAggregateState.fresh(for: context) else { return }
                guard !state.failed else { return }
                do {
                    try state.finalize().setResult(of: context)
                } catch {
                    sqlite3_result_error(context, String(describing: error), -1)
                }
            },
            { userData in
                guard let userData else { return }
                Unmanaged<AggregateFactory>.fromOpaque(userData).release()
            })
        if resultCode != SQLITE_OK { try connection.raise(resultCode, sql: nil) }
    }
}

// MARK: - Internals

/// Makes the empty state of one group; SQLite keeps it as the function's user data.
private final class AggregateFactory {
    let make: () -> AnyAggregateState
    init(_ make: @escaping () -> AnyAggregateState) { self.make = make }
}

/// One group's running state, type-erased so that the C callbacks need no generics.
private class AnyAggregateState {
    /// Whether a step threw; SQLite stops the statement, and the state is only released.
    var failed = false

    func step(_ arguments: [SQLiteValue]) throws {}
    func finalize() throws -> SQLiteValue { .null }

    /// The state of `context`'s group, created and retained in the aggregate context on the
    /// first step when `creating`. Nil when SQLite cannot allocate the context.
    static func state(of context: OpaquePointer, creating: Bool) -> AnyAggregateState? {
        let size = Int32(MemoryLayout<UnsafeMutableRawPointer?>.size)
        guard let slot = sqlite3_aggregate_context(context, creating ? size : 0) else { return nil }
        let pointer = slot.assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
        if let existing = pointer.pointee {
            return Unmanaged<AnyAggregateState>.fromOpaque(existing).takeUnretainedValue()
        }
        guard creating, let userData = sqlite3_user_data(context) else { return nil }
        let factory = Unmanaged<AggregateFactory>.fromOpaque(userData).takeUnretainedValue()
        let state = factory.make()
        pointer.pointee = Unmanaged.passRetained(state).toOpaque()
        return state
    }

    /// Removes the state from `context`'s aggregate context and hands over its retain.
    static func takeState(of context: OpaquePointer) -> AnyAggregateState? {
        guard let slot = sqlite3_aggregate_context(context, 0) else { return nil }
        let pointer = slot.assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
        guard let existing = pointer.pointee else { return nil }
        pointer.pointee = nil
        return Unmanaged<AnyAggregateState>.fromOpaque(existing).takeRetainedValue()
    }

    /// A fresh state for a group that had no rows.
    static func fresh(for context: OpaquePointer) -> AnyAggregateState? {
        guard let userData = sqlite3_user_data(context) else { return nil }
        return Unmanaged<AggregateFactory>.fromOpaque(userData).takeUnretainedValue().make()
    }
}

/// The state of one group for a concrete aggregate type.
private final class AggregateState<Aggregate: DatabaseAggregate>: AnyAggregateState {
    var aggregate: Aggregate
    init(_ aggregate: Aggregate) { self.aggregate = aggregate }
    override func step(_ arguments: [SQLiteValue]) throws { try aggregate.step(arguments) }
    override func finalize() throws -> SQLiteValue { try aggregate.finalize() }
}
