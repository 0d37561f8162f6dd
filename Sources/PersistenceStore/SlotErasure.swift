/// The one place where a slot changes its object type.
///
/// An object's slots are kept in one `SlotStorage`, which knows nothing of the context's
/// object class: it keeps every slot as a `StoredSlot` (`PropertySlot<NoObject>`), and
/// `PropertySlots<Object>` hands them back as `PropertySlot<Object>`. The two are cast to
/// each other bit for bit, which is sound because a `PropertySlot`'s layout does not depend on
/// `Object`: `Object` is constrained to classes, and it appears only as a reference
/// (`Object?`, `[Object]`), which for every Swift class is one pointer (`nil` the null
/// pointer, an array one pointer to its buffer); so the payload of every case, the
/// enumeration's size, alignment and tag are the same for any class. A `StoredSlot` is never
/// read as a `NoObject` (which has no instances): the references it carries are only moved,
/// retained and released, never called. `SlotErasureTests` checks the layouts and every case's
/// round trip, and fails if a compiler ever lays them out differently.
extension PropertySlot {
    /// This slot as the storage keeps it.
    @inlinable @inline(__always)
    package var erased: PropertySlot<NoObject> { unsafeBitCast(self, to: PropertySlot<NoObject>.self) }
}

extension PropertySlot where Object == NoObject {
    /// A kept slot as a slot of `Object`, the class whose references it carries.
    @inlinable @inline(__always)
    package func typed<Typed: AnyObject>(as type: Typed.Type = Typed.self) -> PropertySlot<Typed> {
        unsafeBitCast(self, to: PropertySlot<Typed>.self)
    }
}
