import Foundation
import PersistenceModel

/// What one transaction of the persistent history did to one object: Core Data's
/// `NSPersistentHistoryChange`.
public struct PersistentHistoryChange: Sendable, Equatable {
    /// Whether the object was inserted, updated or deleted (Core Data's
    /// `NSPersistentHistoryChangeType`).
    public enum ChangeType: Int, Sendable, Equatable {
        case insert = 0
        case update = 1
        case delete = 2
    }

    /// The change's number in the store, increasing with each change recorded.
    public let changeID: Int64
    /// What happened to the object.
    public let changeType: ChangeType
    /// The object, under the ID every context of the store gives it.
    public let changedObjectID: ObjectID
    /// For an update, the names of the properties whose values the transaction wrote
    /// (attributes, and relationships whose links it changed); nil for an insert or a delete.
    public let updatedProperties: Set<String>?
    /// For a delete, the values the object had of its attributes marked "preserve after
    /// deletion" in the model (Core Data's tombstone), by attribute name; nil for an insert,
    /// an update, or a deleted object with no such attribute.
    public let tombstone: [String: AttributeValue]?
    /// Beyond Core Data, whose history keeps no old values (only a deleted object's
    /// "preserve after deletion" attributes, in ``tombstone``): the values the change
    /// replaced, by property name, so that a change can be undone from the history alone.
    /// For an update, the stored attributes, to-one relationships and join-table to-many
    /// relationships (``PersistentHistoryValue/objects(_:)``) it wrote, as they were before;
    /// for a delete, every such property the object had (a to-many whose inverse is a to-one
    /// is not kept: the other side's change keeps that to-one); nil for an insert, and for
    /// changes recorded by a store that did not keep them (written before this release, or
    /// by a store that keeps none, such as one in Core Data's layout).
    public let previousValues: [String: PersistentHistoryValue]?

    package init(
        changeID: Int64, changeType: ChangeType, changedObjectID: ObjectID, updatedProperties: Set<String>?,
        tombstone: [String: AttributeValue]?, previousValues: [String: PersistentHistoryValue]? = nil
    ) {
        self.changeID = changeID
        self.changeType = changeType
        self.changedObjectID = changedObjectID
        self.updatedProperties = updatedProperties
        self.tombstone = tombstone
        self.previousValues = previousValues
    }
}

/// Core Data's name for a change's type (`NSPersistentHistoryChangeType`).
public typealias PersistentHistoryChangeType = PersistentHistoryChange.ChangeType
