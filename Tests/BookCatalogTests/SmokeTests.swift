import Testing
import Persistence
import BookCatalog

@Test func libraryHasAVersion() { #expect(!PersistenceVersion.string.isEmpty) }
