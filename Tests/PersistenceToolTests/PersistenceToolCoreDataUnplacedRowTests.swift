import Foundation
import PersistenceTestSupport
import Persistence
import PersistenceSQLite
import ProcessTestSupport
import Testing

/// A Core Data store edited by hand so that one of its rows cannot be placed (its `Z_ENT` is
/// in no entity of `Z_PRIMARYKEY`): `persistence-tool store export` refuses it, naming the
/// row, rather than printing the other rows as if it were all.
@Suite struct PersistenceToolCoreDataUnplacedRowTests {
    @Test(arguments: ["99", "NULL"])
    func exportRefusesARowWhoseEntityNumberNamesNoEntity(_ number: String) throws {
        let copy = try PersistenceToolCoreDataTests.copy()
        defer { try? FileManager.default.removeItem(at: copy.directory) }
        do {
            let database = try Database(path: copy.store, mode: .mustExist)
            defer { try? database.close() }
            try database.execute("UPDATE ZCAR SET Z_ENT = \(number) WHERE Z_PK = 87")
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: copy.store))
        let run = try ToolRun(["store", "export", copy.store] + PersistenceToolCoreDataTests.model)
        #expect(run.status != 0, "\(run)")
        #expect(run.stdout == "", "nothing of a partial export is printed")
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        #expect(run.stderr.contains("row Z_PK 87 of ZCAR has Z_ENT \(number)"), "\(run.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: copy.store)) == before)
    }
}
