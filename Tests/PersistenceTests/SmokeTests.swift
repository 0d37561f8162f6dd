import Testing
import Persistence

@Test func libraryHasAVersion() { #expect(!PersistenceVersion.string.isEmpty) }
