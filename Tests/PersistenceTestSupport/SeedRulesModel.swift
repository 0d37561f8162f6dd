import Foundation
import Persistence

/// The seeds' rules in one model file: a validation predicate with its warning, Binary Data
/// with a minimum and maximum length, fetched properties, fetch indexes.
package enum SeedRulesModel {
    package static let contents = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            <entity name="Shelf" representedClassName="Shelf" syncable="YES">
                <attribute name="label" optional="YES" attributeType="String"/>
                <relationship name="books" optional="YES" toMany="YES" minCount="2" maxCount="3" deletionRule="Nullify" destinationEntity="Book" inverseName="shelf" inverseEntity="Book" spotlightIndexingEnabled="YES"/>
                <fetchedProperty name="thinBooks" optional="YES">
                    <fetchRequest name="fetchedPropertyFetchRequest" entity="Book" predicateString="shelf == $FETCH_SOURCE AND pages &lt; 100"/>
                </fetchedProperty>
            </entity>
            <entity name="Book" representedClassName="Book" syncable="YES">
                <attribute name="title" optional="YES" attributeType="String">
                    <validationPredicate predicate="SELF != 'bad'" warning="A title can't be 'bad'."/>
                </attribute>
                <attribute name="pages" optional="YES" attributeType="Integer 32" defaultValueString="0" usesScalarValueType="YES"/>
                <attribute name="cover" optional="YES" attributeType="Binary" minValueString="2" maxValueString="4"/>
                <relationship name="shelf" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Shelf" inverseName="books" inverseEntity="Shelf"/>
                <fetchIndex name="byPagesDescending">
                    <fetchIndexElement property="pages" type="Binary" order="descending"/>
                    <fetchIndexElement property="title" type="Binary" order="ascending"/>
                </fetchIndex>
            </entity>
        </model>
        """

    /// The model, read from the file above.
    package static func model() throws -> ManagedObjectModel {
        let url = try ModelFixtures.writeContents(contents)
        defer { ModelFixtures.removeContents(url) }
        let model = try ManagedObjectModel(contentsOf: url.deletingLastPathComponent())
        try model.validate()
        return model
    }

    /// An in-memory container of the model; its view context lives as long as it does.
    package static func container() throws -> PersistentContainer {
        try PersistentContainer(model: model(), storeURL: nil)
    }
}
