import Foundation

/// Records changes as undo actions, in groups, and replays them backwards (undo) and
/// forwards again (redo): the shape of Foundation's `UndoManager`, which a context records
/// its objects' changes into (see `ManagedObjectContext.undoManager`).
///
/// Foundation on Linux has no `UndoManager` (swift-corelibs-foundation never implemented
/// `NSUndoManager`), so the library brings this one, with the same names and rules:
///
/// - Actions are registered with `registerUndo(withTarget:handler:)` and undone in reverse
///   order of registration, a group at a time. An action registered while undoing goes on
///   the redo stack; one registered while redoing, or at any other time, on the undo stack
///   (and outside undo and redo it clears the redo stack: the future changed).
/// - `beginUndoGrouping()` and `endUndoGrouping()` make one group of everything between
///   them; groups nest, and a nested group is undone with its enclosing one.
/// - With `groupsByEvent` (the default), a registration outside any group opens a group of
///   its own, which stays open until the event ends. Foundation ends an event when the run
///   loop turns, and a command-line program turns none, so here the event's group is
///   closed by `undo()`, by `endUndoGrouping()` called outside an explicit group, and by the
///   context's `processPendingChanges()` and `save()`. Everything changed between two of
///   those is one undo step.
///
/// Not Sendable: like a context, it belongs to one queue (the queue of the context it is
/// set on).
public final class UndoManager {
    /// A registered action: the handler with its target, run once.
    private struct Action {
        let run: () -> Void
    }

    /// A closed group of actions, in order of registration, with its name.
    private struct Group {
        var actions: [Action] = []
        var actionName = ""
        /// The keys of actions registered `once` in the group (kept on the outermost group).
        var recorded: Set<ObjectIdentifier> = []
    }

    private enum State { case idle, undoing, redoing }

    /// Closed groups that `undo()` replays, the last one first.
    private var undoStack: [Group] = []
    /// Closed groups that `redo()` replays, the last one first.
    private var redoStack: [Group] = []
    /// The open groups, the innermost last.
    private var openGroups: [Group] = []
    /// Whether the outermost open group was opened by a registration (an event's group)
    /// rather than by `beginUndoGrouping()`.
    private var eventGroupIsOpen = false
    private var state = State.idle
    /// How many times `disableUndoRegistration()` was called more than
    /// `enableUndoRegistration()`.
    private var disabledCount = 0

    /// Whether a registration outside any group opens one of its own (see the type's
    /// documentation for when it closes). True by default, as in Foundation; set it to false
    /// to group with `beginUndoGrouping()` and `endUndoGrouping()` alone.
    public var groupsByEvent = true

    /// The most groups the undo stack keeps (the oldest go first); 0, the default, for no limit.
    public var levelsOfUndo = 0 {
        didSet { trim() }
    }

    /// Creates an undo manager with empty stacks.
    public init() {}

    // MARK: - Registering

    /// Registers `handler` to run with `target` when the current group is undone (or, while
    /// undoing, redone). The target is held strongly until the action runs or is removed.
    ///
    /// The handler records the opposite change through the same undo manager when it runs,
    /// which is how redo knows what to do.
    public func registerUndo<Target: AnyObject>(withTarget target: Target, handler: @escaping (Target) -> Void) {
        register(once: nil) { handler(target) }
    }

    /// Registers `action` unless an action with the same `key` is already in the outermost
    /// open group: a context records an object's state once per group, the first time the
    /// object changes in it, since undoing the group restores that state whatever followed.
    ///
    /// - Returns: whether the action was registered.
    @discardableResult
    package func register(once key: ObjectIdentifier?, _ action: @escaping () -> Void) -> Bool {
        guard isUndoRegistrationEnabled else { return false }
        if openGroups.isEmpty {
            // Outside undo and redo, nothing without a group is recorded unless events group.
            guard groupsByEvent || state != .idle else { return false }
            openGroups.append(Group())
            eventGroupIsOpen = state == .idle
        }
        if let key {
            guard openGroups[0].recorded.insert(key).inserted else { return false }
        }
        if state == .idle { redoStack.removeAll() }
        openGroups[openGroups.count - 1].actions.append(Action(run: action))
        return true
    }

    /// Whether registrations are recorded.
    public var isUndoRegistrationEnabled: Bool { disabledCount == 0 }

    /// Stops recording registrations until a matching `enableUndoRegistration()`; calls nest.
    public func disableUndoRegistration() { disabledCount += 1 }

