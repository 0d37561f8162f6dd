/// Objects grouped into sections by name as they come (`fetchSections`), sections in the
/// order of their first object.
///
/// A request sorted by its section key brings each section's objects together and the names
/// in one direction, so each new name is compared with the last section's alone: while names
/// only grow (or only shrink) none can be one seen before. Only when they turn back are the
/// sections indexed by name, from then on. Indexing every section from the start cost a
/// hashed insert per section, for sections whose names could not repeat.
struct SectionGrouping {
    private(set) var sections: [FetchedSection] = []
    /// Positions in `sections` by name, once the names have turned back.
    private var index: [String: Int]?
    /// Whether the names so far grew (1) or shrank (-1) from each section to the next; 0
    /// before the second section.
    private var direction = 0

    /// Adds `object` to the section named `name`: the last, an earlier one, or a new one.
    mutating func add(_ object: ManagedObject, to name: String) {
        guard let last = sections.indices.last else { return open(name, with: object) }
        if sections[last].name == name { return sections[last].objects.append(object) }
        if index == nil {
            let step = name < sections[last].name ? -1 : 1
            if direction == 0 || direction == step {
                direction = step
                return open(name, with: object)
            }
            var positions: [String: Int] = [:]
            for position in sections.indices { positions[sections[position].name] = position }
            index = positions
        }
        if let position = index?[name] { return sections[position].objects.append(object) }
        index?[name] = sections.count
        open(name, with: object)
    }

    private mutating func open(_ name: String, with object: ManagedObject) {
        sections.append(FetchedSection(name: name, objects: [object]))
    }
}
