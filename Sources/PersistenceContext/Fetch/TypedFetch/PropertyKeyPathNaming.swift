/// A class whose Swift key paths name its entity's properties, so that Foundation's
/// `#Predicate` and `SortDescriptor` over it can run in a store (see ``FetchDescriptor``).
///
/// A key path such as `\Book.title` says nothing a store understands: the property behind it
/// is a computed Swift property reading the object's value for the key `"title"`. This table
/// says which key it reads. `persistence-codegen` and its build plugin write the table for
/// every generated class (each attribute and relationship, the inherited ones included); a
/// hand-written subclass of `ManagedObject` declares its own:
///
/// ```swift
/// final class Note: ManagedObject, PropertyKeyPathNaming {
///     var text: String { value(forKey: "text", default: "") }
///     static var propertyNamesByKeyPath: [AnyKeyPath: String] { [\Note.text: "text"] }
/// }
/// ```
///
/// Swift inherits a conformance, and a subclass cannot declare it again: the table of the
/// topmost conforming class therefore lists the key paths of its subclasses too
/// (`\Shelf.name` beside `\Item.name`), as the generated tables do; a hand-written
/// subclass of a generated class names its own key paths by overriding
/// `ManagedObject.additionalPropertyNamesByKeyPath`.
public protocol PropertyKeyPathNaming: AnyObject {
    /// The entity's property name for each key path of the class (and of its subclasses)
    /// that reads one: `[\Book.title: "title", \Book.authors: "authors"]`.
    static var propertyNamesByKeyPath: [AnyKeyPath: String] { get }
}