    /// Undoes one `disableUndoRegistration()`.
    public func enableUndoRegistration() {
        if disabledCount > 0 { disabledCount -= 1 }
    }

    /// Names the current group's change ("Delete Book"), for a menu item such as "Undo
    /// Delete Book".
    public func setActionName(_ name: String) {
        if !openGroups.isEmpty {
            openGroups[openGroups.count - 1].actionName = name
        } else if !undoStack.isEmpty {
            undoStack[undoStack.count - 1].actionName = name
        }
    }

    // MARK: - Grouping

    /// Opens a group: everything registered until the matching `endUndoGrouping()` is undone
    /// in one step. Groups nest.
    public func beginUndoGrouping() {
        openGroups.append(Group())
    }

    /// Closes the innermost open group. A nested group joins its enclosing one; an outermost
    /// one goes on the undo stack (or, while undoing, the redo stack). Outside any explicit
    /// group, closes the event's group (see `groupsByEvent`); with no group open, does nothing.
    public func endUndoGrouping() {
        guard let group = openGroups.popLast() else { return }
        if openGroups.isEmpty {
            eventGroupIsOpen = false
            push(group)
        } else {
            openGroups[openGroups.count - 1].actions += group.actions
            if openGroups[openGroups.count - 1].actionName.isEmpty {
                openGroups[openGroups.count - 1].actionName = group.actionName
            }
        }
    }

    /// How deeply groups are open: 0 when none is.
    public var groupingLevel: Int { openGroups.count }

    /// Closes the event's group, if one is open and no explicit group encloses it; called at
    /// the end of an event (see `groupsByEvent`).
    public func endEventGroup() {
        guard eventGroupIsOpen, openGroups.count == 1 else { return }
        endUndoGrouping()
    }

    // MARK: - Undoing and redoing

    /// Whether there is a group to undo (an event's open group counts).
    public var canUndo: Bool {
        !undoStack.isEmpty || (eventGroupIsOpen && openGroups.count == 1 && !openGroups[0].actions.isEmpty)
    }

    /// Whether there is a group to redo.
    public var canRedo: Bool { !redoStack.isEmpty }

    /// Whether `undo()` is running its actions.
    public var isUndoing: Bool { state == .undoing }

    /// Whether `redo()` is running its actions.
    public var isRedoing: Bool { state == .redoing }

    /// The name of the group `undo()` would undo; empty when it has none.
    public var undoActionName: String { undoStack.last?.actionName ?? "" }

    /// The name of the group `redo()` would redo; empty when it has none.
    public var redoActionName: String { redoStack.last?.actionName ?? "" }

    /// Undoes the last group: closes the event's group first (as Foundation does), then runs
    /// the group's actions, the last registered first. What they register goes on the redo
    /// stack as one group. Does nothing inside an explicit group, or with nothing to undo.
    public func undo() {
        endEventGroup()
        guard openGroups.isEmpty, state == .idle, let group = undoStack.popLast() else { return }
        replay(group, as: .undoing)
    }

    /// Redoes the last undone group; what its actions register goes on the undo stack.
    public func redo() {
        guard openGroups.isEmpty, state == .idle, let group = redoStack.popLast() else { return }
        replay(group, as: .redoing)
    }

    /// Empties both stacks and drops the open groups' actions (the groups stay open).
    public func removeAllActions() {
        undoStack.removeAll()
        redoStack.removeAll()
        for index in openGroups.indices {
            openGroups[index].actions.removeAll()
            openGroups[index].recorded.removeAll()
        }
    }

    // MARK: - Internals

    private func replay(_ group: Group, as replaying: State) {
        state = replaying
        openGroups.append(Group(actionName: group.actionName))
        for action in group.actions.reversed() { action.run() }
        let opposite = openGroups.removeLast()
        state = .idle
        guard !opposite.actions.isEmpty else { return }
        if replaying == .undoing {
            redoStack.append(opposite)
        } else {
            undoStack.append(opposite)
            trim()
        }
    }

    private func push(_ group: Group) {
        guard !group.actions.isEmpty else { return }
        switch state {
        case .undoing: redoStack.append(group)
        case .idle, .redoing:
            undoStack.append(group)
            trim()
        }
    }

    private func trim() {
        if levelsOfUndo > 0, undoStack.count > levelsOfUndo { undoStack.removeFirst(undoStack.count - levelsOfUndo) }
    }
}
